"""Step time of a data-parallel training step on R ranks against one
process (docs/distributed.md, "Measured").

    python3 bench/data_parallel.py                       # one process, whole batch
    mpirun -np R ... python3 bench/data_parallel.py --dp # R ranks, batch / R each

The model is the demo's MLP (64-128-10, ReLU, cross-entropy, Adam, f32)
with a global batch of --batch samples (default 256); --hidden and
--layers (hidden layers, default 1) make it wider and deeper, so that its
gradients fill several buckets of --bucket-bytes (the overlap of their
all-reduces with the backward pass: compare TAD_COLLECTIVE_OVERLAP=0 and
1). Prints the median step time over --steps steps after --warmup, on
rank 0.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tad  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dp", action="store_true")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--bucket-bytes", type=int, default=tad.train.DEFAULT_BUCKET_BYTES)
    args = ap.parse_args()
    rank, size = tad.data_parallel_rank() if args.dp else (0, 1)
    part = args.batch // size
    torch.manual_seed(0)
    layers = [nn.Linear(64, args.hidden), nn.ReLU()]
    for _ in range(args.layers - 1):
        layers += [nn.Linear(args.hidden, args.hidden), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(args.hidden, 10))
    g = torch.Generator().manual_seed(rank)
    x = torch.randn(part, 64, generator=g)
    y = torch.randint(0, 10, (part,), generator=g)
    step = tad.compile_train_step(model, (x,), (y,), F.cross_entropy,
                                  tad.Adam(lr=1e-3), data_parallel=args.dp,
                                  bucket_bytes=args.bucket_bytes)
    xn, yn = x.numpy(), y.numpy()
    times = []
    for i in range(args.warmup + args.steps):
        t = time.perf_counter()
        step(xn, yn)
        if i >= args.warmup:
            times.append(time.perf_counter() - t)
    if rank == 0:
        nparams = sum(p.numel() for p in model.parameters())
        print(f"{'data-parallel' if args.dp else 'one process'}: {size} rank(s), "
              f"batch {args.batch} ({part} per rank), {nparams} parameters: "
              f"median step {statistics.median(times) * 1e3:.3f} ms, "
              f"{args.batch / statistics.median(times):.0f} samples/s")


if __name__ == "__main__":
    main()
