"""The CPU matmul schedule (tad-vectorize-contractions) against NumPy in
float64 and float32: shapes that the register tiles divide and shapes that
need peeling, batch_matmul, transposed operands (as the VJP emits them), the
OpenMP-parallel path (large enough to be parallelized) and the single-thread
one, B copied into panels (with a partial last panel, or per cache block
where A has few rows), a transposed A copied into panels, k split over the
cores, and overridden tile sizes.
Compiled at -O3."""

import os
import sys

import numpy as np

import tad

MM = """
func.func @f(%a: tensor<{a}x{dt}>, %b: tensor<{b}x{dt}>) -> tensor<{c}x{dt}> {{
  %0 = tad.{op} %a, %b : (tensor<{a}x{dt}>, tensor<{b}x{dt}>) -> tensor<{c}x{dt}>
  return %0 : tensor<{c}x{dt}>
}}
"""
GRAD = """
func.func @f(%a: tensor<{m}x{k}x{dt}>, %b: tensor<{k}x{n}x{dt}>) -> tensor<{dt}> {{
  %0 = tad.mm %a, %b : (tensor<{m}x{k}x{dt}>, tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}x{dt}>
  %1 = tad.sum %0 : (tensor<{m}x{n}x{dt}>) -> tensor<{dt}>
  return %1 : tensor<{dt}>
}}
"""

rng = np.random.default_rng(0)
failures = 0


def check(name, ok):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + name, flush=True)


def dims(shape):
    return "x".join(str(d) for d in shape)


CASES = [  # (op, a shape, b shape)
    ("mm", (64, 128), (128, 96)),      # divides the 8x32 / 8x16 register tiles
    ("mm", (20, 7), (7, 10)),          # peeled m, n < one register tile
    ("mm", (37, 45), (45, 53)),        # peeled m and n, odd k
    ("mm", (1, 33), (33, 5)),
    ("mm", (64, 400), (400, 120)),    # n tail 24: register rows of 16 + 8
    ("mm", (24, 20), (20, 43)),        # n tail 11: rows of 8 + 2 + 1
    ("mm", (96, 200), (200, 136)),     # 2.6M multiply-adds: parallel
    ("mm", (128, 784), (784, 512)),    # the mlp benchmark's first layer
    ("mm", (512, 64), (64, 1024)),     # B rows a page apart: B in panels
    ("mm", (512, 40), (40, 1040)),     # panels with a partial last one
    ("mm", (25, 8192), (8192, 6)),     # one m and n tile: k split over the cores
    ("mm", (24, 512), (512, 1024)),    # few rows: B in panels per cache block
    ("bmm", (3, 17, 24), (3, 24, 40)),
    ("bmm", (4, 64, 64), (4, 64, 64)),  # parallel over the batch
]
# Where the default schedules do not pack B (f32: n splits into 208-wide
# cache tiles), one whole-n tile that does, with a partial last panel.
# Register rows of 24 and 48 (1.5 and 3 vectors of 16) split into 16 + 8
# and 32 + 16.
EXTRA_SCHEDULES = {(40, 1040): [["--matmul-cache-tiles=32,1040,40"]],
                   (784, 512): [["--matmul-register-tile=4,24"],
                                ["--matmul-register-tile=2,48"]]}

for dtype, dt, tol in ((np.float64, "f64", 1e-12), (np.float32, "f32", 2e-5)):
    for op, sa, sb in CASES:
        sc = sa[:-1] + sb[-1:]
        a = rng.standard_normal(sa).astype(dtype)
        b = rng.standard_normal(sb).astype(dtype)
        ref = a.astype(np.float64) @ b.astype(np.float64)
        for extra in [[], ["--parallel=false"],
                      ["--matmul-cache-tiles=16,48,40", "--matmul-register-tile=4,16"]
                      ] + EXTRA_SCHEDULES.get(sb, []):
            m = tad.compile(MM.format(a=dims(sa), b=dims(sb), c=dims(sc), dt=dt, op=op),
                            opt_level=3, extra_args=extra)
            c = m.f(a, b)
            err = np.abs(c - ref).max() / max(np.abs(ref).max(), 1.0)
            check(f"{op} {dims(sa)} @ {dims(sb)} {dt} {' '.join(extra)}".strip(),
                  c.shape == ref.shape and err < tol)

# A transposed A (the weight gradient dY^T X) with rows a kilobyte or more
# apart is copied into panels of mc columns; the register tiles read inside
# a panel, at an offset where mr does not divide mc (peeled: 8 + 8 + 4).
TMM = """
func.func @f(%a: tensor<{k}x{m}x{dt}>, %b: tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}x{dt}> {{
  %t = "tad.t"(%a) : (tensor<{k}x{m}x{dt}>) -> tensor<{m}x{k}x{dt}>
  %0 = tad.mm %t, %b : (tensor<{m}x{k}x{dt}>, tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}x{dt}>
  return %0 : tensor<{m}x{n}x{dt}>
}}
"""
for dtype, dt, tol in ((np.float64, "f64", 1e-12), (np.float32, "f32", 2e-5)):
    for k_, m_, n_, extra in ((96, 256, 1024, []), (96, 256, 1024, ["--parallel=false"]),
                              (50, 300, 1040, ["--matmul-cache-tiles=20,64,32",
                                               "--matmul-register-tile=8,16"]),
                              (70, 1024, 600, [])):
        a = rng.standard_normal((k_, m_)).astype(dtype)
        b = rng.standard_normal((k_, n_)).astype(dtype)
        ref = a.T.astype(np.float64) @ b.astype(np.float64)
        mod = tad.compile(TMM.format(k=k_, m=m_, n=n_, dt=dt), opt_level=3, extra_args=extra)
        c = mod.f(a, b)
        err = np.abs(c - ref).max() / max(np.abs(ref).max(), 1.0)
        check(f"mm {k_}x{m_}^T @ {k_}x{n_} {dt} {' '.join(extra)}".strip(),
              c.shape == ref.shape and err < tol)

# The AVX2 model (the suite pins AVX-512): 6x16 register tiles (peeled in
# 16-row cache tiles), B rows of 1 KiB in panels (per cache block where m
# is 16 or 40: one m cache tile, peeled 6 + 6 + 4; and where B is over 8
# times L2, 300 rows with a shorter k cache tile, 1040 rows in m cache tiles
# inside the k loop; B rows of 384 or 768 bytes over L2 too, 1000 rows in
# m tiles of 10 or 8 inside the k loop, n's one tile halved), a transposed
# A in panels with 6-row tiles that do not divide the panel (6 + 6 + 4 of
# 16 f32 columns, 6 + 2 of 8 f64 ones), rows narrower than a vector in
# masked full-width vectors (6 of 8 f32 lanes, 3 of 4 f64 lanes; 7 alone
# and after 16).
pinned = {name: os.environ.get(name)
          for name in ("TAD_HOST_VECTOR_BITS", "TAD_HOST_VECTOR_REGISTERS")}
os.environ.update(TAD_HOST_VECTOR_BITS="256", TAD_HOST_VECTOR_REGISTERS="16")
for dtype, dt, tol in ((np.float64, "f64", 1e-12), (np.float32, "f32", 2e-5)):
    for transposed, k_, m_, n_ in ((False, 64, 256, 256), (False, 100, 300, 520),
                                   (True, 96, 256, 1024), (True, 40, 520, 300),
                                   (False, 80, 1000, 6), (False, 33, 50, 7),
                                   (False, 20, 30, 23), (True, 80, 64, 3),
                                   (False, 1024, 16, 1024), (False, 700, 40, 256),
                                   (False, 2048, 300, 1152), (False, 1100, 1040, 2304),
                                   (False, 2900, 1000, 96)):
        a = rng.standard_normal((k_, m_) if transposed else (m_, k_)).astype(dtype)
        b = rng.standard_normal((k_, n_)).astype(dtype)
        ref = (a.T if transposed else a).astype(np.float64) @ b.astype(np.float64)
        source = (TMM.format(k=k_, m=m_, n=n_, dt=dt) if transposed else
                  MM.format(a=f"{m_}x{k_}", b=f"{k_}x{n_}", c=f"{m_}x{n_}", dt=dt, op="mm"))
        c = tad.compile(source, opt_level=3).f(a, b)
        err = np.abs(c - ref).max() / max(np.abs(ref).max(), 1.0)
        check(f"mm {'transposed A ' if transposed else ''}{m_}x{n_}x{k_} {dt} (AVX2 model)",
              c.shape == ref.shape and err < tol)
for name, value in pinned.items():
    if value is None:
        os.environ.pop(name)
    else:
        os.environ[name] = value

# The VJP's transposed matmuls (gradient of sum(A @ B): ones @ B^T, A^T @ ones).
for m_, k_, n_ in ((33, 70, 41), (128, 256, 64)):
    a = rng.standard_normal((m_, k_))
    b = rng.standard_normal((k_, n_))
    mod = tad.compile(GRAD.format(m=m_, k=k_, n=n_, dt="f64"), vjp=["f"], opt_level=3)
    _, ga, gb = mod.f_vjp(a, b, np.array(1.0))
    ones = np.ones((m_, n_))
    check(f"vjp of sum(mm) {m_}x{k_}x{n_}",
          np.allclose(ga, ones @ b.T, rtol=1e-12) and np.allclose(gb, a.T @ ones, rtol=1e-12))

print("%d failed" % failures)
sys.exit(1 if failures else 0)
