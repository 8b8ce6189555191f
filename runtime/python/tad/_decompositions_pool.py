"""Importer decompositions of the pooling and resampling ATen ops that tad
has no op for: ``avg_pool3d``, ``_adaptive_avg_pool3d``,
``upsample_linear1d`` and ``upsample_trilinear3d`` (separable: one
constant weight matrix per spatial dimension, applied by ``matmul``), and
``max_pool3d_with_indices``, ``adaptive_max_pool2d/3d`` (every window's
positions gathered into a trailing axis, ``max.dim`` over it: the
gradient goes to the selected position, as in PyTorch). Window and
weight computations follow ATen's kernels (output sizes, ceil mode,
``count_include_pad``, ``align_corners``, scales); see ``_decompositions``
for the contract.

``table()`` returns ``{aten overload: function}``.
"""

import itertools
import math


def table():
    import torch
    aten = torch.ops.aten
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing

    def constant(values, dtype):
        with disable_proxy_modes_tracing():
            return torch.tensor(values, dtype=dtype)

    def along_dims(x, mats):
        """``x`` with its last ``len(mats)`` dimensions each multiplied by
        a constant [in, out] matrix."""
        nd, spatial = x.dim(), len(mats)
        for k, m in enumerate(mats):
            dim = nd - spatial + k
            order = [d for d in range(nd) if d != dim] + [dim]
            back = [0] * nd
            for j, d in enumerate(order):
                back[d] = j
            y = aten.matmul.default(aten.permute.default(x, order), constant(m, x.dtype))
            x = aten.permute.default(y, back)
        return x

    def pooled_size(n, k, s, p, d, ceil_mode):
        span = n + 2 * p - d * (k - 1) - 1
        out = (span + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (out - 1) * s >= n + p:
            out -= 1
        return out

    def avg_pool3d(x, kernel_size, stride=(), padding=0, ceil_mode=False,
                   count_include_pad=True, divisor_override=None):
        k = list(kernel_size) * (3 // len(kernel_size))
        s = list(stride) * (3 // len(stride)) if stride else k
        p = list(padding) * (3 // len(padding)) if isinstance(padding, (list, tuple)) \
            else [padding] * 3
        sizes = list(x.shape[-3:])
        mats, padded, inside = [], [], []
        for n, kk, ss, pp in zip(sizes, k, s, p):
            out = pooled_size(n, kk, ss, pp, 1, ceil_mode)
            m = [[0.0] * out for _ in range(n)]
            pad_count, in_count = [], []
            for o in range(out):
                start = o * ss - pp
                end = min(start + kk, n + pp)
                pad_count.append(end - start)
                start, end = max(start, 0), min(end, n)
                in_count.append(end - start)
                for i in range(start, end):
                    m[i][o] = 1.0
            mats.append(m)
            padded.append(pad_count)
            inside.append(in_count)
        sums = along_dims(x, mats)
        if divisor_override:
            return aten.div.Scalar(sums, float(divisor_override))
        counts = padded if count_include_pad else inside
        with disable_proxy_modes_tracing():
            div = torch.ones(1, dtype=torch.float64)
            for c in counts:
                div = div.unsqueeze(-1) * torch.tensor(c, dtype=torch.float64)
            div = div.reshape([len(c) for c in counts]).to(x.dtype)
        return aten.div.Tensor(sums, div)

    def adaptive_windows(n, out):
        return [(o * n // out, -(-(o + 1) * n // out)) for o in range(out)]

    def sizes_of(x, output_size):
        # None: the input's size
        n = len(output_size)
        return [o if o is not None else x.shape[-n + k] for k, o in enumerate(output_size)]

    def adaptive_avg_pool(x, output_size):
        output_size = sizes_of(x, output_size)
        mats = []
        for n, out in zip(x.shape[-len(output_size):], output_size):
            m = [[0.0] * out for _ in range(n)]
            for o, (start, end) in enumerate(adaptive_windows(n, out)):
                for i in range(start, end):
                    m[i][o] = 1.0 / (end - start)
            mats.append(m)
        return along_dims(x, mats)

    def source_index(scale, o, align_corners):
        if align_corners:
            return scale * o
        return max(scale * (o + 0.5) - 0.5, 0.0)

    def upsample_linear(x, output_size, align_corners, scale_factors):
        spatial = x.dim() - 2
        mats = []
        for k in range(spatial):
            n = x.shape[2 + k]
            if output_size is not None:
                out, given = output_size[k], None
            else:
                out, given = int(math.floor(n * scale_factors[k])), scale_factors[k]
            if align_corners:
                scale = (n - 1) / (out - 1) if out > 1 else 0.0
            else:
                scale = 1.0 / given if given is not None and given > 0 else n / out
            m = [[0.0] * out for _ in range(n)]
            for o in range(out):
                src = source_index(scale, o, align_corners)
                i0 = int(src)
                step = 1 if i0 < n - 1 else 0
                w1 = src - i0
                m[i0][o] += 1.0 - w1
                m[i0 + step][o] += w1
            mats.append(m)
        return along_dims(x, mats)

    def windowed_max(x, windows):
        """(values, int64 flat indices) of the max of ``x`` over each
        window: ``windows`` per spatial dimension, a list (one per output
        position) of the input positions in it, in scan order."""
        spatial = len(windows)
        sizes = list(x.shape[-spatial:])
        lead = list(x.shape[:-spatial])
        plane = math.prod(sizes)
        strides = [math.prod(sizes[k + 1:]) for k in range(spatial)]
        outs = [len(w) for w in windows]
        rows = []
        for combo in itertools.product(*windows):
            rows.append([sum(i * st for i, st in zip(pos, strides))
                         for pos in itertools.product(*combo)])
        width = max(len(r) for r in rows)
        # positions past a window's end: the -inf sentinel after the plane
        table_ = [r + [plane] * (width - len(r)) for r in rows]
        flat = aten.reshape.default(x, lead + [plane])
        sentinel = aten.full_like.default(aten.slice.Tensor(flat, -1, 0, 1), -math.inf)
        flat = aten.cat.default([flat, sentinel], -1)
        picked = aten.index_select.default(flat, len(lead),
                                           constant(sum(table_, []), torch.int64))
        picked = aten.reshape.default(picked, lead + outs + [width])
        values, k = aten.max.dim(picked, -1, True)
        where = aten.expand.default(
            aten.reshape.default(constant(table_, torch.float64), [1] * len(lead) + outs + [width]),
            lead + outs + [width])
        index = aten._to_copy.default(aten.gather.default(where, -1, k), dtype=torch.int64)
        return aten.squeeze.dim(values, -1), aten.squeeze.dim(index, -1)

    def max_pool3d_with_indices(x, kernel_size, stride=(), padding=0, dilation=1,
                                ceil_mode=False):
        def three(v, default):
            if isinstance(v, (list, tuple)):
                return list(v) * (3 // len(v)) if v else default
            return [v] * 3
        k = three(kernel_size, None)
        s, p, d = three(stride, k), three(padding, [0] * 3), three(dilation, [1] * 3)
        windows = []
        for n, kk, ss, pp, dd in zip(x.shape[-3:], k, s, p, d):
            out = pooled_size(n, kk, ss, pp, dd, ceil_mode)
            windows.append([[o * ss - pp + j * dd for j in range(kk)
                             if 0 <= o * ss - pp + j * dd < n] for o in range(out)])
        return windowed_max(x, windows)

    def adaptive_max_pool(x, output_size):
        output_size = sizes_of(x, output_size)
        windows = [[list(range(a, b)) for a, b in adaptive_windows(n, out)]
                   for n, out in zip(x.shape[-len(output_size):], output_size)]
        return windowed_max(x, windows)

    def floating(fn):
        def wrapped(x, *args, **kwargs):
            if not x.is_floating_point() or 0 in x.shape[2:]:
                return NotImplemented
            return fn(x, *args, **kwargs)
        return wrapped

    return {
        aten.avg_pool3d.default: floating(avg_pool3d),
        aten._adaptive_avg_pool3d.default: floating(adaptive_avg_pool),
        aten.upsample_linear1d.vec: floating(upsample_linear),
        aten.upsample_trilinear3d.vec: floating(upsample_linear),
        aten.max_pool3d_with_indices.default: floating(max_pool3d_with_indices),
        aten.adaptive_max_pool2d.default: floating(adaptive_max_pool),
        aten.adaptive_max_pool3d.default: floating(adaptive_max_pool),
    }
