"""Checking imported PyTorch models against torch.autograd.

``check_example(build, dtype)`` takes an example's ``build(dtype) ->
(model, inputs, targets, loss_fn)`` and checks, printing ``PASS name`` or
``FAIL name: ...`` per check:

- ``forward``: ``tad.from_torch(model, inputs)`` compiled with its VJP; the
  outputs and the gradients (a random cotangent) of every float input and
  every parameter against ``torch.autograd``;
- ``loss_vjp``: the gradient of the loss (model + loss_fn) w.r.t. the
  parameters, from the compiled training-step module;
- ``sgd`` and ``adam``: two compiled training steps against
  ``torch.optim.SGD`` (momentum, weight decay) and ``torch.optim.Adam``
  (weight decay), losses after each step, parameters and updated buffers
  (BatchNorm's running statistics) after the last.

Tolerances: float64 ``rtol=1e-10, atol=1e-12``; float32 ``rtol=1e-4,
atol=1e-5`` (relative to the largest magnitude of the reference); the
numbers differ only by summation order and libm.

Adam's first steps move each parameter by about ``lr * g / (|g| + eps)``:
with the default ``eps=1e-8``, an entry whose gradient is at float32's
rounding level gets an arbitrary update in ``[-lr, lr]``, in PyTorch as much
as in tad. The float32 Adam check therefore uses ``eps=1e-3`` (well
conditioned); the float64 check uses the default ``eps``.
"""

import copy

import numpy as np

from .compiler import compile as _compile
from .torch_import import from_torch
from .train import SGD, Adam, compile_train_step

TOLERANCES = {"float64": (1e-10, 1e-12), "float32": (1e-4, 1e-5)}


def _close(name, got, want, dtype, failures):
    rtol, atol = TOLERANCES[dtype]
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        failures.append(f"{name}: shape {got.shape} != {want.shape}")
        return
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    if not err <= atol * scale + rtol * scale:
        failures.append(f"{name}: max abs error {err:.3g} (scale {scale:.3g})")


def _report(name, failures):
    if failures:
        print(f"FAIL {name}: " + "; ".join(failures[:4]), flush=True)
        return 1
    print(f"PASS {name}", flush=True)
    return 0


def _np(t):
    return t.detach().cpu().numpy()


def check_forward(build, dtype):
    import torch
    model, inputs, _, _ = build(dtype)
    dname = str(dtype).replace("torch.", "")
    failures = []
    text = from_torch(model, inputs)
    m = _compile(text, vjp="forward")
    params = [p for _, p in model.named_parameters()]
    got = m.forward(*[_np(a) for a in inputs], *[_np(p) for p in params])
    got = got if isinstance(got, tuple) else (got,)

    leaves = [a.detach().clone().requires_grad_(a.is_floating_point()) for a in inputs]
    out = model(*leaves)
    outs = out if isinstance(out, tuple) else (out,)
    gen = torch.Generator().manual_seed(1)
    cts = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in outs]
    diff = [a for a in leaves if a.requires_grad] + params
    grads = torch.autograd.grad(outs, diff, cts)
    for i, (g, w) in enumerate(zip(got, outs)):
        _close(f"output {i}", g, _np(w), dname, failures)

    vjp = m.forward_vjp(*[_np(a) for a in inputs], *[_np(p) for p in params],
                        *[_np(c) for c in cts])
    vjp_grads = vjp[len(outs):]
    names = [f"input {i}" for i, a in enumerate(leaves) if a.requires_grad] + \
        [n for n, _ in model.named_parameters()]
    if len(vjp_grads) != len(grads):
        failures.append(f"{len(vjp_grads)} gradients, expected {len(grads)}")
    for n, g, w in zip(names, vjp_grads, grads):
        _close(f"grad {n}", g, _np(w), dname, failures)
    return _report(f"{dname} forward and VJP", failures)


def _torch_steps(model, inputs, targets, loss_fn, opt, steps):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(*inputs), *targets)
        loss.backward()
        opt.step()
        losses.append(float(loss))
    return losses


def check_training(build, dtype, steps=2):
    import torch
    dname = str(dtype).replace("torch.", "")
    model, inputs, targets, loss_fn = build(dtype)
    status = 0
    np_data = [_np(a) for a in list(inputs) + list(targets)]

    # gradient of the loss
    failures = []
    step = compile_train_step(model, inputs, targets, loss_fn, SGD(lr=0.1))
    ref = copy.deepcopy(model)
    loss = loss_fn(ref(*inputs), *targets)
    grads = torch.autograd.grad(loss, list(ref.parameters()))
    # @loss returns the loss and the updated buffers; their cotangents are 0.
    out = step.module.loss_vjp(*np_data, *step.params, *step.buffers,
                               np.ones((), step.params[0].dtype),
                               *[np.zeros_like(b) for b in step.buffers])
    _close("loss", out[0], float(loss), dname, failures)
    for (n, _), g, w in zip(model.named_parameters(), out[1 + len(step.buffers):], grads):
        _close(f"grad {n}", g, _np(w), dname, failures)
    status |= _report(f"{dname} loss_vjp", failures)

    adam_eps = 1e-8 if dname == "float64" else 1e-3
    for label, ours, theirs in [
        ("SGD(lr=0.05, momentum=0.9, weight_decay=1e-3)",
         SGD(lr=0.05, momentum=0.9, weight_decay=1e-3),
         lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, weight_decay=1e-3)),
        (f"Adam(lr=1e-2, eps={adam_eps:g}, weight_decay=1e-3)",
         Adam(lr=1e-2, eps=adam_eps, weight_decay=1e-3),
         lambda ps: torch.optim.Adam(ps, lr=1e-2, eps=adam_eps, weight_decay=1e-3)),
    ]:
        failures = []
        ref = copy.deepcopy(model)
        step = compile_train_step(model, inputs, targets, loss_fn, ours)
        want_losses = _torch_steps(ref, inputs, targets, loss_fn, theirs(ref.parameters()), steps)
        for k in range(steps):
            _close(f"loss {k}", step(*np_data), want_losses[k], dname, failures)
        for (n, p), got in zip(ref.named_parameters(), step.params):
            _close(f"param {n}", got, _np(p), dname, failures)
        ref_buffers = dict(ref.named_buffers())
        for n, got in zip(step.buffer_names, step.buffers):
            _close(f"buffer {n}", got, _np(ref_buffers[n]), dname, failures)
        status |= _report(f"{dname} train_step {label} x{steps}", failures)
    return status


def check_example(build, *dtypes):
    """Runs every check for each dtype; returns the number of failures."""
    import torch
    failed = 0
    for dtype in dtypes or (torch.float64, torch.float32):
        failed += check_forward(build, dtype)
        failed += check_training(build, dtype)
    print(f"{failed} failed")
    return 1 if failed else 0
