#!/usr/bin/env python3
"""Trains the MLP of mlp.mlir with a training step compiled by tadc.

The data set is synthetic and embedded: 1024 points of a smooth nonlinear
function of 8 inputs plus a little noise, generated from a fixed seed. The
whole SGD step (forward, loss, reverse-mode gradient, update) is one
function of the compiled shared object; Python only shuffles and batches.
"""

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
import tad  # noqa: E402  (installed; in a checkout, PYTHONPATH=runtime/python)

BATCH, IN, HIDDEN = 64, 8, 32


def make_data(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, IN)).astype(np.float32)
    a = rng.standard_normal((IN, 1)).astype(np.float32) / np.sqrt(IN)
    y = np.sin(2.0 * x @ a) + 0.5 * x[:, :1] * x[:, 1:2]
    y += 0.05 * rng.standard_normal((n, 1))
    return x, y.astype(np.float32)


def init_params(seed):
    rng = np.random.default_rng(seed)
    return [
        (rng.standard_normal((IN, HIDDEN)) / np.sqrt(IN)).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        (rng.standard_normal((HIDDEN, 1)) / np.sqrt(HIDDEN)).astype(np.float32),
        np.zeros(1, np.float32),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "out"))
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    so = os.path.join(args.out, "mlp.so")
    start = time.time()
    model = tad.compile(os.path.join(HERE, "mlp.mlir"), output=so)
    print("compiled %s in %.2f s: %s" % (os.path.relpath(so), time.time() - start,
                                        ", ".join(model.functions)))

    x, y = make_data(1024, seed=0)
    params = init_params(seed=1)
    lr = np.array(args.lr, np.float32)
    rng = np.random.default_rng(2)
    first = last = None
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x))
        losses = []
        for i in range(0, len(x), BATCH):
            batch = order[i:i + BATCH]
            loss, *params = model.train_step(x[batch], y[batch], *params, lr)
            losses.append(float(loss))
        last = float(np.mean(losses))
        first = last if first is None else first
        if epoch == 1 or epoch % 5 == 0 or epoch == args.epochs:
            print("epoch %3d  train loss %.5f" % (epoch, last))
    print("trained %d epochs (%d steps) in %.2f s; loss %.5f -> %.5f"
          % (args.epochs, args.epochs * len(x) // BATCH, time.time() - start,
             first, last))
    # The loss must go down; a regression test runs this script.
    return 0 if last < 0.75 * first else 1


if __name__ == "__main__":
    sys.exit(main())
