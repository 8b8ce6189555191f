"""Data-parallel training against one process on the whole batch.

    dp_train.py OUTDIR ref    # one process: N steps on the whole batches
    mpirun -np R ... dp_train.py OUTDIR dp [--mpi4py]
                              # each rank: the same N steps on its part

Models (an MLP and a small CNN), optimizers (SGD with momentum, Adam) and
dtypes (f64, f32) are all combined. In `dp` mode every rank starts from
*different* parameters (seeded by its rank): the first step broadcasts rank
0's, which are the reference's. Each run writes OUTDIR/<mode><rank>_<case>.npz
(parameters after every step, and the losses); dp_compare.py compares them.
--only=PREFIX runs the cases whose name (mlp_sgd_f64, ...) starts with it.
--bucket-bytes=N packs the gradients into buckets of at most N bytes (many
buckets, each started as soon as its gradients are computed).
With --mpi4py the script initialises MPI itself (mpi4py) before tad does.
"""
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402

STEPS = 3
BATCH = 8


def mlp():
    return nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3))


def cnn():
    return nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(4 * 3 * 3, 3))


MODELS = {"mlp": (mlp, (5,)), "cnn": (cnn, (1, 8, 8))}
OPTIMIZERS = {"sgd": lambda: tad.SGD(lr=0.1, momentum=0.9),
              "adam": lambda: tad.Adam(lr=1e-2)}
DTYPES = {"f64": torch.float64, "f32": torch.float32}


def data(shape, dtype):
    g = torch.Generator().manual_seed(1234)
    xs = [torch.randn((BATCH,) + shape, generator=g, dtype=dtype)
          for _ in range(STEPS)]
    ys = [torch.randint(0, 3, (BATCH,), generator=g) for _ in range(STEPS)]
    return xs, ys


def main():
    out, mode = sys.argv[1], sys.argv[2]
    if "--mpi4py" in sys.argv:
        from mpi4py import MPI  # noqa: F401  (initialises MPI)
    only = next((a[len("--only="):] for a in sys.argv if a.startswith("--only=")), "")
    buckets = next((int(a[len("--bucket-bytes="):]) for a in sys.argv
                    if a.startswith("--bucket-bytes=")), None)
    options = {"bucket_bytes": buckets} if buckets else {}
    rank, size = tad.data_parallel_rank() if mode == "dp" else (0, 1)
    part = BATCH // size
    for mname, (make, shape) in MODELS.items():
        for oname, opt in OPTIMIZERS.items():
            for dname, dtype in DTYPES.items():
                case = f"{mname}_{oname}_{dname}"
                if only and not case.startswith(only):
                    continue
                torch.manual_seed(rank if mode == "dp" else 0)
                model = make().to(dtype)
                xs, ys = data(shape, dtype)
                lo, hi = rank * part, (rank + 1) * part
                step = tad.compile_train_step(
                    model, (xs[0][lo:hi],), (ys[0][lo:hi],), F.cross_entropy,
                    opt(), data_parallel=(mode == "dp"), **options)
                arrays, losses = {}, []
                for k in range(STEPS):
                    losses.append(step(xs[k][lo:hi].numpy(), ys[k][lo:hi].numpy()))
                    for i, p in enumerate(step.params):
                        arrays[f"step{k}_p{i}"] = np.asarray(p)
                np.savez(os.path.join(out, f"{mode}{rank}_{case}.npz"),
                         losses=np.array(losses), **arrays)
    print(f"rank {rank} of {size}: done")


if __name__ == "__main__":
    main()
