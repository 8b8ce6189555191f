"""Recurrent models over a dynamic batch, f64: their initial state is a
constant made from the batch size (``torch.zeros(x.shape[0], hidden)``, or
nn.LSTM's own zeros), which the importer now builds from an input's size at
run time (runtime/python/tad/_dynamic.py, _sized_splat).

1. An nn.LSTM (batch_first) + Linear classifier with a dynamic batch,
   unrolled over time and as a loop over time (the reverse sweep stacks
   per-step values of dynamic shape, sized by the first step): forward and
   VJP against PyTorch at the traced batch and others, -O0 and -O2, and
   with checkpoints. A two-layer bidirectional GRU over time (batch in
   dimension 1) as a loop: VJP against PyTorch, JVP against differences;
   a tad.scan recurrence.
   A training step of the LSTM loop against PyTorch's SGD over batches of
   different sizes. A loop whose stored value changes size from one
   iteration to the next ends the call with a shape error.
2. A hand-written recurrence whose state starts as torch.zeros(B, H) + 0.5
   and torch.ones(B, 1, H): forward and VJP at several batch sizes against
   PyTorch.
3. A constant with two dynamic sizes is still refused, naming the line."""
import sys

import numpy as np
import tad
import torch
import torch.nn as nn

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if not ok and detail else ""))
    failures += not ok


def close(a, b):
    return np.allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-11)


def matches_torch(module, model, params, x):
    """module.forward and its VJP (x, then every parameter) agree with
    PyTorch's at input x."""
    x = x.clone().requires_grad_(True)
    out = model(x)
    cot = torch.randn_like(out)
    out.backward(cot)
    got = module.forward(x.detach().numpy(), *params)
    vjp = module.forward_vjp(x.detach().numpy(), *params, cot.numpy())
    ok = (close(got, out.detach().numpy()) and close(vjp[1], x.grad.numpy()) and
          all(close(g, p.grad.numpy()) for g, p in zip(vjp[2:], model.parameters())))
    model.zero_grad()
    return ok


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, batch_first=True)
        self.fc = nn.Linear(5, 3)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        return self.fc(h[-1])


torch.manual_seed(0)
classifier = Classifier().double()
classifier_params = [p.detach().numpy() for p in classifier.parameters()]
x0 = torch.randn(3, 6, 4, dtype=torch.float64)
for level in (0, 2):
    text = tad.from_torch(classifier, (x0,), recurrent="unroll",
                          dynamic_shapes={"x": {0: "batch"}})
    module = tad.compile(text, vjp="forward", opt_level=level)
    for n in (3, 1, 7):
        check(f"lstm (unrolled) -O{level} batch {n}",
              matches_torch(module, classifier, classifier_params,
                            torch.randn(n, 6, 4, dtype=torch.float64)))

# As a loop over time: the reverse sweep stacks per-step values of dynamic
# shape (the sizes of the first step), with checkpoints too (binomial
# checkpointing's snapshots take the sizes of the initial state).
for level, checkpoint in ((0, "store"), (2, "store"), (2, "sqrt"),
                          (0, "revolve:3"), (2, "revolve:3")):
    text = tad.from_torch(classifier, (x0,), dynamic_shapes={"x": {0: "batch"}})
    check("lstm as a loop", "scf.for" in text)
    module = tad.compile(text, vjp="forward", opt_level=level, checkpoint=checkpoint)
    for n in (3, 1, 7, 32):
        check(f"lstm (loop, {checkpoint}) -O{level} batch {n}",
              matches_torch(module, classifier, classifier_params,
                            torch.randn(n, 6, 4, dtype=torch.float64)))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, num_layers=2, bidirectional=True)

    def forward(self, x):
        out, h = self.gru(x)
        return out.tanh().sum(0) * h.sum(0).repeat(1, 2)


torch.manual_seed(2)
encoder = Encoder().double()
encoder_params = [p.detach().numpy() for p in encoder.parameters()]
text = tad.from_torch(encoder, (torch.randn(5, 2, 3, dtype=torch.float64),),
                      dynamic_shapes={"x": {1: "batch"}})
module = tad.compile(text, vjp="forward", jvp="forward", opt_level=2)
rng = np.random.default_rng(3)
for n in (2, 1, 9):
    x = torch.randn(5, n, 3, dtype=torch.float64)
    check(f"gru (loop, bidirectional, 2 layers) VJP batch {n}",
          matches_torch(module, encoder, encoder_params, x))
    args = [x.numpy()] + encoder_params
    tangents = [rng.standard_normal(a.shape) for a in args]
    eps = 1e-6
    fd = (module.forward(*[a + eps * t for a, t in zip(args, tangents)]) -
          module.forward(*[a - eps * t for a, t in zip(args, tangents)])) / (2 * eps)
    jvp = module.forward_jvp(*args, *tangents)
    check(f"gru (loop, bidirectional, 2 layers) JVP batch {n}",
          np.allclose(jvp[1], fd, rtol=1e-6, atol=1e-7))

# A recurrence written with tad.scan (time first, the batch in dimension 1).
class Scanned(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(3 + 4, 4)

    def forward(self, x):
        def step(h, xt, w, b):
            new = torch.tanh(torch.cat([xt, h], 1) @ w.t() + b)
            return new, new * 2
        h0 = torch.zeros_like(x[0, :, :1]).expand(-1, 4) + 0.5
        h, ys = tad.scan(step, h0, x, params=(self.cell.weight, self.cell.bias))
        return ys.sum(0) + h


torch.manual_seed(5)
scanned = Scanned().double()
scanned_params = [p.detach().numpy() for p in scanned.parameters()]
text = tad.from_torch(scanned, (torch.randn(5, 2, 3, dtype=torch.float64),),
                      dynamic_shapes={"x": {1: "batch"}})
module = tad.compile(text, vjp="forward", opt_level=2)
for n in (2, 1, 6):
    check(f"tad.scan (loop) VJP batch {n}",
          matches_torch(module, scanned, scanned_params,
                        torch.randn(5, n, 3, dtype=torch.float64)))

# A training step of the LSTM loop over batches of different sizes.
torch.manual_seed(4)
model, reference = Classifier().double(), Classifier().double()
reference.load_state_dict(model.state_dict())
step = tad.compile_train_step(model, (x0,), (torch.randn(3, 3, dtype=torch.float64),),
                              loss_fn=lambda out, y: ((out - y) ** 2).mean(),
                              optimizer=tad.SGD(lr=0.1), dynamic_batch=True, opt_level=2)
opt = torch.optim.SGD(reference.parameters(), lr=0.1)
for n in (3, 1, 8, 5):
    x = torch.randn(n, 6, 4, dtype=torch.float64)
    y = torch.randn(n, 3, dtype=torch.float64)
    loss = step(x.numpy(), y.numpy())
    opt.zero_grad()
    expected = ((reference(x) - y) ** 2).mean()
    expected.backward()
    opt.step()
    check(f"lstm (loop) SGD step batch {n}",
          close(loss, expected.item()) and
          all(close(p, q.detach().numpy()) for p, q in zip(step.params, reference.parameters())))

# A value stored per iteration must keep its size: here the slice that sin
# reads grows by one element per iteration, which the store into its stack
# (sized by the first iteration) catches from the second iteration on.
GROWING = """
func.func @f(%x: tensor<?xf64>, %count: tensor<i64>) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n64 = tensor.extract %count[] : tensor<i64>
  %n = arith.index_cast %n64 : i64 to index
  %zero = tad.constant dense<0.0> : tensor<f64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %zero) -> (tensor<f64>) {
    %length = arith.addi %i, %c1 : index
    %p = tensor.extract_slice %x[0] [%length] [1] : tensor<?xf64> to tensor<?xf64>
    %e = tad.sin %p : tensor<?xf64>
    %s = tad.sum %e : (tensor<?xf64>) -> tensor<f64>
    %v = tad.add.Tensor %h, %s : (tensor<f64>, tensor<f64>) -> tensor<f64>
    scf.yield %v : tensor<f64>
  }
  return %r : tensor<f64>
}
"""
growing = tad.compile(GROWING, vjp="f")
x = np.array([0.1, 0.2, 0.3])
got = growing.f_vjp(x, np.array(1, dtype=np.int64), np.array(1.0))
check("size-changing loop, one iteration", close(got[1], [np.cos(0.1), 0, 0]))
try:
    growing.f_vjp(x, np.array(2, dtype=np.int64), np.array(1.0))
    check("size-changing loop refused at run time", False, "no error")
except tad.TadError as e:
    print("error:", e)
    check("size-changing loop refused at run time", e.status == 5 and
          "operand 0 has size 2 in dimension 0, expected 1 in tensor.insert_slice" in str(e))


class Recurrence(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(3 + 4, 4)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 4, dtype=x.dtype) + 0.5
        g = torch.ones(x.shape[0], 1, 4, dtype=x.dtype)
        for t in range(x.shape[1]):
            h = torch.tanh(self.cell(torch.cat([x[:, t], h], 1)))
        return h * g.squeeze(1)


torch.manual_seed(1)
rec = Recurrence().double()
params = [p.detach().numpy() for p in rec.parameters()]
text = tad.from_torch(rec, (torch.randn(2, 5, 3, dtype=torch.float64),),
                      dynamic_shapes={"x": {0: "batch"}})
module = tad.compile(text, vjp="forward")
for n in (2, 1, 6):
    check(f"zeros(B, H) recurrence batch {n}",
          matches_torch(module, rec, params, torch.randn(n, 5, 3, dtype=torch.float64)))


class TwoSizes(nn.Module):
    def forward(self, x):
        return x * (torch.ones(x.shape[0], x.shape[1]) * 2)


try:
    tad.from_torch(TwoSizes(), (torch.randn(2, 3),),
                   dynamic_shapes={"x": {0: "a", 1: "b"}})
    check("two dynamic sizes in a constant refused", False, "imported")
except tad.DynamicShapeError as e:
    check("two dynamic sizes in a constant refused",
          "a constant's shape depends on the dynamic sizes" in str(e), str(e)[:200])

print(f"{failures} failed")
sys.exit(1 if failures else 0)
