"""Decompositions of ATen ops that tad has no op for into ATen ops that it
has, applied by the importer while tracing (in addition to PyTorch's own
``torch._decomp`` table). Each is exact in real arithmetic, keeps the
op's values at the edges (NaN, inf, ties) and has PyTorch's derivative,
including its subgradient choices; ops for which no such formula exists
with tad's ops (cancellation, as for ``expm1`` or ``erfc``) are tad ops.

``table()`` returns ``{aten overload: function}``.
"""

import math


def table():
    import torch
    aten = torch.ops.aten

    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing

    def const(values):
        """An index constant made outside the trace (a constant of it)."""
        with disable_proxy_modes_tracing():
            return torch.tensor(values, dtype=torch.int64)

    def zeros_at(x):
        return aten.zeros_like.default(x)

    def trunc(x):
        # floor(|x|) * sign(x): both have derivative 0, so does trunc
        return aten.mul.Tensor(aten.floor.default(aten.abs.default(x)), aten.sign.default(x))

    def tan(x):
        return aten.div.Tensor(aten.sin.default(x), aten.cos.default(x))

    def sinh(x):
        return aten.mul.Tensor(aten.sub.Tensor(aten.exp.default(x),
                                               aten.exp.default(aten.neg.default(x))), 0.5)

    def cosh(x):
        return aten.mul.Tensor(aten.add.Tensor(aten.exp.default(x),
                                               aten.exp.default(aten.neg.default(x))), 0.5)

    def ceil(x):
        return aten.neg.default(aten.floor.default(aten.neg.default(x)))

    def frac(x):
        return aten.sub.Tensor(x, trunc(x))

    def rad2deg(x):
        return aten.mul.Tensor(x, 180.0 / math.pi)

    def deg2rad(x):
        return aten.mul.Tensor(x, math.pi / 180.0)

    def logaddexp(a, b):
        m = aten.maximum.default(a, b)
        # where a == b == +-inf, a - m is NaN; PyTorch returns m there
        s = aten.add.Tensor(aten.exp.default(aten.sub.Tensor(a, m)),
                            aten.exp.default(aten.sub.Tensor(b, m)))
        out = aten.add.Tensor(m, aten.log.default(s))
        same_inf = aten.logical_and.default(aten.eq.Tensor(a, b),
                                            aten.eq.Scalar(aten.abs.default(a), math.inf))
        return aten.where.self(same_inf, a, out)

    def remainder(a, b):
        return aten.sub.Tensor(a, aten.mul.Tensor(b, aten.floor.default(aten.div.Tensor(a, b))))

    def fmod(a, b):
        return aten.sub.Tensor(a, aten.mul.Tensor(b, trunc(aten.div.Tensor(a, b))))

    def div_mode(a, b, *, rounding_mode=None):
        q = aten.div.Tensor(a, b)
        if rounding_mode == "trunc":
            return trunc(q)
        if rounding_mode == "floor":
            return aten.floor.default(q)
        return q

    def fmax(a, b):
        # PyTorch's gradient: all to self where self >= other or other is NaN
        pick = aten.logical_or.default(aten.ge.Tensor(a, b), aten.isnan.default(b))
        return aten.where.self(pick, a, b)

    def fmin(a, b):
        pick = aten.logical_or.default(aten.le.Tensor(a, b), aten.isnan.default(b))
        return aten.where.self(pick, a, b)

    def sgn(x):
        return aten.sign.default(x)

    def vdot(a, b):
        return aten.dot.default(a, b)

    def softshrink(x, lambd=0.5):
        return aten.where.ScalarOther(
            aten.gt.Scalar(x, lambd), aten.sub.Scalar(x, lambd),
            0.0) + aten.where.ScalarOther(aten.lt.Scalar(x, -lambd),
                                          aten.add.Scalar(x, lambd), 0.0)

    def special_entr(x):
        pos = aten.mul.Tensor(aten.neg.default(x), aten.log.default(x))
        out = aten.where.ScalarSelf(aten.eq.Scalar(x, 0.0), 0.0, pos)
        return aten.where.ScalarSelf(aten.lt.Scalar(x, 0.0), -math.inf, out)

    def special_xlog1py(x, y):
        prod = aten.mul.Tensor(x, aten.log1p.default(y))
        zero = aten.logical_and.default(aten.eq.Scalar(x, 0.0),
                                        aten.logical_not.default(aten.isnan.default(y)))
        return aten.where.ScalarSelf(zero, 0.0, prod)

    def triangle(x, diagonal, upper):
        rows, cols = x.shape[-2], x.shape[-1]
        r = torch.arange(rows).unsqueeze(-1)
        c = torch.arange(cols).unsqueeze(0)
        keep = (c - r >= diagonal) if upper else (c - r <= diagonal)
        if not x.is_floating_point():
            # a float 0.0 would promote an integer or boolean x to float
            return aten.where.self(keep, x, aten.new_zeros.default(x, ()))
        return aten.where.ScalarOther(keep, x, 0.0)

    def triu(x, diagonal=0):
        return triangle(x, diagonal, True)

    def diagonal_indices(rows, cols, offset):
        r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
        n = max(0, min(rows - r0, cols - c0))
        return [(r0 + k) * cols + (c0 + k) for k in range(n)]

    def diagonal(x, offset=0, dim1=0, dim2=1):
        nd = x.dim()
        dim1, dim2 = dim1 % nd, dim2 % nd
        rest = [d for d in range(nd) if d not in (dim1, dim2)]
        y = aten.permute.default(x, rest + [dim1, dim2])
        rows, cols = x.shape[dim1], x.shape[dim2]
        y = aten.reshape.default(y, [x.shape[d] for d in rest] + [rows * cols])
        index = const(diagonal_indices(rows, cols, offset))
        return aten.index_select.default(y, len(rest), index)

    def diag_embed(x, offset=0, dim1=-2, dim2=-1):
        n = x.shape[-1]
        size = n + abs(offset)
        zero = aten.zeros_like.default(aten.slice.Tensor(x, -1, 0, 1))
        ext = aten.cat.default([x, zero], -1)
        flat = [n] * (size * size)
        for k, p in enumerate(diagonal_indices(size, size, offset)):
            flat[p] = k
        out = aten.index_select.default(ext, x.dim() - 1, const(flat))
        out = aten.reshape.default(out, list(x.shape[:-1]) + [size, size])
        nd = x.dim() + 1
        dim1, dim2 = dim1 % nd, dim2 % nd
        if (dim1, dim2) == (nd - 2, nd - 1):
            return out
        order = list(range(nd - 2))
        perm = [None] * nd
        slots = [d for d in range(nd) if d not in (dim1, dim2)]
        for s, d in zip(slots, order):
            perm[s] = d
        perm[dim1], perm[dim2] = nd - 2, nd - 1
        return aten.permute.default(out, perm)

    def diag(x, diagonal_=0):
        if x.dim() == 1:
            return diag_embed(x, diagonal_, 0, 1)
        return diagonal(x, diagonal_, 0, 1)

    def trace(x):
        return aten.sum.default(diagonal(x, 0, 0, 1))

    def roll(x, shifts, dims=()):
        shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
        dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
        if not dims:
            shape = list(x.shape)
            flat = aten.reshape.default(x, [-1])
            return aten.reshape.default(roll(flat, shifts, [0]), shape)
        for s, d in zip(shifts, dims):
            n = x.shape[d]
            if n == 0:
                continue
            s %= n
            if s:
                x = aten.cat.default([aten.slice.Tensor(x, d, n - s, n),
                                      aten.slice.Tensor(x, d, 0, n - s)], d)
        return x

    def rot90(x, k=1, dims=(0, 1)):
        k %= 4
        d0, d1 = dims
        if k == 1:
            return aten.transpose.int(aten.flip.default(x, [d1]), d0, d1)
        if k == 2:
            return aten.flip.default(x, [d0, d1])
        if k == 3:
            return aten.flip.default(aten.transpose.int(x, d0, d1), [d1])
        return aten.clone.default(x)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        prod = aten.mv.default(mat, vec)
        return _affine(self, prod, beta, alpha)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        prod = aten.mul.Tensor(aten.unsqueeze.default(vec1, 1), aten.unsqueeze.default(vec2, 0))
        return _affine(self, prod, beta, alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        prod = aten.sum.dim_IntList(aten.bmm.default(batch1, batch2), [0])
        return _affine(self, prod, beta, alpha)

    def _affine(self, prod, beta, alpha):
        if alpha != 1:
            prod = aten.mul.Tensor(prod, alpha)
        if beta == 0:  # self is ignored, NaN included (BLAS semantics)
            return prod
        scaled = self if beta == 1 else aten.mul.Tensor(self, beta)
        return aten.add.Tensor(scaled, prod)

    def std_mean(x, dim=None, *, correction=None, keepdim=False):
        return (aten.std.correction(x, dim, correction=correction, keepdim=keepdim),
                aten.mean.dim(x, dim if dim is not None else list(range(x.dim())), keepdim))

    def linalg_cross(a, b, dim=-1):
        a, b = (aten.expand.default(t, list(torch.broadcast_shapes(a.shape, b.shape)))
                for t in (a, b))

        def pick(t, order):
            return aten.index_select.default(t, dim, const(order))
        return aten.sub.Tensor(aten.mul.Tensor(pick(a, [1, 2, 0]), pick(b, [2, 0, 1])),
                               aten.mul.Tensor(pick(a, [2, 0, 1]), pick(b, [1, 2, 0])))

    def index_with_none(x, indices):
        """``x[:, i, j]`` (some indices None, tad's index.Tensor takes none):
        the indexed dimensions flattened into one, ``index_select`` on it."""
        if all(i is not None for i in indices) or any(
                i is not None and i.dtype not in (torch.int64, torch.int32) for i in indices):
            return NotImplemented
        indices = list(indices) + [None] * (x.dim() - len(indices))
        dims = [d for d, i in enumerate(indices) if i is not None]
        adjacent = dims == list(range(dims[0], dims[-1] + 1))
        if not adjacent:  # PyTorch puts the indexed dimensions first
            order = dims + [d for d in range(x.dim()) if d not in dims]
            x = aten.permute.default(x, order)
            indices = [indices[d] for d in dims] + [None] * (x.dim() - len(dims))
            dims = list(range(len(dims)))
        k = dims[0]
        sizes = [x.shape[d] for d in dims]
        shape = list(torch.broadcast_shapes(*[indices[d].shape for d in dims]))
        flat = None
        stride = 1
        for d, size in reversed(list(zip(dims, sizes))):
            i = aten.expand.default(indices[d], shape)
            i = aten.where.self(aten.lt.Scalar(i, 0), aten.add.Scalar(i, size), i)
            term = aten.mul.Scalar(i, stride) if stride != 1 else i
            flat = term if flat is None else aten.add.Tensor(flat, term)
            stride *= size
        rest = list(x.shape[dims[-1] + 1:])
        y = aten.reshape.default(x, list(x.shape[:k]) + [stride] + rest)
        y = aten.index_select.default(y, k, aten.reshape.default(flat, [-1]))
        return aten.reshape.default(y, list(x.shape[:k]) + shape + rest)

    def take(x, index):
        flat = aten.reshape.default(index, [-1])
        flat = aten.where.self(aten.lt.Scalar(flat, 0), aten.add.Scalar(flat, x.numel()), flat)
        return aten.reshape.default(
            aten.index_select.default(aten.reshape.default(x, [-1]), 0, flat),
            list(index.shape))

    def scalar_const(value, like):
        with disable_proxy_modes_tracing():
            return torch.tensor(value, dtype=like.dtype)

    def hardshrink(x, lambd=0.5):
        return aten.where.ScalarOther(aten.gt.Scalar(aten.abs.default(x), lambd), x, 0.0)

    def celu(x, alpha=1.0):
        return aten.elu.default(x, alpha, 1.0, 1.0 / alpha)

    def logit(x, eps=None):
        if eps is not None:
            x = aten.clamp.default(x, eps, 1.0 - eps)
        return aten.log.default(aten.div.Tensor(x, aten.rsub.Scalar(x, 1.0)))

    def log2(x):
        return aten.div.Scalar(aten.log.default(x), math.log(2.0))

    def log10(x):
        return aten.div.Scalar(aten.log.default(x), math.log(10.0))

    def hypot(a, b):
        return aten.sqrt.default(aten.add.Tensor(aten.mul.Tensor(a, a), aten.mul.Tensor(b, b)))

    def nansum(x, dim=None, keepdim=False, *, dtype=None):
        clean = aten.where.ScalarSelf(aten.isnan.default(x), 0.0, x)
        if dim is None or (isinstance(dim, (list, tuple)) and not dim):
            return aten.sum.default(clean) if not keepdim else \
                aten.sum.dim_IntList(clean, list(range(x.dim())), True)
        return aten.sum.dim_IntList(clean, dim if isinstance(dim, (list, tuple)) else [dim],
                                    keepdim)

    def nan_to_num(x, nan=None, posinf=None, neginf=None):
        big = torch.finfo(x.dtype).max
        out = aten.where.ScalarSelf(aten.isnan.default(x), 0.0 if nan is None else nan, x)
        out = aten.where.ScalarSelf(aten.eq.Scalar(x, math.inf),
                                    big if posinf is None else posinf, out)
        return aten.where.ScalarSelf(aten.eq.Scalar(x, -math.inf),
                                     -big if neginf is None else neginf, out)

    def clamp_min_tensor(x, lo):
        return aten.clamp.Tensor(x, lo, None)

    def clamp_max_tensor(x, hi):
        return aten.clamp.Tensor(x, None, hi)

    def lerp_scalar(a, b, weight):
        return aten.lerp.Tensor(a, b, scalar_const(weight, a))

    def pow_scalar(base, exponent):
        return aten.pow.Tensor_Tensor(scalar_const(base, exponent), exponent)

    def exp2(x):
        return pow_scalar(2.0, x)

    def logaddexp2(a, b):
        ln2 = math.log(2.0)
        return aten.div.Scalar(logaddexp(aten.mul.Scalar(a, ln2), aten.mul.Scalar(b, ln2)), ln2)

    def sinc(x):
        px = aten.mul.Scalar(x, math.pi)
        return aten.where.ScalarSelf(aten.eq.Scalar(x, 0.0), 1.0,
                                     aten.div.Tensor(aten.sin.default(px), px))

    def dist(a, b, p=2):
        return aten.linalg_vector_norm.default(aten.sub.Tensor(a, b), p)

    def prelu(x, weight):
        if weight.numel() != 1 and x.dim() >= 2:
            weight = aten.reshape.default(weight, [weight.numel()] + [1] * (x.dim() - 2))
        return aten.where.self(aten.gt.Scalar(x, 0.0), x, aten.mul.Tensor(weight, x))

    def fill_scalar(x, value):
        return aten.full_like.default(x, value)

    def round_even(x):
        f = aten.floor.default(x)
        d = aten.sub.Tensor(x, f)
        odd = aten.sub.Tensor(f, aten.mul.Scalar(aten.floor.default(aten.mul.Scalar(f, 0.5)), 2.0))
        up = aten.add.Scalar(f, 1.0)
        r = aten.where.self(aten.gt.Scalar(d, 0.5), up,
                            aten.where.self(aten.lt.Scalar(d, 0.5), f, aten.add.Tensor(f, odd)))
        return aten.where.self(aten.eq.Scalar(aten.abs.default(x), math.inf), x, r)

    def round_decimals(x, *, decimals=0):
        if decimals == 0:
            return round_even(x)
        scale = 10.0 ** abs(decimals)
        if decimals > 0:
            return aten.div.Scalar(round_even(aten.mul.Scalar(x, scale)), scale)
        return aten.mul.Scalar(round_even(aten.div.Scalar(x, scale)), scale)

    def pixel_shuffle(x, upscale_factor):
        r = upscale_factor
        *batch, c, h, w = x.shape
        nb = len(batch)
        y = aten.reshape.default(x, batch + [c // (r * r), r, r, h, w])
        y = aten.permute.default(y, list(range(nb)) + [nb, nb + 3, nb + 1, nb + 4, nb + 2])
        return aten.reshape.default(y, batch + [c // (r * r), h * r, w * r])

    def pixel_unshuffle(x, downscale_factor):
        r = downscale_factor
        *batch, c, h, w = x.shape
        nb = len(batch)
        y = aten.reshape.default(x, batch + [c, h // r, r, w // r, r])
        y = aten.permute.default(y, list(range(nb)) + [nb, nb + 2, nb + 4, nb + 1, nb + 3])
        return aten.reshape.default(y, batch + [c * r * r, h // r, w // r])

    def gather_positions(x, dim, positions):
        return aten.index_select.default(x, dim, const(positions))

    def pad_with(mode):
        def pad(x, padding):
            for k in range(len(padding) // 2):
                dim = x.dim() - 1 - k
                left, right = padding[2 * k], padding[2 * k + 1]
                n = x.shape[dim]
                positions = []
                for p in range(-left, n + right):
                    if mode == "reflect":
                        q = -p if p < 0 else (2 * (n - 1) - p if p >= n else p)
                    else:
                        q = min(max(p, 0), n - 1)
                    positions.append(q)
                x = gather_positions(x, dim, positions)
            return x
        return pad

    def upsample_nearest(x, output_size, scale_factors):
        spatial = x.dim() - 2
        for k in range(spatial):
            dim = 2 + k
            n = x.shape[dim]
            if output_size is not None:
                out = output_size[k]
                scale = n / out
            else:
                out = int(math.floor(n * scale_factors[k]))
                scale = 1.0 / scale_factors[k]
            x = gather_positions(x, dim, [min(int(math.floor(i * scale)), n - 1)
                                          for i in range(out)])
        return x

    def unfold(x, dimension, size, step):
        if x.dim() == 0:  # one window of size 0 or 1
            return aten.slice.Tensor(aten.reshape.default(x, [1]), 0, 0, size)
        dim = dimension % x.dim()
        n = (x.shape[dim] - size) // step + 1
        y = gather_positions(x, dim, [i * step + j for i in range(n) for j in range(size)])
        shape = list(x.shape)
        y = aten.reshape.default(y, shape[:dim] + [n, size] + shape[dim + 1:])
        order = [d for d in range(y.dim()) if d != dim + 1] + [dim + 1]
        return aten.permute.default(y, order)

    def block_diag(tensors):
        mats = [t if t.dim() == 2 else aten.reshape.default(t, [1, -1] if t.dim() == 1 else [1, 1])
                for t in tensors]
        cols = sum(m.shape[1] for m in mats)
        rows, before = [], 0
        for m in mats:
            parts = []
            if before:
                parts.append(aten.new_zeros.default(m, [m.shape[0], before]))
            parts.append(m)
            after = cols - before - m.shape[1]
            if after:
                parts.append(aten.new_zeros.default(m, [m.shape[0], after]))
            rows.append(aten.cat.default(parts, 1) if len(parts) > 1 else m)
            before += m.shape[1]
        return aten.cat.default(rows, 0)

    def select_scatter(x, src, dim, index):
        dim %= x.dim()
        index %= x.shape[dim]
        shape = [1] * x.dim()
        shape[dim] = x.shape[dim]
        with disable_proxy_modes_tracing():
            mask = (torch.arange(x.shape[dim]) == index).reshape(shape)
        full = aten.expand.default(aten.unsqueeze.default(src, dim), list(x.shape))
        return aten.where.self(mask, full, x)

    def slice_scatter(x, src, dim=0, start=None, end=None, step=1):
        dim %= x.dim()
        n = x.shape[dim]
        chosen = list(range(n))[slice(start, end, step)]
        where_in_src = [0] * n
        for k, p in enumerate(chosen):
            where_in_src[p] = k
        shape = [1] * x.dim()
        shape[dim] = n
        with disable_proxy_modes_tracing():
            mask = torch.zeros(n, dtype=torch.bool)
            mask[chosen] = True
            mask = mask.reshape(shape)
        if not chosen:
            return aten.clone.default(x)
        full = gather_positions(src, dim, where_in_src)
        return aten.where.self(mask, full, x)

    def trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
        # sum over `sumdim` of the product of the three inputs, each with
        # size-1 dimensions inserted at its `expand` positions (nn.Bilinear)
        def expanded(t, dims):
            for d in sorted(dims):
                t = aten.unsqueeze.default(t, d)
            return t
        prod = aten.mul.Tensor(aten.mul.Tensor(expanded(i1, expand1), expanded(i2, expand2)),
                               expanded(i3, expand3))
        if not sumdim:
            return prod
        return aten.sum.dim_IntList(prod, list(sumdim), False)

    def convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding,
                    groups):
        """A transposed convolution as a direct one: the input dilated by
        the stride (zeros between its elements), padded by
        ``dilation * (k - 1) - padding`` (plus ``output_padding`` at the
        end), the weight's in/out channels swapped per group and its
        spatial dimensions flipped."""
        if not transposed:
            return NotImplemented
        spatial = x.dim() - 2
        for k in range(spatial):
            dim = 2 + k
            n, s = x.shape[dim], stride[k]
            ksize = weight.shape[2 + k]
            lo = dilation[k] * (ksize - 1) - padding[k]
            hi = lo + output_padding[k]
            # positions of the dilated, padded input in [x, 0]; n is the 0
            length = (n - 1) * s + 1 + lo + hi
            positions = []
            for p in range(length):
                q = p - lo
                positions.append(q // s if 0 <= q <= (n - 1) * s and q % s == 0 else n)
            zero = aten.new_zeros.default(x, list(x.shape[:dim]) + [1] + list(x.shape[dim + 1:]))
            x = gather_positions(aten.cat.default([x, zero], dim), dim, positions)
        cin, cout_g = weight.shape[0], weight.shape[1]
        w = aten.reshape.default(weight, [groups, cin // groups, cout_g] + list(weight.shape[2:]))
        w = aten.transpose.int(w, 1, 2)
        w = aten.reshape.default(w, [groups * cout_g, cin // groups] + list(weight.shape[2:]))
        w = aten.flip.default(w, list(range(2, 2 + spatial)))
        return aten.convolution.default(x, w, bias, [1] * spatial, [0] * spatial,
                                        list(dilation), False, [0] * spatial, groups)

    def asinh(x):
        # log1p(t + t^2 / (1 + sqrt(1 + t^2))) for t >= 0, odd: accurate at
        # 0 and for large |t|, derivative 1 at 0 (no |x| kink)
        def positive(t):
            t2 = aten.mul.Tensor(t, t)
            return aten.log1p.default(aten.add.Tensor(t, aten.div.Tensor(
                t2, aten.add.Scalar(aten.sqrt.default(aten.add.Scalar(t2, 1.0)), 1.0))))
        return aten.where.self(aten.ge.Scalar(x, 0.0), positive(x),
                               aten.neg.default(positive(aten.neg.default(x))))

    def acosh(x):
        # log1p((x - 1) + sqrt(x - 1) sqrt(x + 1)); NaN below 1 as sqrt's.
        # Two square roots, not sqrt((x - 1)(x + 1)): at x = 1 the product's
        # derivative would multiply sqrt's infinite one by x - 1 = 0 (NaN);
        # this way the gradient is inf there, as PyTorch's 1 / sqrt(x^2 - 1)
        xm1 = aten.sub.Scalar(x, 1.0)
        return aten.log1p.default(aten.add.Tensor(xm1, aten.mul.Tensor(
            aten.sqrt.default(xm1), aten.sqrt.default(aten.add.Scalar(x, 1.0)))))

    def atanh(x):
        # (log1p(x) - log1p(-x)) / 2: the two terms have opposite signs (no
        # cancellation), and x reaches each by one path, so the derivative
        # (1/(1+x) + 1/(1-x)) / 2 is inf at +-1, as PyTorch's 1/(1-x^2)
        # (log1p(2x / (1 - x)) / 2 differentiates to inf - inf = NaN there)
        return aten.mul.Scalar(aten.sub.Tensor(
            aten.log1p.default(x), aten.log1p.default(aten.neg.default(x))), 0.5)

    def angle(x):
        # real input: pi for negative values, 0 otherwise, NaN kept
        out = aten.where.ScalarSelf(aten.lt.Scalar(x, 0.0), math.pi, aten.mul.Scalar(x, 0.0))
        return aten.where.self(aten.isnan.default(x), x, out)

    def copysign(a, b):
        # the sign bit of b, -0.0 included (1 / -0.0 is -inf)
        negative = aten.logical_or.default(
            aten.lt.Scalar(b, 0.0), aten.lt.Scalar(aten.reciprocal.default(b), 0.0))
        magnitude = aten.abs.default(a)
        return aten.where.self(negative, aten.neg.default(magnitude), magnitude)

    def cdist(x1, x2, p, compute_mode=None):
        diff = aten.sub.Tensor(aten.unsqueeze.default(x1, -2), aten.unsqueeze.default(x2, -3))
        return aten.linalg_vector_norm.default(diff, p, [-1])

    def pdist(x, p=2.0):
        n = x.shape[0]
        rows = [i for i in range(n) for j in range(i + 1, n)]
        cols = [j for i in range(n) for j in range(i + 1, n)]
        if not rows:  # fewer than two rows: no pairs
            return aten.linalg_vector_norm.default(aten.slice.Tensor(x, 0, 0, 0), p, [-1])
        diff = aten.sub.Tensor(gather_positions(x, 0, rows), gather_positions(x, 0, cols))
        return aten.linalg_vector_norm.default(diff, p, [-1])

    def integer_sum(x, dim=None, keepdim=False, *, dtype=None):
        # a count (sum of a bool or integer tensor, int64 in PyTorch): summed
        # in float64, exact below 2^53, and converted back
        if x.is_floating_point() or x.is_complex():
            return NotImplemented
        out_dtype = dtype or (x.dtype if x.dtype in (torch.int64,) else torch.int64)
        as_float = aten._to_copy.default(x, dtype=torch.float64)
        total = (aten.sum.default(as_float) if dim is None
                 else aten.sum.dim_IntList(as_float, dim, keepdim))
        return aten._to_copy.default(total, dtype=out_dtype)

    def index_fill(x, dim, index, value):
        # x with the positions `index` (negative ones wrapped) along `dim`
        # set to value: where(mask, value, x), the mask computed from the
        # index in the graph (any(index == position) over the indices)
        n = x.shape[dim] if x.dim() else 1
        dim = dim % x.dim() if x.dim() else 0
        idx = aten.reshape.default(index, [-1, 1])
        idx = aten.where.self(aten.lt.Scalar(idx, 0), aten.add.Scalar(idx, n), idx)
        hits = aten._to_copy.default(aten.eq.Tensor(idx, const(list(range(n)))),
                                     dtype=torch.float64)
        mask = aten.gt.Scalar(aten.sum.dim_IntList(hits, [0], False), 0.5)
        shape = [1] * x.dim()
        if x.dim():
            shape[dim] = n
        mask = aten.reshape.default(mask, shape)
        if isinstance(value, torch.Tensor):
            return aten.where.self(mask, aten._to_copy.default(value, dtype=x.dtype), x)
        return aten.where.ScalarSelf(mask, value, x)

    def logcumsumexp(x, dim):
        # out[i] = logsumexp(x[j] for j <= i): x repeated along a new axis
        # j next to `dim`, the entries j > i masked to -inf, logsumexp over
        # j (each prefix stabilized by its own maximum)
        if x.dim() == 0:
            return aten.clone.default(x)
        dim %= x.dim()
        n = x.shape[dim]
        shape = list(x.shape)
        rows = aten.expand.default(aten.unsqueeze.default(x, dim),
                                   shape[:dim] + [n] + shape[dim:])
        mask_shape = [1] * (x.dim() + 1)
        mask_shape[dim], mask_shape[dim + 1] = n, n
        with disable_proxy_modes_tracing():
            # rows[..., i, j, ...] = x[..., j, ...]; keep j <= i
            mask = torch.ones(n, n, dtype=torch.bool).tril().reshape(mask_shape)
        masked = aten.where.ScalarOther(mask, rows, -math.inf)
        return aten.logsumexp.default(masked, [dim + 1], False)

    def mvlgamma(x, p):
        # log of the multivariate gamma function: p (p - 1) / 4 log(pi) +
        # sum over i < p of lgamma(x - i / 2). (ATen also checks x > (p - 1) / 2,
        # a check on values that a trace cannot make.)
        out = aten.lgamma.default(x)
        for i in range(1, p):
            out = aten.add.Tensor(out, aten.lgamma.default(aten.sub.Scalar(x, i / 2)))
        return aten.add.Scalar(out, p * (p - 1) / 4 * math.log(math.pi))

    from ._decompositions_nn import table as nn_table
    from ._decompositions_order import table as order_table
    from ._decompositions_pool import table as pool_table
    from ._decompositions_scatter import table as scatter_table
    from ._decompositions_special import table as special_table
    views = {**scatter_table(), **order_table(), **pool_table(), **nn_table(),
             **special_table()}
    views[aten.convolution.default] = convolution
    views[aten.index.Tensor] = index_with_none

    for name, fn in (("diagonal_copy", diagonal),):
        if hasattr(aten, name):
            views[getattr(aten, name).default] = fn
    from ._linalg_decompositions import table as linalg_table
    return {
        **views,
        **linalg_table(),
        aten.zero.default: zeros_at,
        aten.trunc.default: trunc, aten.fix.default: trunc,
        aten.tan.default: tan, aten.sinh.default: sinh, aten.cosh.default: cosh,
        aten.ceil.default: ceil, aten.frac.default: frac,
        aten.rad2deg.default: rad2deg, aten.deg2rad.default: deg2rad,
        aten.logaddexp.default: logaddexp,
        aten.remainder.Tensor: remainder, aten.fmod.Tensor: fmod,
        aten.div.Tensor_mode: div_mode,
        aten.fmax.default: fmax, aten.fmin.default: fmin,
        aten.sgn.default: sgn, aten.vdot.default: vdot,
        aten.softshrink.default: softshrink,
        aten.special_entr.default: special_entr,
        aten.special_xlog1py.default: special_xlog1py,
        aten.triu.default: triu,
        aten.diagonal.default: diagonal, aten.diag_embed.default: diag_embed,
        aten.diag.default: diag, aten.trace.default: trace,
        aten.roll.default: roll, aten.rot90.default: rot90,
        aten.addmv.default: addmv, aten.addr.default: addr, aten.addbmm.default: addbmm,
        aten.std_mean.correction: std_mean,
        aten.linalg_cross.default: linalg_cross,
        aten.take.default: take,
        aten._trilinear.default: trilinear,
        aten.mvlgamma.default: mvlgamma, aten.logcumsumexp.default: logcumsumexp,
        aten.index_fill.int_Scalar: index_fill, aten.index_fill.int_Tensor: index_fill,
        aten.sum.dim_IntList: integer_sum,
        aten.sum.default: lambda x, *, dtype=None: integer_sum(x, dtype=dtype),
        aten.asinh.default: asinh, aten.acosh.default: acosh, aten.atanh.default: atanh,
        aten.angle.default: angle, aten.copysign.Tensor: copysign,
        aten._cdist_forward.default: cdist, aten._pdist_forward.default: pdist,
        aten.hardshrink.default: hardshrink, aten.celu.default: celu,
        aten.logit.default: logit, aten.log2.default: log2, aten.log10.default: log10,
        aten.hypot.default: hypot, aten.nansum.default: nansum,
        aten.nan_to_num.default: nan_to_num,
        aten.clamp_min.Tensor: clamp_min_tensor, aten.clamp_max.Tensor: clamp_max_tensor,
        aten.lerp.Scalar: lerp_scalar, aten.pow.Scalar: pow_scalar, aten.exp2.default: exp2,
        aten.logaddexp2.default: logaddexp2, aten.sinc.default: sinc,
        aten.dist.default: dist, aten.prelu.default: prelu,
        aten.fill.Scalar: fill_scalar,
        aten.round.default: round_even, aten.round.decimals: round_decimals,
        aten.pixel_shuffle.default: pixel_shuffle,
        aten.pixel_unshuffle.default: pixel_unshuffle,
        aten.reflection_pad1d.default: pad_with("reflect"),
        aten.reflection_pad2d.default: pad_with("reflect"),
        aten.reflection_pad3d.default: pad_with("reflect"),
        aten.replication_pad1d.default: pad_with("replicate"),
        aten.replication_pad2d.default: pad_with("replicate"),
        aten.replication_pad3d.default: pad_with("replicate"),
        aten.upsample_nearest1d.vec: upsample_nearest,
        aten.upsample_nearest2d.vec: upsample_nearest,
        aten.upsample_nearest3d.vec: upsample_nearest,
        aten.unfold.default: unfold,
        aten.block_diag.default: block_diag,
        aten.select_scatter.default: select_scatter,
        aten.slice_scatter.default: slice_scatter,
    }
