#!/usr/bin/env bash
# The main job: build tad, compile the example MLP's training step
# (examples/mlp/mlp.mlir: forward, reverse-mode gradient and SGD update in
# one function) to a shared object with tadc, and train it on the embedded
# synthetic data set, printing the loss going down.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
export TADC="${TAD_BUILD_DIR:-$ROOT/build}/bin/tadc"
echo "==> training examples/mlp with a tadc-compiled training step"
/usr/bin/python3 "$ROOT/examples/mlp/train.py" "$@"
