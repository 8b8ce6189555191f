"""A rank that hangs without dying: rank 1 sleeps (an endless loop, a
deadlock, an error caught and ignored) instead of taking the first step,
while rank 0 waits in the step's collectives. The watchdog of rank 0
(TAD_COLLECTIVE_TIMEOUT seconds) reports the wait and ends rank 0, and
mpirun then ends the job, rank 1 included.

    TAD_COLLECTIVE_TIMEOUT=2 mpirun -np 2 dp_hung.py [SLEEP_SECONDS]
"""
import os
import sys
import time

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
step(x.numpy(), y.numpy())  # both ranks: the broadcast and one step
print(f"rank {rank}: first step done", flush=True)
if rank == 1:
    print("rank 1: hanging", flush=True)
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 90)
step(x.numpy(), y.numpy())
print(f"rank {rank}: second step done", flush=True)
