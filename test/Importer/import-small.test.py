import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
import numpy as np
import torch
import tad
from models import Small

torch.manual_seed(0)
m = Small()
x = torch.randn(2, 4)
mod = tad.compile(tad.from_torch(m, (x,)))
got = mod.forward(x.numpy(), *[p.detach().numpy() for p in m.parameters()])
want = m(x).detach().numpy()
print("PASS small forward" if np.allclose(got, want, rtol=1e-5) else f"FAIL {got} {want}")
