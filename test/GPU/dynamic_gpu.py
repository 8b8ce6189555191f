"""Dynamic shapes on the GPU target (docs/dynamic-shapes.md, docs/gpu.md):
one module compiled with a dynamic batch for --target=cuda.

  dynamic_gpu.py --emulate [--gpu-kernels=naive|tiled]
      compiled with --gpu-emulate (the GPU pipeline's device buffers,
      tiling, block/thread mapping and tiled kernels, run as loops on the
      CPU); forward, VJP and JVP at batch 1, 7 and 32 against the CPU
      module (f64, rtol 1e-9): hand-written programs, imported models (an
      MLP with LayerNorm and GELU, the LeNet CNN, the transformer block of
      examples/transformer: causal attention), and
      an SGD training step against the CPU step, and differentiated loops
      (host loops launching kernels); sizes that disagree or
      fall below a minimum end the call with TAD_ERROR_SHAPE, before any
      device work.
  dynamic_gpu.py --ptx [--ptxas=PATH]
      the same programs compiled to PTX for sm_90 and sm_80 (both kernel
      settings) and, with --ptxas, assembled.

Prints one line per check and a closing "N passed, N failed"."""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np
import tad
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location(
    "cnn_model", os.path.join(ROOT, "examples", "cnn", "model.py"))
cnn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cnn)
_spec = importlib.util.spec_from_file_location(
    "transformer_model", os.path.join(ROOT, "examples", "transformer", "model.py"))
transformer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(transformer)

sys.path.insert(0, os.path.join(ROOT, "test", "Numeric"))
import loops_gradcheck  # noqa: E402

counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if detail and not ok else ""))
    counts["passed" if ok else "failed"] += 1


MLP = """
func.func @f(%x: tensor<?x8xf64> {tad.dim_names = ["B", ""]},
             %w1: tensor<16x8xf64>, %b1: tensor<16xf64>,
             %w2: tensor<4x16xf64>, %b2: tensor<4xf64>,
             %y: tensor<?x4xf64> {tad.dim_names = ["B", ""]})
    -> (tensor<?x4xf64>, tensor<f64>) {
  %w1t = tad.t %w1 : (tensor<16x8xf64>) -> tensor<8x16xf64>
  %h = tad.addmm %b1, %x, %w1t : (tensor<16xf64>, tensor<?x8xf64>, tensor<8x16xf64>) -> tensor<?x16xf64>
  %a = tad.tanh %h : tensor<?x16xf64>
  %w2t = tad.t %w2 : (tensor<4x16xf64>) -> tensor<16x4xf64>
  %o = tad.addmm %b2, %a, %w2t : (tensor<4xf64>, tensor<?x16xf64>, tensor<16x4xf64>) -> tensor<?x4xf64>
  %loss = tad.mse_loss %o, %y {reduction = 1 : i64} : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<f64>
  return %o, %loss : tensor<?x4xf64>, tensor<f64>
}
"""

# Two dynamic sizes that the product needs equal (a run-time check inside
# the program, not at the boundary), and a minimum of 2 on the first.
CHECKED = """
func.func @f(%a: tensor<?x3xf64> {tad.dim_min = array<i64: 2, 0>},
             %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tad.mul.Tensor %a, %b : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
  %1 = tad._softmax %0 {dim = 1 : i64, half_to_float = false} : tensor<?x3xf64>
  return %1 : tensor<?x3xf64>
}
"""


# A weight gradient summed over a dynamic batch (sum_i t(g_i) @ h_i):
# tad-combine-matmul-sums merges the products and chooses at run time
# between the merged one (k <= 32: batch 1 and 7) and the sum (batch 40),
# an scf.if that stays on the host.
SUM_OF_PRODUCTS = """
func.func @f(%g0: tensor<?x64xf64> {tad.dim_names = ["B", ""]}, %h0: tensor<?x32xf64> {tad.dim_names = ["B", ""]},
             %g1: tensor<?x64xf64> {tad.dim_names = ["B", ""]}, %h1: tensor<?x32xf64> {tad.dim_names = ["B", ""]},
             %g2: tensor<?x64xf64> {tad.dim_names = ["B", ""]}, %h2: tensor<?x32xf64> {tad.dim_names = ["B", ""]})
    -> tensor<64x32xf64> {
  %t0 = tad.t %g0 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %t1 = tad.t %g1 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %t2 = tad.t %g2 : (tensor<?x64xf64>) -> tensor<64x?xf64>
  %p0 = tad.mm %t0, %h0 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %p1 = tad.mm %t1, %h1 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %p2 = tad.mm %t2, %h2 : (tensor<64x?xf64>, tensor<?x32xf64>) -> tensor<64x32xf64>
  %s0 = tad.add.Tensor %p0, %p1 : (tensor<64x32xf64>, tensor<64x32xf64>) -> tensor<64x32xf64>
  %s1 = tad.add.Tensor %s0, %p2 : (tensor<64x32xf64>, tensor<64x32xf64>) -> tensor<64x32xf64>
  return %s1 : tensor<64x32xf64>
}
"""


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 32)
        self.norm = nn.LayerNorm(32)
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x):
        return self.fc2(F.gelu(self.norm(self.fc1(x))))


def imported(model, shape):
    torch.manual_seed(0)
    model = model.double()
    example = (torch.randn(*shape, dtype=torch.float64),)
    text = tad.from_torch(model, example, dynamic_shapes={0: {0: "batch"}})
    params = [p.detach().numpy() for p in model.parameters()]
    return text, "forward", shape[1:], params


def programs():
    """name -> (MLIR text, function, sizes after the batch, other args)."""
    rng = np.random.default_rng(1)
    mlp_params = [rng.standard_normal((16, 8)), rng.standard_normal(16),
                  rng.standard_normal((4, 16)), rng.standard_normal(4)]
    lenet = cnn.build(torch.float64, batch=2)[0]
    block = transformer.build(torch.float64, batch=2)[0]
    return {
        "mlp": (MLP, "f", (8,), mlp_params, (4,)),
        "imported mlp": imported(Mlp(), (3, 12)) + (None,),
        "imported lenet": imported(lenet, (2, 1, 28, 28)) + (None,),
        "imported transformer block": imported(block, (2, 8, 32)) + (None,),
    }


def results(r):
    return [np.asarray(v) for v in (r if isinstance(r, tuple) else (r,))]


def close(got, want):
    if len(got) != len(want):
        return f"{len(got)} results, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            return f"result {i} has shape {g.shape}, expected {w.shape}"
        if not np.allclose(g, w, rtol=1e-9, atol=1e-12):
            return f"result {i}: max error {np.max(np.abs(g - w)):.3g}"
    return ""


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.out = nn.Linear(8, 3)

    def forward(self, x):
        return self.out(self.lstm(x)[0][:, -1])


def loop_programs():
    """Differentiated loops whose bounds the host knows: name -> (MLIR text,
    arguments): three of test/Numeric/loops_gradcheck.py and nn.LSTM
    imported as a loop over time."""
    wanted = ("carried 7 iterations", "nested loops", "sequence in and out")
    programs = {name: (text, args) for name, text, args in loops_gradcheck.cases()
                if name in wanted}
    torch.manual_seed(0)
    lstm = Recurrent().double()
    x = torch.randn(2, 5, 4, dtype=torch.float64)
    text = tad.from_torch(lstm, (x,), name="f", recurrent="loop")
    programs["nn.LSTM"] = (text, [x.numpy()] + [p.detach().numpy()
                                                 for p in lstm.parameters()])
    return programs


def emulated(kernels):
    flags = ["--gpu-emulate", "--gpu-kernels=" + kernels]
    rng = np.random.default_rng(0)
    for name, (text, fn, rest, params, target) in programs().items():
        cpu = tad.compile(text, vjp=fn, jvp=fn, opt_level=2)
        gpu = tad.compile(text, vjp=fn, jvp=fn, target="cuda", extra_args=flags)
        for batch in (1, 7, 32):
            args = [rng.standard_normal((batch, *rest))] + list(params)
            if target:
                args.append(rng.standard_normal((batch, *target)))
            want = results(getattr(cpu, fn)(*args))
            got = results(getattr(gpu, fn)(*args))
            check(f"{name} batch {batch} forward", not close(got, want), close(got, want))
            cts = [rng.standard_normal(w.shape) for w in want]
            want = results(getattr(cpu, fn + "_vjp")(*args, *cts))
            got = results(getattr(gpu, fn + "_vjp")(*args, *cts))
            check(f"{name} batch {batch} VJP", not close(got, want), close(got, want))
            tangents = [rng.standard_normal(np.shape(a)) for a in args]
            want = results(getattr(cpu, fn + "_jvp")(*args, *tangents))
            got = results(getattr(gpu, fn + "_jvp")(*args, *tangents))
            check(f"{name} batch {batch} JVP", not close(got, want), close(got, want))

    cpu = tad.compile(SUM_OF_PRODUCTS, vjp="f", jvp="f", opt_level=2)
    gpu = tad.compile(SUM_OF_PRODUCTS, vjp="f", jvp="f", target="cuda",
                      extra_args=flags, opt_level=2)
    for batch in (1, 7, 40):
        args = [rng.standard_normal((batch, 64 if i % 2 == 0 else 32))
                for i in range(6)]
        ct = rng.standard_normal((64, 32))
        tangents = [rng.standard_normal(a.shape) for a in args]
        for mode, extra in (("", []), ("_vjp", [ct]), ("_jvp", tangents)):
            want = results(getattr(cpu, "f" + mode)(*args, *extra))
            got = results(getattr(gpu, "f" + mode)(*args, *extra))
            check(f"sum of products batch {batch} f{mode}", not close(got, want),
                  close(got, want))

    # Loops stay on the host and launch their bodies' kernels.
    for name, (text, args) in loop_programs().items():
        cpu = tad.compile(text, vjp="f", jvp="f", opt_level=2)
        gpu = tad.compile(text, vjp="f", jvp="f", target="cuda", extra_args=flags)
        want = results(cpu.f(*args))
        cts = [rng.standard_normal(w.shape) for w in want]
        tangents = [rng.standard_normal(np.shape(a)) for a in args]
        for mode, extra in (("", []), ("_vjp", cts), ("_jvp", tangents)):
            want = results(getattr(cpu, "f" + mode)(*args, *extra))
            got = results(getattr(gpu, "f" + mode)(*args, *extra))
            check(f"loop: {name} f{mode}", not close(got, want), close(got, want))

    m = tad.compile(CHECKED, target="cuda", extra_args=flags)
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    p = np.exp(a * b)
    check("checked program at batch 5", not close(results(m.f(a, b)),
                                                   [p / p.sum(1, keepdims=True)]))
    for args in ((a, b[:4]), (a[:1], b[:1])):
        try:
            m.f(*args)
            check("checked program refuses " + str([x.shape for x in args]), False)
        except tad.TadError as e:
            print("error:", e)
            check("checked program refuses " + str([x.shape for x in args]),
                  e.status == tad.STATUS_SHAPE)

    # An SGD step of the LeNet CNN with a dynamic batch, its parameters in
    # (emulated) device memory, against the CPU step.
    model, (x0,), (y0,), loss_fn = cnn.build(torch.float64, batch=4)
    steps = {}
    for target, extra in (("cpu", []), ("cuda", flags)):
        copy = cnn.build(torch.float64, batch=4)[0]
        copy.load_state_dict(model.state_dict())
        steps[target] = tad.compile_train_step(
            copy, (x0,), (y0,), loss_fn=loss_fn, optimizer=tad.SGD(lr=0.05),
            dynamic_batch=True, target=target, extra_args=extra)
    for n in (4, 1, 9):
        x = rng.standard_normal((n, 1, 28, 28))
        y = rng.integers(0, 10, n)
        losses = [steps[t](x, y) for t in ("cpu", "cuda")]
        same = all(np.allclose(np.asarray(p), np.asarray(q), rtol=1e-9, atol=1e-12)
                   for p, q in zip(steps["cpu"].params, steps["cuda"].params))
        check(f"LeNet SGD step batch {n}",
              np.isclose(losses[0], losses[1], rtol=1e-9) and same,
              f"loss {losses[1]} vs {losses[0]}")


def ptx(ptxas):
    with tempfile.TemporaryDirectory() as work:
        items = dict(programs())
        items["checked"] = (CHECKED, "f", None, None, None)
        items["sum of products"] = (SUM_OF_PRODUCTS, "f")
        for name, (text, _) in loop_programs().items():
            items["loop: " + name] = (text, "f")
        for name, (text, fn, *_ ) in items.items():
            source = os.path.join(work, "m.mlir")
            with open(source, "w") as f:
                f.write(text)
            for arch in ("sm_90", "sm_80"):
                for kernels in ("naive", "tiled"):
                    out = os.path.join(work, "m.ptx")
                    what = f"{name} {arch} {kernels} PTX" + (" + ptxas" if ptxas else "")
                    run = subprocess.run(
                        [os.environ.get("TADC", "tadc"), source, "--target=cuda",
                         "--gpu-arch=" + arch, "--gpu-kernels=" + kernels,
                         "--vjp=" + fn, "--jvp=" + fn, "--emit=ptx", "-o", out],
                        capture_output=True, text=True)
                    if run.returncode == 0 and ptxas:
                        run = subprocess.run([ptxas, "--gpu-name", arch, out, "-o",
                                              os.path.join(work, "m.cubin")],
                                             capture_output=True, text=True)
                    check(what, run.returncode == 0, run.stderr.strip()[-300:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emulate", action="store_true")
    parser.add_argument("--gpu-kernels", default="naive")
    parser.add_argument("--ptx", action="store_true")
    parser.add_argument("--ptxas", default="")
    args = parser.parse_args()
    if args.emulate:
        emulated(args.gpu_kernels)
    if args.ptx:
        ptx(args.ptxas)
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
