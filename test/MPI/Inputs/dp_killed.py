"""A rank that dies: rank 1 exits (status 3) before the first step, while
rank 0 enters the step's collectives. mpirun sees the dead rank and ends
the job; rank 0 must not wait forever.

    mpirun -np 2 dp_killed.py
"""
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402

rank, size = tad.data_parallel_rank()
model = nn.Sequential(nn.Linear(5, 4)).double()
x = torch.randn(4, 5, dtype=torch.float64)
y = torch.randint(0, 4, (4,))
step = tad.compile_train_step(model, (x,), (y,), F.cross_entropy, tad.SGD(lr=0.1),
                              data_parallel=True)
if rank == 1:
    print("rank 1: exiting", flush=True)
    os._exit(3)
step(x.numpy(), y.numpy())
print("rank 0: trained alone (wrong)")
