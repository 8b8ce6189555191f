"""Ranks whose models differ: every rank gets a clear error, none hangs.

    mpirun -np 2 dp_mismatch.py CASE

CASE `hidden`: rank 1's MLP has 17 hidden units instead of 16 (different
parameter shapes; the first step's broadcast finds it). CASE `params`: rank
1's model has an extra layer (a different parameter count). CASE
`no-sync`: the parameters agree but rank 1's step is compiled for another
batch size... which the collectives accept (only gradients are reduced), so
this case checks that it trains rather than errs.
"""
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402

case = sys.argv[1]
rank, size = tad.data_parallel_rank()
torch.manual_seed(0)
hidden = 17 if case == "hidden" and rank == 1 else 16
layers = [nn.Linear(5, hidden), nn.Tanh(), nn.Linear(hidden, 3)]
if case == "params" and rank == 1:
    layers += [nn.Tanh(), nn.Linear(3, 3)]
model = nn.Sequential(*layers).double()
x = torch.randn(4, 5, dtype=torch.float64)
y = torch.randint(0, 3, (4,))
step = tad.compile_train_step(model, (x,), (y,), F.cross_entropy, tad.SGD(lr=0.1),
                              data_parallel=True)
try:
    loss = step(x.numpy(), y.numpy())
    print(f"rank {rank}: trained, loss {loss:.4f}")
except tad.TadError as e:
    print(f"rank {rank}: TadError: {e}")
