"""Layers beyond dynamic_cnn.py's over a dynamic batch, f64: 1-D and 3-D
convolutions, transposed convolutions, upsampling (its VJP sums with
index_add into zeros of the input's dynamic shape), 1-D pooling (squeeze
of a static dimension under a dynamic batch), layer, instance and group
norm (traced from their statistics in a dynamic trace, tad/_normalization.py:
the static modules they are checked against use PyTorch's definitions),
amax/amin, logsumexp, vector norms and cumsum along and across the batch,
tril/triu. Each is imported once with a dynamic batch and checked, forward, VJP
and JVP, at batch 1, 3 and 11 against the same layer imported and compiled
for that batch statically, at -O0 and -O2 (the static module against
PyTorch: output and input gradient); then a training step with group and
instance norm compiled with a dynamic batch against PyTorch's SGD at
batch 4, 1, 7, 2."""
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


class Layer(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return torch.tanh(self.inner(x))


class Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def both(along, across):
    """A reduction along a sample's dimensions and one across the batch."""
    return along + across.sum()


torch.manual_seed(0)
LAYERS = {  # name: (layer, one sample's shape)
    "conv1d": (nn.Conv1d(4, 3, 3, stride=2, padding=1), (4, 9)),
    "conv3d": (nn.Conv3d(2, 3, 3, padding=1), (2, 4, 5, 4)),
    "conv_transpose1d": (nn.ConvTranspose1d(4, 3, 3, stride=2), (4, 6)),
    "conv_transpose2d": (nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1), (4, 5, 4)),
    "upsample bilinear": (nn.Upsample(scale_factor=2, mode="bilinear"), (3, 4, 5)),
    "upsample nearest": (nn.Upsample(scale_factor=2, mode="nearest"), (3, 4, 5)),
    "avg_pool1d": (nn.AvgPool1d(2), (4, 9)),
    "max_pool1d": (nn.MaxPool1d(3, stride=2), (4, 9)),
    "layer_norm": (nn.LayerNorm([4, 5]), (3, 4, 5)),
    "instance_norm": (nn.InstanceNorm2d(4, affine=True), (4, 5, 3)),
    "group_norm": (nn.GroupNorm(2, 4), (4, 5, 3)),
    # reductions and scans along and across the batch
    "amax": (Lambda(lambda x: both(x.amax(1), x.amin(0))), (4, 5)),
    "logsumexp": (Lambda(lambda x: both(torch.logsumexp(x, 2), torch.logsumexp(x, 0))), (4, 5)),
    "vector norm": (Lambda(lambda x: both(x.norm(dim=1), torch.linalg.vector_norm(x, 3, dim=0))), (4, 5)),
    "cumsum": (Lambda(lambda x: torch.cumsum(x, 1) + torch.cumsum(x, 0)), (4, 5)),
    "tril": (Lambda(lambda x: torch.tril(x, -1) + torch.triu(x)), (4, 5)),
}


def results(r):
    return [r] if isinstance(r, np.ndarray) else list(r)


def close(a, b):
    a, b = results(a), results(b)
    return len(a) == len(b) and all(
        np.shape(x) == np.shape(y) and np.allclose(x, y, rtol=1e-12, atol=1e-13)
        for x, y in zip(a, b))


def compile_layer(model, shape, batch, dynamic, level):
    example = (torch.randn(batch, *shape, dtype=torch.float64),)
    text = tad.from_torch(model, example,
                          dynamic_shapes={"x": {0: "batch"}} if dynamic else None)
    return tad.compile(text, vjp="forward", jvp="forward", opt_level=level)


rng = np.random.default_rng(0)
for name, (inner, shape) in LAYERS.items():
    model = Layer(inner).double()
    params = [p.detach().numpy() for p in model.parameters()]
    try:
        dynamic = {level: compile_layer(model, shape, 2, True, level) for level in (0, 2)}
    except Exception as e:  # noqa: BLE001 - reported as the layer's failure
        check(f"{name} compiles with a dynamic batch", False, str(e).splitlines()[0])
        continue
    for n in (1, 3, 11):
        static = compile_layer(model, shape, n, False, 0)
        x = rng.standard_normal((n, *shape))
        want = static.forward(x, *params)
        cts = [rng.standard_normal(np.shape(r)) for r in results(want)]
        tangents = [rng.standard_normal(np.shape(a)) for a in (x, *params)]
        want_vjp = static.forward_vjp(x, *params, *cts)
        # the static module against PyTorch (output and input gradient)
        leaf = torch.from_numpy(x).requires_grad_()
        out = model(leaf)
        grad, = torch.autograd.grad(out, leaf, torch.from_numpy(cts[0]))
        check(f"{name} batch {n} static against PyTorch",
              close([results(want)[0], results(want_vjp)[1]],
                    [out.detach().numpy(), grad.numpy()]))
        want_jvp = static.forward_jvp(x, *params, *tangents)
        for level, m in dynamic.items():
            check(f"{name} batch {n} -O{level} forward", close(m.forward(x, *params), want))
            check(f"{name} batch {n} -O{level} VJP",
                  close(m.forward_vjp(x, *params, *cts), want_vjp))
            check(f"{name} batch {n} -O{level} JVP",
                  close(m.forward_jvp(x, *params, *tangents), want_jvp))



class NormNet(nn.Module):
    """Group and instance norm in a training step."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.group, self.instance = nn.GroupNorm(2, 4), nn.InstanceNorm2d(4, affine=True)
        self.fc = nn.Linear(4 * 5 * 5, 3)

    def forward(self, x):
        return self.fc(torch.tanh(self.instance(self.group(self.conv(x)))).flatten(1))


def mse(out, y):
    return ((out - y) ** 2).mean()


for level in (0, 2):
    torch.manual_seed(0)
    model, reference = NormNet().double(), NormNet().double()
    reference.load_state_dict(model.state_dict())
    step = tad.compile_train_step(
        model, (torch.randn(4, 2, 5, 5, dtype=torch.float64),),
        (torch.randn(4, 3, dtype=torch.float64),), loss_fn=mse,
        optimizer=tad.SGD(lr=0.1), dynamic_batch=True, opt_level=level)
    opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    for n in (4, 1, 7, 2):
        x, y = torch.randn(n, 2, 5, 5, dtype=torch.float64), torch.randn(n, 3, dtype=torch.float64)
        loss = step(x.numpy(), y.numpy())
        opt.zero_grad()
        expected = mse(reference(x), y)
        expected.backward()
        opt.step()
        same = all(np.allclose(p, q.detach().numpy(), rtol=1e-10, atol=1e-12)
                   for p, q in zip(step.params, reference.parameters()))
        check(f"norm step -O{level} batch {n}",
              np.isclose(loss, expected.item(), rtol=1e-12) and same,
              f"loss {loss} vs {expected.item()}")

# Instance norm that updates running statistics keeps PyTorch's definition
# (its weight repeated by the batch size): refused with the line that
# differs rather than specialised.
try:
    tad.from_torch(Layer(nn.InstanceNorm2d(4, track_running_stats=True)).double(),
                   (torch.randn(2, 4, 5, 3, dtype=torch.float64),),
                   dynamic_shapes={"x": {0: "batch"}})
    check("instance_norm with running statistics and a dynamic batch is refused", False,
          "imported")
except tad.DynamicShapeError as e:
    check("instance_norm with running statistics and a dynamic batch is refused",
          "tad.repeat" in str(e), str(e))

print(f"{failures} failed")
sys.exit(1 if failures else 0)
