"""The PyTorch side of bench/data_parallel.py: the same MLP and Adam step
with torch.nn.parallel.DistributedDataParallel over gloo (Debian's torch
has no MPI or NCCL backend), R processes on 127.0.0.1, or one process
without DDP.

    python3 bench/data_parallel_torch.py --ranks 2
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def run(rank, args):
    torch.set_num_threads(1)
    size = args.ranks
    if size > 1:
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(args.port)
        dist.init_process_group("gloo", rank=rank, world_size=size)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, args.hidden), nn.ReLU(),
                          nn.Linear(args.hidden, 10))
    if size > 1:
        model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    part = args.batch // size
    g = torch.Generator().manual_seed(rank)
    x = torch.randn(part, 64, generator=g)
    y = torch.randint(0, 10, (part,), generator=g)
    times = []
    for i in range(args.warmup + args.steps):
        t = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        opt.step()
        if i >= args.warmup:
            times.append(time.perf_counter() - t)
    if rank == 0:
        med = statistics.median(times)
        print(f"torch {'DDP gloo' if size > 1 else 'one process'}: {size} rank(s), "
              f"batch {args.batch} ({part} per rank): median step {med * 1e3:.3f} ms, "
              f"{args.batch / med:.0f} samples/s")
    if size > 1:
        dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--port", type=int, default=29517)
    args = ap.parse_args()
    if args.ranks == 1:
        run(0, args)
    else:
        mp.spawn(run, args=(args,), nprocs=args.ranks)


if __name__ == "__main__":
    main()
