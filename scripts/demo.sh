#!/usr/bin/env bash
# The main job: build tad, then train a PyTorch MLP on scikit-learn's
# handwritten digits (examples/digits/train.py) with a training step that
# tadc compiled from it (forward, cross-entropy, reverse-mode gradient and
# Adam update in one function of a shared object), printing loss and
# accuracy per epoch and writing out/digits_training.png.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# The checkout's package and tadc (an installed tad needs neither line;
# docs/install.md).
export PYTHONPATH="$ROOT/runtime/python${PYTHONPATH:+:$PYTHONPATH}"
export TADC="${TAD_BUILD_DIR:-$ROOT/build}/bin/tadc"
echo "==> training examples/digits with a tadc-compiled training step"
/usr/bin/python3 "$ROOT/examples/digits/train.py" "$@"
