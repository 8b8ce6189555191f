"""Importer decompositions of special functions that tad has no op for:
``special_erfcx``, ``special_log_ndtr``, ``erfinv``, ``special_ndtri``,
``i0``, ``special_i0e``, ``special_i1``, ``special_i1e`` and ``frexp`` (see
``_decompositions`` for the contract).

- i0e, i1e: Chebyshev interpolants in powers of u (_bessel_coefficients.py,
  about 30 terms each, relative error below 4e-15 against mpmath) of i0e(x) and i1e(x)/x
  up to |x| = 8 and of sqrt(x) i0e(x), sqrt(x) i1e(x) in 8/x beyond,
  evaluated by Horner's rule; i0 = exp(|x|) i0e(|x|), i1 = exp(|x|)
  i1e(x). Their derivatives are those of the expansions (i1, i0 - i1/x,
  ... to about 1e-14).
- erfcx(x) = exp(x^2) erfc(x) below x = 8 (relative error about x^2 ulp),
  its asymptotic series (15 terms, below 1e-16) from 8 on.
- log_ndtr(x) = log(erfcx(-x/sqrt2) / 2) - x^2/2 below -1 (no underflow),
  log1p(-erfc(x/sqrt2) / 2) above (ATen's split).
- erfcx, log_ndtr, erfinv and ndtri of a float16 or bfloat16 input are
  computed in float32 and rounded back (their constants overflow float16,
  and the derivatives exp(x^2), exp(x^2/2) of a 16-bit x lose its precision).
- erfinv and ndtri are inverses: an initial guess (Winitzki's closed
  form, about 2e-3 relative) refined by three Halley steps on erf (small
  arguments) or erfc (the tails, where erf(x) - y would cancel), all
  without derivative; the result is then x + (y - detach(y)) / f'(x): the
  same value, and the derivative PyTorch's formula (sqrt(pi)/2 exp(x^2) for
  erfinv, sqrt(2 pi) exp(x^2/2) for ndtri). At y = +-1 (p = 0, 1) the value
  is +-inf and the derivative inf, as PyTorch's (there the result is a
  function of y with that value and an infinite slope: -log1p(-|y|),
  log(p)).

Branches of ``where`` see inputs clamped into their own range, so the
branch not taken never makes inf or NaN whose zero cotangent would turn
into NaN.

``table()`` returns ``{aten overload: function}``.
"""

import math

from . import _bessel_coefficients as bessel


def table():
    import torch
    aten = torch.ops.aten

    SQRT2 = math.sqrt(2.0)
    TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

    def where_lt(x, bound, below, above):
        """where(x < bound, below(x'), above(x'')), each branch on its
        input clamped to its side of ``bound``."""
        lt = aten.lt.Scalar(x, bound)
        xb = aten.where.ScalarOther(lt, x, bound)
        xa = aten.where.ScalarSelf(lt, bound, x)
        return aten.where.self(lt, below(xb), above(xa))

    def erfcx_direct(x):
        return aten.mul.Tensor(aten.exp.default(aten.mul.Tensor(x, x)), aten.erfc.default(x))

    def erfcx_series(x):
        # 1 / (x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k
        inv = aten.reciprocal.default(aten.mul.Scalar(aten.mul.Tensor(x, x), 2.0))
        total = None
        for k in reversed(range(15)):
            coef = (-1.0) ** k * math.prod(range(1, 2 * k, 2))
            total = (aten.full_like.default(x, coef) if total is None else
                     aten.add.Scalar(aten.mul.Tensor(total, inv), coef))
        return aten.div.Tensor(total, aten.mul.Scalar(x, math.sqrt(math.pi)))

    def in_float32(fn):
        """``fn`` evaluated in float32 for a 16-bit float input, rounded
        back, as ATen's 16-bit kernels compute in float32 too: constants
        (the series' (2k-1)!!, up to 2e14) overflow float16, and
        exp(x^2) of a 16-bit x carries x's rounding times 2x^2."""
        def wrapped(x):
            if x.dtype not in (torch.float16, torch.bfloat16):
                return fn(x)
            y = fn(aten._to_copy.default(x, dtype=torch.float32))
            return y if y is NotImplemented else aten._to_copy.default(y, dtype=x.dtype)
        return wrapped

    @in_float32
    def erfcx(x):
        if not x.is_floating_point():
            return NotImplemented
        return where_lt(x, 8.0, erfcx_direct, erfcx_series)

    @in_float32
    def log_ndtr(x):
        if not x.is_floating_point():
            return NotImplemented

        def low(t):
            u = aten.div.Scalar(t, -SQRT2)
            return aten.sub.Tensor(aten.log.default(aten.mul.Scalar(erfcx(u), 0.5)),
                                   aten.mul.Scalar(aten.mul.Tensor(t, t), 0.5))

        def high(t):
            return aten.log1p.default(aten.mul.Scalar(aten.erfc.default(
                aten.div.Scalar(t, SQRT2)), -0.5))
        return where_lt(x, -1.0, low, high)

    def density(x):
        """erf'(x) = 2/sqrt(pi) exp(-x^2)."""
        return aten.mul.Scalar(aten.exp.default(aten.neg.default(aten.mul.Tensor(x, x))),
                               TWO_OVER_SQRT_PI)

    def guess(log_q1q):
        """Winitzki's approximation of the x >= 0 with 1 - erf(x)^2 =
        exp(log_q1q)."""
        a = 0.147
        t = aten.add.Scalar(aten.mul.Scalar(log_q1q, 0.5), 2.0 / (math.pi * a))
        inner = aten.sqrt.default(aten.sub.Tensor(aten.mul.Tensor(t, t),
                                                  aten.div.Scalar(log_q1q, a)))
        return aten.sqrt.default(aten.clamp_min.default(aten.sub.Tensor(inner, t), 0.0))

    def solve_erf(y):
        """x >= 0 with erf(x) = y, for 0 <= y <= 1/2."""
        x = guess(aten.log1p.default(aten.neg.default(aten.mul.Tensor(y, y))))
        for _ in range(3):  # Halley: x - f / (f' + x f), f = erf(x) - y
            f = aten.sub.Tensor(aten.erf.default(x), y)
            x = aten.sub.Tensor(x, aten.div.Tensor(f, aten.add.Tensor(density(x),
                                                                      aten.mul.Tensor(x, f))))
        return x

    def solve_erfc(q):
        """x >= 0 with erfc(x) = q, for 0 < q <= 1/2."""
        x = guess(aten.add.Tensor(aten.log.default(q),
                                  aten.log.default(aten.rsub.Scalar(q, 2.0))))
        for _ in range(3):  # Halley: x + g / (f' - x g), g = erfc(x) - q
            g = aten.sub.Tensor(aten.erfc.default(x), q)
            x = aten.add.Tensor(x, aten.div.Tensor(g, aten.sub.Tensor(density(x),
                                                                      aten.mul.Tensor(x, g))))
        return x

    def with_derivative(x, y, slope, infinite):
        """x (computed without derivative) with derivative ``slope(x)``
        with respect to y; where x is not finite, ``infinite(y)``: a
        function of y with the same +-inf value there and an infinite
        derivative (NaN stays NaN)."""
        dy = aten.sub.Tensor(y, aten.detach.default(y))
        finite = aten.lt.Scalar(aten.abs.default(x), math.inf)
        safe = aten.where.ScalarOther(finite, x, 0.0)
        out = aten.add.Tensor(safe, aten.mul.Tensor(dy, slope(safe)))
        return aten.where.self(finite, out, infinite(y))

    def signed(y, magnitude):
        return aten.where.self(aten.lt.Scalar(y, 0.0), aten.neg.default(magnitude), magnitude)

    @in_float32
    def erfinv(y):
        if not y.is_floating_point():
            return NotImplemented
        yd = aten.detach.default(y)
        a = aten.abs.default(yd)
        small = aten.lt.Scalar(a, 0.5)
        x = aten.where.self(small, solve_erf(aten.where.ScalarOther(small, a, 0.0)),
                            solve_erfc(aten.where.ScalarSelf(
                                small, 0.5, aten.rsub.Scalar(a, 1.0))))
        x = aten.where.ScalarOther(aten.ne.Scalar(a, 1.0), x, math.inf)
        x = signed(yd, aten.where.ScalarOther(aten.le.Scalar(a, 1.0), x, math.nan))

        def slope(t):
            return aten.mul.Scalar(aten.exp.default(aten.mul.Tensor(t, t)),
                                   math.sqrt(math.pi) / 2.0)

        def infinite(y):
            # -log1p(-|y|), signed: +-inf at y = +-1 with derivative
            # 1 / (1 - |y|) = inf (PyTorch's), finite inside, NaN outside
            magnitude = aten.neg.default(aten.log1p.default(aten.neg.default(
                aten.abs.default(y))))
            return aten.where.self(aten.isnan.default(x), x, signed(yd, magnitude))
        return with_derivative(x, y, slope, infinite)

    @in_float32
    def ndtri(p):
        if not p.is_floating_point():
            return NotImplemented
        pd = aten.detach.default(p)
        r = aten.mul.Scalar(pd, 2.0)                      # erfc(-x / sqrt2) = 2p
        c = aten.sub.Scalar(r, 1.0)                       # erf(x / sqrt2) = 2p - 1
        mid = aten.lt.Scalar(aten.abs.default(c), 0.5)
        tail = aten.where.self(aten.lt.Scalar(c, 0.0), r, aten.rsub.Scalar(r, 2.0))
        inner = aten.where.self(mid, solve_erf(aten.where.ScalarOther(
            mid, aten.abs.default(c), 0.0)), solve_erfc(aten.where.ScalarSelf(
                mid, 0.5, aten.clamp_min.default(tail, 0.0))))
        inner = aten.where.ScalarOther(aten.ne.Scalar(tail, 0.0), inner, math.inf)
        x = aten.mul.Scalar(signed(c, inner), SQRT2)
        bad = aten.logical_or.default(aten.logical_or.default(
            aten.lt.Scalar(pd, 0.0), aten.gt.Scalar(pd, 1.0)), aten.isnan.default(pd))
        x = aten.where.ScalarOther(aten.logical_not.default(bad), x, math.nan)

        def slope(t):
            return aten.mul.Scalar(aten.exp.default(aten.mul.Scalar(aten.mul.Tensor(t, t), 0.5)),
                                   math.sqrt(2.0 * math.pi))

        def infinite(p):
            # log(p) (-inf at 0) below 1/2, -log1p(-p) (inf at 1) above:
            # derivative 1/p or 1/(1 - p) = inf there (PyTorch's)
            tails = aten.where.self(aten.lt.Scalar(pd, 0.5), aten.log.default(p),
                                    aten.neg.default(aten.log1p.default(aten.neg.default(p))))
            return aten.where.self(aten.isnan.default(x), x, tails)
        return with_derivative(x, p, slope, infinite)

    def frexp(x):
        # x = m 2^e, 0.5 <= |m| < 1; e from log2 |x|, corrected by one
        # where log2 rounds; m = x 2^-e has derivative 2^-e
        if not x.is_floating_point():
            return NotImplemented
        xd = aten.detach.default(x)
        a = aten.abs.default(xd)
        normal = aten.logical_and.default(aten.gt.Scalar(a, 0.0), aten.lt.Scalar(a, math.inf))
        safe = aten.where.ScalarOther(normal, a, 1.0)
        e = aten.add.Scalar(aten.floor.default(aten.div.Scalar(aten.log.default(safe),
                                                                math.log(2.0))), 1.0)

        def scaled(e):
            return aten.mul.Tensor(safe, aten.pow.Tensor_Tensor(
                aten.full_like.default(e, 2.0), aten.neg.default(e)))
        e = aten.where.self(aten.ge.Scalar(scaled(e), 1.0), aten.add.Scalar(e, 1.0), e)
        e = aten.where.self(aten.lt.Scalar(scaled(e), 0.5), aten.sub.Scalar(e, 1.0), e)
        e = aten.where.ScalarOther(normal, e, 0.0)
        m = aten.mul.Tensor(x, aten.pow.Tensor_Tensor(aten.full_like.default(e, 2.0),
                                                      aten.neg.default(e)))
        return m, aten._to_copy.default(e, dtype=torch.int32)

    def polynomial(u, coefficients):
        """sum_k a_k u^k by Horner's rule."""
        out = aten.full_like.default(u, coefficients[-1])
        for a in reversed(coefficients[:-1]):
            out = aten.add.Scalar(aten.mul.Tensor(out, u), a)
        return out

    def scaled_bessel(a, small, large):
        """For a = |x|: ``small`` in u = a/4 - 1 up to 8, ``large`` (of
        sqrt(a) f(a)) in u = 16/a - 1 from 8 on."""
        def near(t):
            return polynomial(aten.sub.Scalar(aten.mul.Scalar(t, 0.25), 1.0), small)

        def far(t):
            u = aten.sub.Scalar(aten.div.Tensor(aten.full_like.default(t, 16.0), t), 1.0)
            return aten.div.Tensor(polynomial(u, large), aten.sqrt.default(t))
        return near, far

    def i0e_of_abs(a):
        near, far = scaled_bessel(a, bessel.I0E_SMALL, bessel.I0E_LARGE)
        return where_lt(a, 8.0, near, far)

    def i1e_of_abs(a):
        near, far = scaled_bessel(a, bessel.I1E_OVER_X_SMALL, bessel.I1E_LARGE)
        return where_lt(a, 8.0, lambda t: aten.mul.Tensor(near(t), t), far)

    def i0e(x):
        if not x.is_floating_point():
            return NotImplemented
        return i0e_of_abs(aten.abs.default(x))

    def i0(x):
        if not x.is_floating_point():
            return NotImplemented
        a = aten.abs.default(x)
        return aten.mul.Tensor(aten.exp.default(a), i0e_of_abs(a))

    def i1e(x):
        # odd: sign(x) i1e(|x|), as x i1e(|x|)/|x| near 0 (derivative 1/2 at 0)
        if not x.is_floating_point():
            return NotImplemented
        a = aten.abs.default(x)
        near, far = scaled_bessel(a, bessel.I1E_OVER_X_SMALL, bessel.I1E_LARGE)
        lt = aten.lt.Scalar(a, 8.0)
        xs = aten.where.ScalarOther(lt, x, 0.0)
        small = aten.mul.Tensor(near(aten.abs.default(xs)), xs)
        ab = aten.where.ScalarSelf(lt, 8.0, a)
        large = aten.mul.Tensor(far(ab), aten.sign.default(x))
        return aten.where.self(lt, small, large)

    def i1(x):
        if not x.is_floating_point():
            return NotImplemented
        return aten.mul.Tensor(aten.exp.default(aten.abs.default(x)), i1e(x))

    return {
        aten.i0.default: i0, aten.special_i0e.default: i0e,
        aten.special_i1.default: i1, aten.special_i1e.default: i1e,
        aten.special_erfcx.default: erfcx,
        aten.special_log_ndtr.default: log_ndtr,
        aten.erfinv.default: erfinv,
        aten.special_ndtri.default: ndtri,
        aten.frexp.Tensor: frexp,
    }
