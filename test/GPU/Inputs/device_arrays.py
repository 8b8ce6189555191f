"""Device arrays under --gpu-emulate: a training loop whose parameters stay
in (emulated) device memory matches the NumPy-copy path and the CPU target;
bad device arrays give clear errors.

  device_arrays.py MLP.mlir train   # the loops, compared
  device_arrays.py MLP.mlir trace   # 2 device-resident steps (TAD_DEVICE_TRACE)
  device_arrays.py MLP.mlir errors  # the error cases
  device_arrays.py MLP.mlir train cuda   # the loops on a real GPU
"""
import sys

import numpy as np

import tad

SOURCE, MODE = sys.argv[1], sys.argv[2]
REAL_GPU = sys.argv[3:] == ["cuda"]
STEPS = 6
GPU_FLAGS = [] if REAL_GPU else ["--gpu-emulate"]

cpu = tad.compile(SOURCE)
emu = tad.compile(SOURCE, target="cuda", extra_args=GPU_FLAGS)

rng = np.random.default_rng(0)
params0 = [rng.standard_normal((8, 32)).astype(np.float32) * 0.3,
           np.zeros(32, np.float32),
           rng.standard_normal((32, 1)).astype(np.float32) * 0.3,
           np.zeros(1, np.float32)]
# One batch, passed as fresh host arrays each step (so each step copies it).
x0 = rng.standard_normal((64, 8)).astype(np.float32)
y0 = np.tanh(x0 @ rng.standard_normal((8, 1))).astype(np.float32)
batches = [(x0.copy(), y0.copy()) for _ in range(STEPS)]
lr = np.float32(0.05)


def host_loop(module):
    """Every step copies everything in and out (NumPy arrays)."""
    params, losses = list(params0), []
    for x, y in batches:
        loss, *params = module.train_step(x, y, *params, lr)
        losses.append(float(loss))
    return losses, params


def device_loop(module, steps=STEPS, trace=False):
    """Parameters in device memory, two sets used in turn (out=): a step
    copies its batch in and the loss out, nothing else."""
    params = [module.device_array(p) for p in params0]
    spare = [module.device_empty(p.shape, p.dtype) for p in params0]
    losses = []
    for step, (x, y) in enumerate(batches[:steps]):
        if trace:
            print(f"step {step}", flush=True)
        loss, *new = module.train_step(x, y, *params, lr, out=[None] + spare)
        assert all(a is b for a, b in zip(new, spare))
        params, spare = new, params
        losses.append(float(loss))
    return losses, [p.numpy() for p in params]


def error(what, fn):
    try:
        fn()
        print(f"{what}: no error")
    except tad.TadError as e:
        print(f"{what}: status {e.status}: {e}")


if MODE == "train":
    print("devices:", cpu.device, emu.device)
    cpu_losses, cpu_params = host_loop(cpu)
    copy_losses, copy_params = host_loop(emu)
    dev_losses, dev_params = device_loop(emu)
    print("losses:", " ".join(f"{v:.5f}" for v in dev_losses))
    assert dev_losses[-1] < dev_losses[0]
    same = dev_losses == copy_losses and all(
        np.array_equal(a, b) for a, b in zip(dev_params, copy_params))
    print("device arrays == NumPy copies:", "exact" if same else "DIFFERENT")
    close = np.allclose(dev_losses, cpu_losses, rtol=1e-4, atol=1e-5) and all(
        np.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(dev_params, cpu_params))
    print("device arrays ~ CPU target:", "close" if close else "DIFFERENT")
    # device_results=True: gradients stay on the device.
    x, y = batches[0]
    w = [emu.device_array(p) for p in params0]
    loss = emu.loss(x, y, *w)
    out = emu.loss(x, y, *w, device_results=True)
    print("device result:", out, "=", float(out.numpy()) == float(loss))
    assert isinstance(out, tad.DeviceArray)
    # Device arrays from one module work in another of the same kind.
    emu2 = tad.compile(SOURCE, target="cuda", extra_args=GPU_FLAGS)
    print("other module:", float(emu2.loss(x, y, *w)) == float(loss))
    for a in w:
        a.free()
    print("freed:", w[0])

elif MODE == "trace":
    device_loop(emu, steps=2, trace=True)

elif MODE == "errors":
    x, y = batches[0]
    w = [emu.device_array(p) for p in params0]
    error("device array to a CPU module",
          lambda: cpu.loss(x, y, *w))
    error("device memory of a CPU module",
          lambda: cpu.device_array(x))
    error("device results of a CPU module",
          lambda: cpu.loss(x, y, *params0, device_results=True))
    wrong = emu.device_array(np.zeros((32, 8), np.float32))
    error("wrong shape", lambda: emu.loss(x, y, wrong, *w[1:]))
    wrong64 = emu.device_array(params0[0].astype(np.float64))
    error("wrong dtype", lambda: emu.loss(x, y, wrong64, *w[1:]))
    freed = emu.device_array(params0[0])
    freed.free()
    error("freed argument", lambda: emu.loss(x, y, freed, *w[1:]))
    error("freed numpy()", lambda: freed.numpy())
    error("result overlaps an argument",
          lambda: emu.train_step(x, y, *w, lr, out=[None, w[0], None, None, None]))
    error("out= count", lambda: emu.train_step(x, y, *w, lr, out=[None]))
    error("non-contiguous out=",
          lambda: emu.train_step(x, y, *w, lr,
                                 out=[None, np.zeros((32, 8), np.float32).T,
                                      None, None, None]))
    error("upload shape", lambda: w[0].upload(np.zeros((2, 2), np.float32)))
    # A CUDA module (no GPU needed to compile and load it) refuses emulated
    # device memory before touching the driver.
    gpu = tad.compile("""
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tad.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", target="cuda")
    print("cuda module device:", gpu.device)
    error("emulated array to a cuda module",
          lambda: gpu.f(emu.device_array(np.zeros(4, np.float32))))
