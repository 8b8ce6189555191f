"""tad.TrainStep on the host writes each step's new parameters, buffers and
optimizer state into the arrays of the step before last, where nothing else
refers to them any more, instead of allocating a new set per step. Checked
here: the losses and final values equal those of a run that never reuses
(every step's arrays kept alive), bit for bit; the arrays are reused (two
sets alternate); and an array the caller still refers to is never
overwritten."""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import tad  # noqa: E402


def make_step():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.Tanh(),
                                torch.nn.Linear(5, 3)).double()
    x = torch.randn(4, 6, dtype=torch.float64)
    y = torch.randn(4, 3, dtype=torch.float64)
    step = tad.compile_train_step(model, (x,), (y,), torch.nn.functional.mse_loss,
                                  optimizer=tad.Adam(lr=0.05))
    return step, x.numpy(), y.numpy()


failures = 0


def check(name, ok):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + name, flush=True)


STEPS = 6
step, x, y = make_step()
losses, ids = [], []
for _ in range(STEPS):
    losses.append(step(x, y))
    ids.append([id(a) for a in step.params + step.state])
final = [a.copy() for a in step.params + step.state]

kept_step, x, y = make_step()
kept, kept_losses, snapshots = [], [], []
for _ in range(STEPS):
    kept_losses.append(kept_step(x, y))
    kept.append(kept_step.params + kept_step.state)  # every set stays alive
    snapshots.append([a.copy() for a in kept[-1]])
kept_final = kept_step.params + kept_step.state

check("losses equal a run without reuse", losses == kept_losses)
check("final parameters and state equal", all(
    np.array_equal(a, b) for a, b in zip(final, kept_final)))
check("two sets of arrays alternate", ids[2] == ids[4] and ids[3] == ids[5]
      and ids[2] != ids[3])
check("arrays the caller keeps are never written", all(
    np.array_equal(a, s) for arrays, snap in zip(kept, snapshots)
    for a, s in zip(arrays, snap)))
check("a kept set is not reused", len({id(a) for arrays in kept for a in arrays})
      == STEPS * len(kept[0]))
print(f"{failures} failed")
