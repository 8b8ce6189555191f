"""A rank that fails to take part, while rank 0 enters the step's
collectives; rank 0 must not wait forever.

    mpirun -np 2 dp_killed.py              # rank 1 exits (status 3) before
                                           # the first step: mpirun sees the
                                           # dead rank and ends the job
    mpirun -np 2 dp_killed.py hung [SECS]  # rank 1 sleeps (an endless loop,
                                           # a deadlock, an error caught and
                                           # ignored) after the first step:
                                           # rank 0's watchdog
                                           # (TAD_COLLECTIVE_TIMEOUT) ends it,
                                           # and mpirun the job
"""
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402

hung = sys.argv[1:2] == ["hung"]
rank, size = tad.data_parallel_rank()
model = nn.Sequential(nn.Linear(5, 4)).double()
x = torch.randn(4, 5, dtype=torch.float64)
y = torch.randint(0, 4, (4,))
step = tad.compile_train_step(model, (x,), (y,), F.cross_entropy, tad.SGD(lr=0.1),
                              data_parallel=True)
if not hung:
    if rank == 1:
        print("rank 1: exiting", flush=True)
        os._exit(3)
    step(x.numpy(), y.numpy())
    print("rank 0: trained alone (wrong)")
    sys.exit(0)
step(x.numpy(), y.numpy())  # both ranks: the broadcast and one step
print(f"rank {rank}: first step done", flush=True)
if rank == 1:
    print("rank 1: hanging", flush=True)
    time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 90)
step(x.numpy(), y.numpy())
print(f"rank {rank}: second step done", flush=True)
