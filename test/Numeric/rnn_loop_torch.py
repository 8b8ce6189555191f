"""An RNN cell, h <- tanh(h W + x_t U + b), run for 50 steps by one scf.for
(x_t read with index_select at the induction variable), differentiated by
tad in both modes and compared with torch.autograd (reverse) and
torch.autograd.functional.jvp (forward), in float64, at -O0 and -O2."""
import sys

import numpy as np
import torch

import tad

T, D, H = 50, 4, 6

RNN = f"""
func.func @f(%h0: tensor<1x{H}xf64>, %w: tensor<{H}x{H}xf64>, %u: tensor<{D}x{H}xf64>,
             %b: tensor<{H}xf64>, %xs: tensor<{T}x{D}xf64>) -> tensor<1x{H}xf64> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant {T} : index
  %r = scf.for %t = %c0 to %ct step %c1 iter_args(%h = %h0) -> (tensor<1x{H}xf64>) {{
    %t64 = arith.index_cast %t : index to i64
    %idx = tensor.from_elements %t64 : tensor<1xi64>
    %x = tad.index_select %xs, %idx {{dim = 0 : i64}} : (tensor<{T}x{D}xf64>, tensor<1xi64>) -> tensor<1x{D}xf64>
    %hw = tad.mm %h, %w : (tensor<1x{H}xf64>, tensor<{H}x{H}xf64>) -> tensor<1x{H}xf64>
    %xu = tad.mm %x, %u : (tensor<1x{D}xf64>, tensor<{D}x{H}xf64>) -> tensor<1x{H}xf64>
    %s = tad.add.Tensor %hw, %xu : (tensor<1x{H}xf64>, tensor<1x{H}xf64>) -> tensor<1x{H}xf64>
    %a = tad.add.Tensor %s, %b : (tensor<1x{H}xf64>, tensor<{H}xf64>) -> tensor<1x{H}xf64>
    %hn = tad.tanh %a : tensor<1x{H}xf64>
    scf.yield %hn : tensor<1x{H}xf64>
  }}
  return %r : tensor<1x{H}xf64>
}}"""


def rnn(h0, w, u, b, xs):
    h = h0
    for t in range(T):
        h = torch.tanh(h @ w + xs[t:t + 1] @ u + b)
    return h


def main():
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((1, H)), rng.standard_normal((H, H)) / np.sqrt(H),
            rng.standard_normal((D, H)) / np.sqrt(D), rng.standard_normal(H) * 0.1,
            rng.standard_normal((T, D))]
    ct = rng.standard_normal((1, H))
    tangents = [rng.standard_normal(a.shape) for a in args]

    inputs = [torch.tensor(a, requires_grad=True) for a in args]
    out = rnn(*inputs)
    grads = torch.autograd.grad(out, inputs, torch.tensor(ct))
    _, jvp_out = torch.autograd.functional.jvp(
        rnn, tuple(torch.tensor(a) for a in args),
        tuple(torch.tensor(t) for t in tangents))

    failures = 0

    def report(label, ok, why=""):
        nonlocal failures
        failures += not ok
        print(("PASS %s" % label) if ok else ("FAIL %s: %s" % (label, why)))

    for opt in (0, 2):
        module = tad.compile(RNN, vjp=["f"], jvp=["f"], opt_level=opt)
        value, *tad_grads = module.f_vjp(*args, ct)
        report("rnn 50 steps -O%d value" % opt,
               np.allclose(value, out.detach().numpy(), rtol=1e-12, atol=1e-13))
        for name, g, want in zip(("h0", "W", "U", "b", "xs"), tad_grads, grads):
            err = np.max(np.abs(g - want.numpy()))
            report("rnn 50 steps -O%d vjp d%s vs torch.autograd" % (opt, name),
                   np.allclose(g, want.numpy(), rtol=1e-10, atol=1e-12),
                   "max error %.3g" % err)
        _, tangent = module.f_jvp(*args, *tangents)
        err = np.max(np.abs(tangent - jvp_out.numpy()))
        report("rnn 50 steps -O%d jvp vs torch.autograd.functional.jvp" % opt,
               np.allclose(tangent, jvp_out.numpy(), rtol=1e-10, atol=1e-12),
               "max error %.3g" % err)
    print("%d failed" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
