"""nn.RNN / nn.LSTM / nn.GRU and tad.scan imported as loops
(runtime/python/tad/_recurrent.py):
every mode and option against torch.autograd in float64 (forward, the VJP
with respect to the input, the initial states and every parameter), -O0
and -O2 agreeing, one case in float32, forward mode (JVP) for one case,
the program size independent of the sequence length, and the refused
inputs."""
import sys

import numpy as np
import torch

import tad
from tad.torch_import import TadImportError, from_torch

torch.manual_seed(0)
failures = 0


def report(label, ok, why=""):
    global failures
    failures += not ok
    print(("PASS " if ok else "FAIL ") + label + ("" if ok else ": " + why))


class Loss(torch.nn.Module):
    """A scalar of the output sequence and the final states."""

    def __init__(self, layer, with_state):
        super().__init__()
        self.layer = layer
        self.with_state = with_state

    def forward(self, x, *state):
        if self.with_state:
            state = tuple(state) if isinstance(self.layer, torch.nn.LSTM) else state[0]
            out, final = self.layer(x, state)
        else:
            out, final = self.layer(x)
        finals = final if isinstance(final, tuple) else (final,)
        total = (out ** 2).sum()
        for k, f in enumerate(finals):
            total = total + ((k + 1.5) * f).sum()
        return total


def state_shapes(layer, batch):
    d = 2 if layer.bidirectional else 1
    out = layer.proj_size if getattr(layer, "proj_size", 0) else layer.hidden_size
    shapes = [(layer.num_layers * d, batch, out)]
    if isinstance(layer, torch.nn.LSTM):
        shapes.append((layer.num_layers * d, batch, layer.hidden_size))
    if batch is None:
        shapes = [(s[0], s[2]) for s in shapes]
    return shapes


CASES = [
    ("LSTM", torch.nn.LSTM, {}),
    ("GRU", torch.nn.GRU, {}),
    ("RNN tanh", torch.nn.RNN, {}),
    ("RNN relu", torch.nn.RNN, {"nonlinearity": "relu"}),
    ("LSTM 2 layers bidirectional batch_first", torch.nn.LSTM,
     {"num_layers": 2, "bidirectional": True, "batch_first": True}),
    ("LSTM proj_size 2 layers", torch.nn.LSTM, {"proj_size": 2, "num_layers": 2}),
    ("LSTM proj_size bidirectional", torch.nn.LSTM, {"proj_size": 3, "bidirectional": True}),
    ("GRU 2 layers bidirectional no bias", torch.nn.GRU,
     {"bidirectional": True, "bias": False, "num_layers": 2}),
    ("RNN 3 layers batch_first", torch.nn.RNN, {"batch_first": True, "num_layers": 3}),
]


def check(label, layer, x, with_state, dtype=torch.float64, opts=(0, 2), tol=1e-9):
    model = Loss(layer.to(dtype), with_state)
    batch = x.shape[0 if layer.batch_first else 1] if x.dim() == 3 else None
    inputs = [x.to(dtype)]
    if with_state:
        inputs += [torch.randn(*s, dtype=dtype) * 0.5 for s in state_shapes(layer, batch)]
    text = from_torch(model, [t.detach() for t in inputs])
    if "scf.for" not in text:
        report(label + " is a loop", False, "no scf.for in the imported text")
        return
    inputs = [t.detach().requires_grad_() for t in inputs]
    params = list(model.parameters())
    ref = model(*inputs)
    grads = torch.autograd.grad(ref, inputs + params)
    results = {}
    for opt in opts:
        try:
            module = tad.compile(text, vjp="forward", opt_level=opt)
        except tad.CompileError as e:
            report(f"{label} -O{opt}", False, str(e)[:2000])
            return
        got = module.forward_vjp(*[t.detach().numpy() for t in inputs],
                                 *[p.detach().numpy() for p in params],
                                 np.ones((), dtype=ref.detach().numpy().dtype))
        results[opt] = got
        ok = np.allclose(got[0], ref.detach().numpy(), rtol=tol, atol=tol) and all(
            np.allclose(a, b.numpy(), rtol=tol, atol=tol) for a, b in zip(got[1:], grads))
        worst = max(float(np.max(np.abs(a - b.numpy()))) for a, b in zip(got[1:], grads))
        report(f"{label} -O{opt} forward and VJP", ok, f"max gradient error {worst:g}")
    if len(results) == 2:
        same = all(np.allclose(a, b, rtol=1e-12, atol=1e-13)
                   for a, b in zip(results[opts[0]], results[opts[1]]))
        report(f"{label} -O{opts[0]} and -O{opts[1]} agree", same)


for label, cls, kw in CASES:
    layer = cls(3, 4, **kw)
    x = torch.randn(2, 5, 3) if kw.get("batch_first") else torch.randn(5, 2, 3)
    check(label, layer, x, with_state=False)
check("LSTM with initial states", torch.nn.LSTM(3, 4, num_layers=2), torch.randn(6, 3, 3),
      with_state=True)
check("GRU with initial state, batch_first", torch.nn.GRU(3, 4, batch_first=True),
      torch.randn(3, 6, 3), with_state=True)
check("LSTM unbatched input", torch.nn.LSTM(3, 4, bidirectional=True), torch.randn(7, 3),
      with_state=True)
check("LSTM float32", torch.nn.LSTM(3, 4, num_layers=2), torch.randn(5, 2, 3),
      with_state=False, dtype=torch.float32, opts=(2,), tol=1e-4)

# Forward mode: the JVP of the imported loops against central differences
# of the compiled forward (which matches torch above).
for cls in (torch.nn.GRU, torch.nn.LSTM, torch.nn.RNN):
    layer = cls(3, 4, num_layers=2, bidirectional=cls is torch.nn.LSTM).double()
    model = Loss(layer, False)
    x = torch.randn(5, 2, 3, dtype=torch.float64)
    module = tad.compile(from_torch(model, [x]), jvp="forward")
    args = [x.numpy()] + [p.detach().numpy() for p in model.parameters()]
    rng = np.random.default_rng(1)
    tangents = [rng.standard_normal(a.shape) for a in args]
    got = float(module.forward_jvp(*args, *tangents)[1])
    eps = 1e-6
    plus = module.forward(*[a + eps * t for a, t in zip(args, tangents)])
    minus = module.forward(*[a - eps * t for a, t in zip(args, tangents)])
    expected = float((plus - minus) / (2 * eps))
    report(f"{cls.__name__} 2 layers JVP", abs(got - expected) <= 1e-6 * max(1, abs(expected)),
           f"got {got}, central differences {expected}")

# Checkpointing applies to the imported loops: the same gradients.
layer = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()
model = Loss(layer, False)
x = torch.randn(20, 2, 3, dtype=torch.float64)
text = from_torch(model, [x])
args = [x.numpy()] + [p.detach().numpy() for p in model.parameters()]
stored = tad.compile(text, vjp="forward").forward_vjp(*args, np.ones(()))
for scheme in ("sqrt", 3, "revolve:4"):
    checkpointed = tad.compile(text, vjp="forward", checkpoint=scheme).forward_vjp(
        *args, np.ones(()))
    report(f"LSTM checkpoint={scheme} equals store",
           all(np.allclose(a, b, rtol=1e-12, atol=1e-13)
               for a, b in zip(stored, checkpointed)))

# The program does not grow with the sequence length.
layer = torch.nn.LSTM(3, 4)
sizes = [len(from_torch(Loss(layer, False), [torch.randn(t, 2, 3)]).splitlines())
         for t in (4, 64)]
report("program size independent of the sequence length", sizes[0] == sizes[1],
       f"{sizes} lines")
unrolled = from_torch(Loss(layer, False), [torch.randn(16, 2, 3)], recurrent="unroll")
report("recurrent='unroll' unrolls", "scf.for" not in unrolled)

# tad.scan: a recurrence written in Python, traced once into one loop.
def lstm_step(carry, x, w, u, b):
    h, c = carry
    i, f, g, o = (x @ w.t() + h @ u.t() + b).chunk(4, dim=1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = torch.sigmoid(o) * torch.tanh(c)
    return (h, c), h.sum(1)


def decay_step(h, x, a):
    h = torch.tanh(a * h + x)
    return h, h * h


class Scanned(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(16, 3) * 0.5)
        self.u = torch.nn.Parameter(torch.randn(16, 4) * 0.5)
        self.b = torch.nn.Parameter(torch.randn(16) * 0.1)
        self.a = torch.nn.Parameter(torch.randn(4))

    def forward(self, x):
        zeros = torch.zeros(x.shape[1], 4, dtype=x.dtype)
        (h, c), ys = tad.scan(lstm_step, (zeros, zeros), x, params=(self.w, self.u, self.b))
        h2, zs = tad.scan(decay_step, h, torch.tanh(x[..., :1]).expand(-1, -1, 4),
                          params=(self.a,))
        return (h2 ** 2).sum() + (c * 0.5).sum() + (ys ** 2).sum() + zs.sum()


model = Scanned().double()
x = torch.randn(6, 2, 3, dtype=torch.float64)
manual = model(x)  # eager: tad.scan is a Python loop
text = from_torch(model, [x])
report("tad.scan imports as loops", text.count("scf.for") == 2, f"{text.count('scf.for')} loops")
x = x.requires_grad_()
ref = model(x)
params = list(model.parameters())
grads = torch.autograd.grad(ref, [x] + params)
for opt in (0, 2):
    got = tad.compile(text, vjp="forward", opt_level=opt).forward_vjp(
        x.detach().numpy(), *[p.detach().numpy() for p in params], np.ones(()))
    ok = np.allclose(got[0], ref.detach().numpy(), rtol=1e-10) and all(
        np.allclose(a, b.numpy(), rtol=1e-9, atol=1e-11) for a, b in zip(got[1:], grads))
    report(f"tad.scan -O{opt} forward and VJP", ok)
longer = from_torch(model, [torch.randn(40, 2, 3, dtype=torch.float64)])
report("tad.scan program size independent of the length",
       len(longer.splitlines()) == len(text.splitlines()))


class Closure(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(4))

    def forward(self, x):
        h, _ = tad.scan(lambda h, x: (torch.tanh(self.a * h + x), h), torch.zeros(4), x)
        return h.sum()


try:
    from_torch(Closure(), [torch.randn(5, 4)])
    report("tad.scan step reading a parameter refused", False, "imported")
except TadImportError as e:
    print("refused closure: " + str(e).splitlines()[0][:90])
    report("tad.scan step reading a parameter refused", True)

# Refused inputs.
packed = torch.nn.utils.rnn.pack_padded_sequence(torch.randn(5, 2, 3), [5, 3])


class Packed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.LSTM(3, 4)

    def forward(self, x):
        seq = torch.nn.utils.rnn.pack_padded_sequence(x, [5, 3])
        return self.layer(seq)[1][0].sum()


for label, model in (("PackedSequence", Packed()),
                     ("dropout in training", Loss(torch.nn.GRU(3, 4, num_layers=2, dropout=0.5),
                                                  False))):
    try:
        from_torch(model, [torch.randn(5, 2, 3)])
        report(f"{label} refused", False, "imported")
    except TadImportError as e:
        print(f"refused {label}: {str(e).splitlines()[0]}")
        report(f"{label} refused", True)

print(f"{failures} failed")
sys.exit(1 if failures else 0)
