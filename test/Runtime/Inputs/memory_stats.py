"""Module.memory_stats() (tad_get_memory_stats): the compiled code's own
heap. A loop of 400 steps over 4096 floats stores what its reverse sweep
reads (400 x 16 KB per stacked value): the VJP's peak must hold the stacks,
nothing may stay live after a call, resetting the peak starts it at what is
live, and the "sqrt" checkpointed VJP (k = 20: 20 checkpoints and one
segment's stacks) must need far less than storing every step.

Usage: memory_stats.py DIR  (prints lines for FileCheck)."""
import os
import sys

import numpy as np

import tad

STEPS, N = 400, 4096
SOURCE = f"""
func.func @f(%x: tensor<{N}xf32>, %w: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {STEPS} : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<{N}xf32>) {{
    %m = tad.mul.Tensor %h, %w : (tensor<{N}xf32>, tensor<{N}xf32>) -> tensor<{N}xf32>
    %t = tad.tanh %m : tensor<{N}xf32>
    scf.yield %t : tensor<{N}xf32>
  }}
  return %r : tensor<{N}xf32>
}}"""

out = sys.argv[1]
rng = np.random.default_rng(0)
x = rng.standard_normal(N).astype(np.float32)
w = rng.uniform(0.5, 1.0, N).astype(np.float32)
g = np.ones(N, dtype=np.float32)
stack_bytes = STEPS * N * 4

peaks = {}
grads = {}
for scheme in ("store", "sqrt"):
    path = os.path.join(out, f"loop-{scheme}.so")
    tad.compile(SOURCE, vjp="f", checkpoint=scheme, output=path)
    module = tad.load(path)
    before = module.memory_stats()
    print(f"{scheme}: before live={before['live_bytes']} "
          f"peak={before['peak_bytes']}")
    grads[scheme] = module.f_vjp(x, w, g)
    after = module.memory_stats()
    peaks[scheme] = after["peak_bytes"]
    print(f"{scheme}: after live={after['live_bytes']}")
    module.reset_peak_memory()
    print(f"{scheme}: reset peak={module.memory_stats()['peak_bytes']}")
    module.f_vjp(x, w, g)
    again = module.memory_stats()["peak_bytes"]
    print(f"{scheme}: second call same peak: {again == peaks[scheme]}")

print(f"store peak holds the stacks: {peaks['store'] >= stack_bytes}")
print(f"sqrt peak under a tenth of store's: {peaks['sqrt'] * 10 < peaks['store']}")
for a, b in zip(grads["store"], grads["sqrt"]):
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
print("gradients agree")
