#!/usr/bin/env python3
"""Trains a PyTorch MLP on scikit-learn's handwritten digits with a training
step compiled by tadc.

The model (64-128-10, ReLU) and its cross-entropy loss are written in
PyTorch; tad.compile_train_step imports them at the ATen level, appends the
reverse-mode gradient and the Adam update, and compiles the whole step into
one function of a shared object. Python only shuffles and batches; PyTorch
is used to define the model, never to run it. Writes a PNG of the training
curves.
"""

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
import tad  # noqa: E402  (installed; in a checkout, PYTHONPATH=runtime/python)
from tad import torch_import  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

BATCH = 32


class MLP(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.fc1 = nn.Linear(64, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def native_cross_entropy():
    """Whether tad has the ops F.cross_entropy traces to."""
    return all(torch_import.has_op(op) for op in ("tad._log_softmax", "tad.nll_loss_forward"))


def cross_entropy_onehot(logits, onehot):
    """Mean cross-entropy written with elementwise ops and sums (for tad
    builds without _log_softmax/nll_loss_forward). Log-softmax does not
    change when a row is shifted; shifting by the row mean keeps exp in range
    for this model (tad has no amax yet for the usual shift by the maximum)."""
    z = logits - logits.mean(dim=1, keepdim=True)
    logp = z - torch.log(torch.exp(z).sum(dim=1, keepdim=True))
    return -(logp * onehot).sum(dim=1).mean()


def load_data(seed):
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def progress(epoch, epochs, done, total, loss, width=24):
    filled = int(width * done / total)
    bar = "#" * filled + "." * (width - filled)
    return f"\repoch {epoch:2d}/{epochs} [{bar}] loss {loss:.4f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "out"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-accuracy", type=float, default=0.95)
    parser.add_argument("--precision", choices=("f32", "bf16"), default="f32",
                        help="bf16: mixed precision as torch.autocast (f32 master "
                             "weights; docs/mixed-precision.md)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tty = sys.stdout.isatty()
    t0 = time.time()

    x_train, y_train, x_test, y_test = load_data(args.seed)
    print(f"digits: {len(x_train)} training and {len(x_test)} test images of 8x8 pixels")

    torch.manual_seed(args.seed)
    model = MLP()
    native = native_cross_entropy()
    xb = torch.from_numpy(x_train[:BATCH])
    if native:
        loss_fn, targets = F.cross_entropy, (torch.from_numpy(y_train[:BATCH]),)
    else:
        loss_fn = cross_entropy_onehot
        targets = (torch.from_numpy(np.eye(10, dtype=np.float32)[y_train[:BATCH]]),)
    start = time.time()
    # One step for every batch size (the last batch of an epoch is smaller)
    # and one forward pass for the training and the test set.
    step = tad.compile_train_step(model, (xb,), targets, loss_fn=loss_fn,
                                  optimizer=tad.Adam(lr=args.lr),
                                  output=os.path.join(args.out, "digits_step.so"),
                                  dynamic_batch=True,
                                  precision=None if args.precision == "f32" else args.precision)
    predict = tad.compile(tad.from_torch(model, (xb,), name="logits",
                                         dynamic_shapes={0: {0: "n"}}))
    print("compiled the training step (%s cross-entropy, Adam) and the forward pass "
          "with tadc in %.2f s, for any batch size" %
          ("ATen" if native else "elementwise", time.time() - start))

    def accuracy(name, x, y):
        logits = predict.logits(x, *step.params)
        return float(np.mean(np.argmax(logits, axis=1) == y))

    rng = np.random.default_rng(args.seed + 1)
    history = {"loss": [], "train": [], "test": []}
    onehot = np.eye(10, dtype=np.float32)
    steps = -(-len(x_train) // BATCH)  # the last batch may be partial
    train_start = time.time()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x_train))
        losses = []
        for k in range(steps):
            idx = order[k * BATCH:(k + 1) * BATCH]
            target = y_train[idx] if native else onehot[y_train[idx]]
            losses.append(step(x_train[idx], target))
            if tty and (k % 4 == 0 or k == steps - 1):
                print(progress(epoch, args.epochs, k + 1, steps, np.mean(losses)),
                      end="", flush=True)
        loss = float(np.mean(losses))
        train_acc = accuracy("train", x_train, y_train)
        test_acc = accuracy("test", x_test, y_test)
        history["loss"].append(loss)
        history["train"].append(train_acc)
        history["test"].append(test_acc)
        line = progress(epoch, args.epochs, steps, steps, loss) if tty else \
            f"epoch {epoch:2d}/{args.epochs} loss {loss:.4f}"
        print(f"{line}  train acc {100 * train_acc:5.1f}%  test acc {100 * test_acc:5.1f}%",
              flush=True)
    train_time = time.time() - train_start
    print(f"trained {args.epochs} epochs ({args.epochs * steps} steps of batch {BATCH}, "
          f"the last of each epoch {len(x_train) - (steps - 1) * BATCH}) "
          f"in {train_time:.2f} s; test accuracy {100 * history['test'][-1]:.1f}%; "
          f"total {time.time() - t0:.1f} s")

    png = os.path.join(args.out, "digits_training.png")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        epochs = np.arange(1, args.epochs + 1)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
        ax1.plot(epochs, history["loss"], marker="o")
        ax1.set(xlabel="epoch", ylabel="training loss (cross-entropy)", yscale="log",
                title="loss")
        ax2.plot(epochs, 100 * np.array(history["train"]), marker="o", label="train")
        ax2.plot(epochs, 100 * np.array(history["test"]), marker="o", label="test")
        ax2.set(xlabel="epoch", ylabel="accuracy (%)", title="accuracy")
        ax2.legend()
        fig.suptitle("MLP 64-128-10 on sklearn digits, training step compiled by tadc")
        fig.tight_layout()
        fig.savefig(png, dpi=100)
        print(f"wrote {os.path.relpath(png)}")
    except ImportError:
        print("matplotlib is not installed: no plot (apt-get install python3-matplotlib)")
    return 0 if history["test"][-1] >= args.min_accuracy else 1


if __name__ == "__main__":
    sys.exit(main())
