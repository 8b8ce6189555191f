"""tad.compile_train_step(..., target="cuda") under --gpu-emulate: the
parameters and Adam's state stay in (emulated) device memory between steps
(tad.DeviceArray, two sets used in turn); 5 steps match the CPU target's."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import tad

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 4))
x, y = torch.randn(8, 16), torch.randn(8, 4)
steps = {}
for target, extra in (("cpu", []), ("cuda", ["--gpu-emulate"])):
    steps[target] = tad.compile_train_step(model, (x,), (y,), F.mse_loss,
                                           optimizer=tad.Adam(lr=1e-2),
                                           target=target, extra_args=extra)
gpu = steps["cuda"]
print("params:", type(gpu.params[0]).__name__, "state:", type(gpu.state[0]).__name__)
losses = {t: [s(x.numpy(), y.numpy()) for _ in range(5)] for t, s in steps.items()}
print("losses:", " ".join("%.5f" % v for v in losses["cuda"]))
same = np.allclose(losses["cpu"], losses["cuda"], rtol=1e-4, atol=1e-6) and all(
    np.allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-5)
    for a, b in zip(steps["cpu"].params + steps["cpu"].state, gpu.params + gpu.state))
print("device-resident steps ~ CPU:", "close" if same else "DIFFERENT")
gpu.copy_to(model)
print("copied back:", np.allclose(model[0].weight.detach().numpy(),
                                  np.asarray(gpu.params[0])))
