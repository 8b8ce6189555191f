"""BatchNorm in training mode: the running statistics are updated buffers
(extra arguments and results of the imported function). Checks the forward
outputs and new running statistics against PyTorch, then compiled SGD and
Adam training steps (tad.testing.check_training: losses, parameters and
running statistics), in float64 and float32."""
import copy
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402
from tad.testing import TOLERANCES, check_training  # noqa: E402


def build(dtype, seed=0):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(2, 3, 3, padding=1), torch.nn.BatchNorm2d(3), torch.nn.ReLU(),
        torch.nn.Flatten(), torch.nn.Linear(3 * 4 * 4, 6), torch.nn.BatchNorm1d(6),
        torch.nn.Tanh(), torch.nn.Linear(6, 2)).to(dtype)
    x = torch.randn(5, 2, 4, 4, dtype=dtype)
    y = torch.randn(5, 2, dtype=dtype)
    return model, (x,), (y,), F.mse_loss


def check_forward_stats(dtype):
    model, (x,), _, _ = build(dtype)
    dname = str(dtype).replace("torch.", "")
    text, info = tad.from_torch(model, (x,), return_info=True)
    module = tad.compile(text)
    params = [p.detach().numpy() for p in model.parameters()]
    names = [n for n, _ in model.named_buffers()]
    updated = [b.detach().numpy() for n, b in model.named_buffers()
               if not n.endswith("num_batches_tracked")]
    out = module.forward(x.numpy(), *params, *updated)
    ref = copy.deepcopy(model)
    want = [ref(x).detach().numpy()] + [b.numpy() for n, b in ref.named_buffers()
                                        if not n.endswith("num_batches_tracked")]
    rtol, atol = TOLERANCES[dname]
    errs = [float(np.max(np.abs(g - w))) / max(1.0, float(np.max(np.abs(w))))
            for g, w in zip(out, want)]
    ok = len(out) == len(want) == 1 + 4 and all(e <= rtol + atol for e in errs)
    print(("PASS" if ok else "FAIL") + f" {dname} forward and running statistics "
          f"({len(info.updated_buffers)} updated buffers of {len(names)})", flush=True)
    return 0 if ok else 1


failed = 0
for dtype in (torch.float64, torch.float32):
    failed += check_forward_stats(dtype)
    failed += check_training(build, dtype)
print(f"{failed} failed")
sys.exit(1 if failed else 0)
