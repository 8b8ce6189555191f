"""tad.from_torch(..., dynamic_shapes=...) and
tad.compile_train_step(..., dynamic_batch=True): one module for every batch
size, checked against PyTorch; what cannot be generalised is refused."""
import sys

import numpy as np
import tad
import torch
import torch.nn as nn
import torch.nn.functional as F

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if not ok and detail else ""))
    failures += not ok


def refused(name, needle, call):
    """Checks that call() raises tad.DynamicShapeError saying `needle`, and
    prints the first line of its message."""
    try:
        call()
    except tad.DynamicShapeError as e:
        print("refused:", str(e).splitlines()[0])
        check(name, needle in str(e), str(e).splitlines()[0])
        return
    check(name, False)


torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(12, 8), nn.Tanh(), nn.Linear(8, 3)).double()
text = tad.from_torch(model, (torch.randn(4, 3, 4, dtype=torch.float64),),
                      dynamic_shapes={"input": {0: "batch"}})
print(text.splitlines()[0])
module = tad.compile(text)
params = [p.detach().numpy() for p in model.parameters()]
for n in (1, 5, 33):
    x = np.random.randn(n, 3, 4)
    out = module.forward(x, *params)
    check(f"forward at batch {n}", out.shape == (n, 3) and np.allclose(
        out, model(torch.tensor(x)).detach().numpy(), rtol=1e-12, atol=1e-14))

# A training step for every batch size against PyTorch's SGD (the
# flatten's backward is a view of the gradient to [?, 1, 5]).
def mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 4)).double()


reference, trained = mlp(), mlp()
trained.load_state_dict(reference.state_dict())
x0, y0 = torch.randn(8, 1, 5, dtype=torch.float64), torch.randint(0, 4, (8,))
step = tad.compile_train_step(trained, (x0,), (y0,), loss_fn=F.cross_entropy,
                              optimizer=tad.SGD(lr=0.1), dynamic_batch=True,
                              opt_level=2)
opt = torch.optim.SGD(reference.parameters(), lr=0.1)
for n in (8, 3, 8, 1, 13):
    x, y = torch.randn(n, 1, 5, dtype=torch.float64), torch.randint(0, 4, (n,))
    loss = step(x.numpy(), y.numpy())
    opt.zero_grad()
    expected = F.cross_entropy(reference(x), y)
    expected.backward()
    opt.step()
    same = all(np.allclose(p, q.detach().numpy(), rtol=1e-12, atol=1e-14)
               for p, q in zip(step.params, reference.parameters()))
    check(f"train step at batch {n}", np.isclose(loss, expected.item(), rtol=1e-12) and same)
try:
    step(np.zeros((4, 1, 5)), np.zeros(3, np.int64))
    check("inputs and targets of different batches refused", False)
except tad.TadError as e:
    check("inputs and targets of different batches refused", e.status == tad.STATUS_SHAPE)


class PerSample(nn.Module):
    def forward(self, x):
        return x.sum() / x.shape[0]  # the batch as a Python number


refused("size used as a number refused", "something other than a size differs",
        lambda: tad.from_torch(PerSample(), (torch.randn(4, 3),),
                               dynamic_shapes={0: {0: "b"}}))
refused("unknown input refused", "'y', which is not an input",
        lambda: tad.from_torch(model, (torch.randn(4, 3, 4),),
                               dynamic_shapes={"y": {0: "b"}}))

# An op that cannot take a dynamic size: a compile error, not a
# specialisation (padding of a dynamic dimension; padding the others
# lowers).
class Ranks(nn.Module):
    def forward(self, x):
        return torch.nn.functional.pad(x, (1, 2))


text = tad.from_torch(Ranks(), (torch.randn(2, 5, dtype=torch.float64),),
                      dynamic_shapes=[{1: "n"}])
try:
    tad.compile(text)
    check("op without a dynamic lowering refused", False)
except tad.CompileError as e:
    check("op without a dynamic lowering refused",
          "pads dimension 1, whose size is dynamic" in str(e))

# A convolution with a dynamic batch (tad-split-dynamic-batch) at batch
# sizes other than the traced one.
conv = nn.Conv2d(1, 2, 3).double()
text = tad.from_torch(conv, (torch.randn(2, 1, 5, 5, dtype=torch.float64),),
                      dynamic_shapes=[{0: "batch"}])
module = tad.compile(text)
for n in (1, 5):
    x = torch.randn(n, 1, 5, 5, dtype=torch.float64)
    out = module.forward(x.numpy(), *[p.detach().numpy() for p in conv.parameters()])
    check(f"convolution at batch {n}",
          np.allclose(out, conv(x).detach().numpy(), rtol=1e-12, atol=1e-13))


# A tensor of one value made in Python from a dynamic size (zeros of the
# batch) is a constant of each trace's size: rebuilt from the input's size.
class FromSize(nn.Module):
    def forward(self, x):
        return x * (torch.zeros(x.shape[0], 3, dtype=x.dtype) + 2.0)


text = tad.from_torch(FromSize(), (torch.randn(4, 3, dtype=torch.float64),),
                      dynamic_shapes=[{0: "b"}])
module = tad.compile(text)
for n in (1, 6):
    x = torch.randn(n, 3, dtype=torch.float64)
    check(f"splat of a dynamic size at batch {n}",
          np.array_equal(module.forward(x.numpy()), (2 * x).numpy()))


# Index patterns made from a dynamic size are made from an input at run
# time: torch.arange along the batch, triangular masks over it (tril/triu,
# a causal attention mask over a dynamic sequence). Forward and VJP
# against PyTorch at other sizes, -O0 and -O2.
class Arange(nn.Module):
    def forward(self, x):
        return x * torch.arange(x.shape[0], dtype=x.dtype)[:, None] + \
            torch.arange(x.shape[0])[:, None]


class Triangles(nn.Module):
    def forward(self, x):
        return torch.triu(x, 1) + 2 * torch.tril(x)


class CausalAttention(nn.Module):
    def forward(self, q):  # q: [sequence, width]
        n = q.shape[0]
        future = torch.ones(n, n, dtype=torch.bool).triu(1)
        scores = (q @ q.t()).masked_fill(future, float("-inf"))
        return torch.softmax(scores, -1) @ q


for model, example, dims in ((Arange(), (4, 3), {0: "b"}), (Triangles(), (4, 3), {0: "b"}),
                             (CausalAttention(), (4, 3), {0: "s"})):
    name = type(model).__name__
    text = tad.from_torch(model, (torch.randn(*example, dtype=torch.float64),),
                          dynamic_shapes=[dims])
    for level in (0, 2):
        module = tad.compile(text, vjp="forward", opt_level=level)
        for n in (1, 2, 7):
            shape = list(example)
            shape[next(iter(dims))] = n
            x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
            want = model(x)
            ct = torch.randn_like(want)
            (grad,) = torch.autograd.grad(want, x, ct)
            got = module.forward(x.detach().numpy())
            (vjp,) = module.forward_vjp(x.detach().numpy(), ct.numpy())[1:]
            check(f"{name} at {n}, -O{level}: forward and VJP vs PyTorch",
                  np.allclose(got, want.detach().numpy(), rtol=1e-12, atol=1e-14) and
                  np.allclose(vjp, grad.numpy(), rtol=1e-12, atol=1e-14))


# Other values made from a dynamic size are refused, not written as a
# constant of dynamic shape.
class Linspace(nn.Module):
    def forward(self, x):
        return x + torch.linspace(0, 1, x.shape[0], dtype=x.dtype)[:, None]


refused("constant of a dynamic size refused", "a constant's shape depends",
        lambda: tad.from_torch(Linspace(), (torch.randn(4, 3, dtype=torch.float64),),
                               dynamic_shapes=[{0: "b"}]))
# An index pattern of more than 2^20 elements is not parsed (a sort of
# 8,000 values traced two 8000x8000 masks, and parsing them took 24 GB).
refused("a causal mask of 1100x1100 refused", "a constant's shape depends",
        lambda: tad.from_torch(CausalAttention(), (torch.randn(1100, 3, dtype=torch.float64),),
                               dynamic_shapes=[{0: "s"}]))


# A decision on the sizes that holds at both traced sizes but not below
# them: the singular values of a tall [B, 5] matrix are 5 at B = 5 and 6,
# but B below 5 (it was compiled with 5 outputs: NaN beyond the first B),
# and the diagonal of a [B, 5] matrix is min(B, 5) long (its constant
# positions read past the matrix below 5). Checked at B = 2 and refused.
class Svdvals(nn.Module):
    def forward(self, x):
        return torch.linalg.svdvals(x)


class Trace(nn.Module):
    def forward(self, x):
        return torch.trace(x)


for model in (Svdvals(), Trace()):
    refused(f"{type(model).__name__.lower()} of a tall matrix refused",
            "traced with 'B' = 2 it differs",
            lambda: tad.from_torch(model, (torch.randn(5, 5, dtype=torch.float64),),
                                   dynamic_shapes={0: {0: "B"}}))
# An expand to another tensor's dynamic size (a broadcast of a [2, 5]
# tensor to the batch): a size list cannot say it, so it is refused (it
# was generalised to an expand of -1, invalid IR at tadc).
class ExpandToBatch(nn.Module):
    def forward(self, a, b):
        return torch.broadcast_tensors(a, b)


refused("expand to another tensor's dynamic size refused",
        "an expand's size comes from another tensor's dynamic size",
        lambda: tad.from_torch(ExpandToBatch(),
                               (torch.randn(5, 2, 1, dtype=torch.float64),
                                torch.randn(2, 5, dtype=torch.float64)),
                               dynamic_shapes={0: {0: "B"}}))


# A program that runs at the example sizes but not at 2 (row 3 of the batch).
class Row3(nn.Module):
    def forward(self, x):
        return x[3] * x


refused("a program that does not run at size 2 refused", "does not run with 'B' = 2",
        lambda: tad.from_torch(Row3(), (torch.randn(5, 3, dtype=torch.float64),),
                               dynamic_shapes={0: {0: "B"}}))


# A program that runs at the example size only (a parameter as large as the
# batch: x * w): the trace at a larger size is refused with the sizes, not
# PyTorch's error from inside the trace; the same for a training step.
class BatchSizedWeight(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(6, dtype=torch.float64))

    def forward(self, x):
        return torch.tanh(x * self.w)


refused("a program that does not run at a larger size refused",
        "does not run with 'B' = 7",
        lambda: tad.from_torch(BatchSizedWeight(), (torch.randn(6, dtype=torch.float64),),
                               dynamic_shapes={0: {0: "B"}}))
refused("a training step that does not run at a larger batch refused",
        "does not run with 'batch' = 7",
        lambda: tad.compile_train_step(
            BatchSizedWeight(), (torch.randn(6, dtype=torch.float64),),
            (torch.randn(6, dtype=torch.float64),), nn.MSELoss(), dynamic_batch=True))


# Below the traced sizes: at 1 a program may differ (PyTorch treats 1 as a
# broadcast) or not run. The singular values of a [B, 2] matrix are
# min(B, 2): 2 from B = 2 up, 1 at B = 1 (compiled for 2, a result of the
# wrong shape there); batch norm in training refuses one sample per
# channel. Such imports get the minimum 2 (tad.dim_min), which the module
# checks at every call; a program that is the same at 1 gets none.
def first_line(text):
    return next(line for line in text.splitlines() if "func.func" in line)


svd_text = tad.from_torch(Svdvals(), (torch.randn(4, 2, dtype=torch.float64),),
                          dynamic_shapes={0: {0: "B"}})
print("svdvals:", first_line(svd_text))
svd = tad.compile(svd_text)
for n in (2, 3, 9):
    x = np.random.randn(n, 2)
    check(f"svdvals of [{n}, 2]", np.allclose(
        svd.forward(x), torch.linalg.svdvals(torch.tensor(x)).numpy(), rtol=1e-12))
try:
    svd.forward(np.random.randn(1, 2))
    check("svdvals of [1, 2] refused", False)
except tad.TadError as e:
    print("below the minimum:", e)
    check("svdvals of [1, 2] refused", "must be at least 2" in str(e))
norm = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).double()
check("batch norm in training from 2 up", "tad.dim_min = array<i64: 2, 0>" in first_line(
    tad.from_torch(norm, (torch.randn(4, 3, dtype=torch.float64),),
                   dynamic_shapes={0: {0: "B"}})))
check("a linear layer from 1 up", "tad.dim_min" not in first_line(
    tad.from_torch(nn.Linear(3, 4).double(), (torch.randn(4, 3, dtype=torch.float64),),
                   dynamic_shapes={0: {0: "B"}})))
# At 1 the transposed [B, 6, 4] input is contiguous and PyTorch's linear
# picks another kernel (addmm), so the trace differs; the importer runs the
# program at 1 against PyTorch instead, and it agrees: no minimum.
class LinearOverTime(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 3)

    def forward(self, x):
        return self.linear(x.transpose(0, 1))


over_time = LinearOverTime().double()
runs = []
real_runs_like_torch = tad.torch_import._runs_like_torch
tad.torch_import._runs_like_torch = lambda *a: runs.append(1) or real_runs_like_torch(*a)
over_time_text = tad.from_torch(over_time, (torch.randn(3, 6, 4, dtype=torch.float64),),
                                dynamic_shapes={0: {0: "B"}})
tad.torch_import._runs_like_torch = real_runs_like_torch
check("another kernel at 1: compared, no minimum",
      runs == [1] and "tad.dim_min" not in first_line(over_time_text))
x1 = torch.randn(1, 6, 4, dtype=torch.float64)
check("another kernel at 1: runs at 1", np.allclose(
    tad.compile(over_time_text).forward(x1.numpy(), *[p.detach().numpy() for p in
                                                      over_time.parameters()]),
    over_time(x1).detach().numpy(), rtol=1e-12))
# Declared bounds (tad.Dim, as torch.export's Dim): checked at every call;
# a size declared from 1 whose program differs there is refused at import.
bounded = tad.from_torch(nn.Linear(3, 4).double(), (torch.randn(5, 3, dtype=torch.float64),),
                         dynamic_shapes={0: {0: tad.Dim("B", min=3, max=16)}})
check("declared bounds in the program", "tad.dim_min = array<i64: 3, 0>, "
      "tad.dim_max = array<i64: 16, -1>" in first_line(bounded))
bounded_module = tad.compile(bounded)
for n, ok in ((2, False), (3, True), (16, True), (17, False)):
    try:
        bounded_module.forward(np.ones((n, 3)), np.ones((4, 3)), np.ones(4))
        check(f"declared bounds [3, 16] at {n}", ok)
    except tad.TadError as e:
        check(f"declared bounds [3, 16] at {n}", not ok and
              ("at least 3" in str(e) if n < 3 else "at most 16" in str(e)))
refused("svdvals declared from 1 refused", "is declared from 1",
        lambda: tad.from_torch(Svdvals(), (torch.randn(4, 2, dtype=torch.float64),),
                               dynamic_shapes={0: {0: tad.Dim("B", min=1)}}))
refused("a maximum below the grown trace refused", "above its maximum 5",
        lambda: tad.from_torch(nn.Linear(3, 4).double(),
                               (torch.randn(5, 3, dtype=torch.float64),),
                               dynamic_shapes={0: {0: tad.Dim("B", max=5)}}))
# The training step of a model with batch norm: the same minimum, checked
# before anything is updated.
bn_step = tad.compile_train_step(
    nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)).double(),
    (torch.randn(6, 3, dtype=torch.float64),), (torch.randint(0, 2, (6,)),),
    loss_fn=F.cross_entropy, dynamic_batch=True)
before = [p.copy() for p in bn_step.params]
try:
    bn_step(np.zeros((1, 3)), np.zeros(1, np.int64))
    check("batch-norm training step at batch 1 refused", False)
except tad.TadError as e:
    print("below the minimum:", e)
    check("batch-norm training step at batch 1 refused", "must be at least 2" in str(e)
          and all(np.array_equal(p, q) for p, q in zip(before, bn_step.params)))
bn_step(np.random.randn(2, 3), np.array([0, 1]))
check("batch-norm training step at batch 2 runs",
      not all(np.array_equal(p, q) for p, q in zip(before, bn_step.params)))

# Multi-head attention with batch_first: the batch is merged with the heads
# and the sequence and split again ([L, B, E] -> [L, B * H, E / H] -> [L * B,
# E] -> [L, B, E]), so the result's size is the batch times 4 / 4 * ... / 6
# (tad-record-abi follows the factors); the VJP of the q/k/v split reads the
# outputs' dynamic sizes for the gradients it did not get.
class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


torch.manual_seed(0)
attention = Attention().double()
attention_params = [p.detach().numpy() for p in attention.parameters()]
attention_text = tad.from_torch(attention, (torch.randn(2, 6, 16, dtype=torch.float64),),
                                dynamic_shapes={0: {0: "batch"}})
for level in (0, 3):
    module = tad.compile(attention_text, vjp="forward", opt_level=level)
    for n in (1, 7):
        x = torch.randn(n, 6, 16, dtype=torch.float64, requires_grad=True)
        want = attention(x)
        ct = torch.randn_like(want)
        want.backward(ct)
        got = module.forward(x.detach().numpy(), *attention_params)
        grads = module.forward_vjp(x.detach().numpy(), *attention_params, ct.numpy())
        check(f"batch-first attention -O{level} batch {n}",
              got.shape == (n, 6, 16) and np.allclose(got, want.detach().numpy(), atol=1e-12)
              and np.allclose(grads[1], x.grad.numpy(), atol=1e-12))
print(f"{failures} failed")
sys.exit(1 if failures else 0)
