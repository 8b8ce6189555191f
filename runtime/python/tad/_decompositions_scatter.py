"""Importer decompositions of the scattering and multiplying ATen ops that
tad has no op for: ``scatter_reduce``, ``index_reduce``, ``index_copy``,
``put``, ``diagonal_scatter``, ``masked_scatter``, ``segment_reduce``,
``as_strided(_scatter)``, ``max_unpool2d/3d``, ``prod`` and
``cumprod`` (see ``_decompositions`` for the contract: exact, PyTorch's
values at the edges and its derivative, subgradients included).

Products are trees of ``mul`` (``prod``: pairwise halves, ``cumprod``: a
Hillis-Steele scan, log2(n) steps): no division, so a zero factor has
the exact derivative (the product of the others), as in PyTorch.
``amax``/``amin``/``prod`` scatters compare every source element with
every output position along the scattered dimension (a dense mask of
size numel(src) * n); ``sum``/``mean`` use ``scatter_add``.

``table()`` returns ``{aten overload: function}``.
"""

import math


def table():
    import torch
    aten = torch.ops.aten
    from ._decomposition_helpers import as_float, last
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing

    def positions(n, dtype=torch.float64):
        with disable_proxy_modes_tracing():
            return torch.arange(n, dtype=dtype)

    def tree_prod(x, dim, keepdim=False):
        """The product along ``dim`` as a tree of pairwise products."""
        n = x.shape[dim]
        if n == 0:
            shape = list(x.shape)
            shape[dim] = 1
            ones = aten.new_ones.default(x, shape)
            return ones if keepdim else aten.squeeze.dim(ones, dim)
        while n > 1:
            h = n // 2
            p = aten.mul.Tensor(aten.slice.Tensor(x, dim, 0, h),
                                aten.slice.Tensor(x, dim, h, 2 * h))
            if n % 2:
                p = aten.cat.default([p, aten.slice.Tensor(x, dim, 2 * h, n)], dim)
            x, n = p, h + n % 2
        return x if keepdim else aten.squeeze.dim(x, dim)

    def prod(x, *, dtype=None):
        if not x.is_floating_point():
            return NotImplemented
        if x.dim() == 0:
            return aten.clone.default(x)
        return tree_prod(aten.reshape.default(x, [-1]), 0)

    def prod_dim(x, dim, keepdim=False, *, dtype=None):
        if not x.is_floating_point():
            return NotImplemented
        if x.dim() == 0:
            return aten.clone.default(x)
        return tree_prod(x, dim % x.dim(), keepdim)

    def cumprod(x, dim, *, dtype=None):
        if not x.is_floating_point():
            return NotImplemented
        if x.dim() == 0:
            return aten.clone.default(x)
        dim %= x.dim()
        n = x.shape[dim]
        s = 1
        while s < n:
            x = aten.cat.default([aten.slice.Tensor(x, dim, 0, s),
                                  aten.mul.Tensor(aten.slice.Tensor(x, dim, s, n),
                                                  aten.slice.Tensor(x, dim, 0, n - s))], dim)
            s *= 2
        return aten.clone.default(x) if n <= 1 else x

    def dense_reduce(x, dim, index, src, reduce, include_self):
        """scatter_reduce for amax, amin and prod: every source element
        against every output position along ``dim``."""
        nd = x.dim()
        n = x.shape[dim]
        for d in range(nd):
            src = aten.slice.Tensor(src, d, 0, index.shape[d])
        idx = as_float(index)
        # index extents below self's (outside `dim`): -1 matches no position
        pad = []
        for d in reversed(range(nd)):
            pad += [0, 0 if d == dim else x.shape[d] - index.shape[d]]
        if any(pad):
            idx = aten.constant_pad_nd.default(idx, pad, -1.0)
            src = aten.constant_pad_nd.default(src, pad, 0.0)
        xs, back = last(x, dim)
        ss, _ = last(src, dim)
        ids, _ = last(idx, dim)
        mask = aten.eq.Tensor(aten.unsqueeze.default(ids, -1), positions(n))   # [..., m, n]
        fill = {"amax": -math.inf, "amin": math.inf, "prod": 1.0}[reduce]
        cand = aten.where.ScalarOther(mask, aten.unsqueeze.default(ss, -1), fill)
        if include_self:
            cand = aten.cat.default([cand, aten.unsqueeze.default(xs, -2)], -2)
        if reduce == "amax":
            r = aten.amax.default(cand, [-2])
        elif reduce == "amin":
            r = aten.amin.default(cand, [-2])
        else:
            r = tree_prod(cand, cand.dim() - 2)
        if not include_self:
            hit = aten.gt.Scalar(aten.sum.dim_IntList(as_float(mask), [-2], False), 0.5)
            r = aten.where.self(hit, r, xs)
        return aten.permute.default(r, back)

    def scatter_reduce(x, dim, index, src, reduce, *, include_self=True):
        if not x.is_floating_point():
            return NotImplemented
        if x.dim() == 0:
            out = scatter_reduce(aten.reshape.default(x, [1]), 0, aten.reshape.default(index, [1]),
                                 aten.reshape.default(src, [1]), reduce,
                                 include_self=include_self)
            return aten.reshape.default(out, [])
        dim %= x.dim()
        if index.numel() == 0:
            return aten.clone.default(x)
        if reduce in ("amax", "amin", "prod"):
            return dense_reduce(x, dim, index, src, reduce, include_self)
        zeros = aten.zeros_like.default(x)
        total = aten.scatter_add.default(zeros, dim, index, src)
        ones = aten.new_ones.default(src, list(src.shape))
        count = aten.scatter_add.default(aten.zeros_like.default(x), dim, index, ones)
        if include_self:
            total = aten.add.Tensor(total, x)
            count = aten.add.Scalar(count, 1.0)
        if reduce == "mean":
            total = aten.div.Tensor(total, aten.clamp_min.default(count, 1.0))
        elif reduce != "sum":
            return NotImplemented
        if include_self:
            return total
        return aten.where.self(aten.gt.Scalar(count, 0.5), total, x)

    def along(index, dim, like):
        """A 1-D ``index`` along ``dim``, broadcast to ``like``'s shape."""
        shape = [1] * like.dim()
        shape[dim] = index.numel()
        return aten.expand.default(aten.reshape.default(index, shape), list(like.shape))

    def scalar_case(fn, x, dim, index, source, *args, **kwargs):
        """``fn`` on a 0-d ``x`` (and ``source``) as on 1-element vectors."""
        out = fn(aten.reshape.default(x, [1]), 0, aten.reshape.default(index, [-1]),
                 aten.reshape.default(source, [-1]), *args, **kwargs)
        return aten.reshape.default(out, [])

    def index_reduce(x, dim, index, source, reduce, *, include_self=True):
        if not x.is_floating_point():
            return NotImplemented
        if x.dim() == 0:
            return scalar_case(index_reduce, x, dim, index, source, reduce,
                               include_self=include_self)
        dim %= x.dim()
        return scatter_reduce(x, dim, along(index, dim, source), source, reduce,
                              include_self=include_self)

    def index_copy(x, dim, index, source):
        if x.dim() == 0:
            return scalar_case(index_copy, x, dim, index, source)
        if source.dim() == 0:
            source = aten.reshape.default(source, [1] * x.dim())
        dim %= x.dim()
        return aten.scatter.src(x, dim, along(index, dim, source), source)

    def put(x, index, source, accumulate=False):
        flat = aten.reshape.default(x, [-1])
        idx = aten.reshape.default(index, [-1])
        idx = aten.where.self(aten.lt.Scalar(idx, 0), aten.add.Scalar(idx, x.numel()), idx)
        src = aten.reshape.default(source, [-1])
        if idx.numel() == 0:
            return aten.clone.default(x)
        if accumulate:
            out = aten.scatter_add.default(flat, 0, idx, src)
        else:
            out = aten.scatter.src(flat, 0, idx, src)
        return aten.reshape.default(out, list(x.shape))

    def diagonal_scatter(x, src, offset=0, dim1=0, dim2=1):
        nd = x.dim()
        dim1, dim2 = dim1 % nd, dim2 % nd
        rest = [d for d in range(nd) if d not in (dim1, dim2)]
        order = rest + [dim1, dim2]
        back = [0] * nd
        for k, d in enumerate(order):
            back[d] = k
        rows, cols = x.shape[dim1], x.shape[dim2]
        r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
        k = max(0, min(rows - r0, cols - c0))
        if k == 0:
            return aten.clone.default(x)
        y = aten.reshape.default(aten.permute.default(x, order),
                                 [x.shape[d] for d in rest] + [rows * cols])
        where_in_src = [k] * (rows * cols)
        with disable_proxy_modes_tracing():
            mask = torch.zeros(rows * cols, dtype=torch.bool)
            for j in range(k):
                p = (r0 + j) * cols + (c0 + j)
                mask[p] = True
                where_in_src[p] = j
            pick = torch.tensor(where_in_src, dtype=torch.int64)
        zero = aten.zeros_like.default(aten.slice.Tensor(src, -1, 0, 1))
        full = aten.index_select.default(aten.cat.default([src, zero], -1), len(rest), pick)
        out = aten.where.self(mask, full, y)
        out = aten.reshape.default(out, [x.shape[d] for d in rest] + [rows, cols])
        return aten.permute.default(out, back)

    def max_unpool(x, indices, output_size, *_):
        spatial = len(output_size)
        batched = x.dim() == spatial + 2
        if not batched:
            x = aten.unsqueeze.default(x, 0)
            indices = aten.unsqueeze.default(indices, 0)
        nb, c = x.shape[0], x.shape[1]
        plane = 1
        for s in output_size:
            plane *= s
        flat = aten.new_zeros.default(x, [nb, c, plane])
        out = aten.scatter.src(flat, 2, aten.reshape.default(indices, [nb, c, -1]),
                               aten.reshape.default(x, [nb, c, -1]))
        out = aten.reshape.default(out, [nb, c] + list(output_size))
        return out if batched else aten.squeeze.dim(out, 0)

    def strided_positions(x, size, stride, storage_offset):
        """The flat positions in ``x``'s storage of the view
        ``as_strided(size, stride, storage_offset)``, or None where the
        storage is not ``x``'s elements in order."""
        if not x.is_contiguous() or x.storage_offset() != 0:
            return None
        with disable_proxy_modes_tracing():
            pos = torch.full(list(size), storage_offset or 0, dtype=torch.int64)
            for d, (n, st) in enumerate(zip(size, stride)):
                shape = [1] * len(size)
                shape[d] = n
                pos = pos + torch.arange(n, dtype=torch.int64).reshape(shape) * st
            if pos.numel() and int(pos.max()) >= x.numel():
                return None
            pos.overlaps = pos.unique().numel() != pos.numel()
        return pos

    def as_strided(x, size, stride, storage_offset=None):
        pos = strided_positions(x, size, stride, storage_offset)
        if pos is None:
            return NotImplemented
        flat = aten.index_select.default(aten.reshape.default(x, [-1]), 0,
                                         pos.reshape(-1))
        return aten.reshape.default(flat, list(size))

    def as_strided_scatter(x, src, size, stride, storage_offset=None):
        pos = strided_positions(x, size, stride, storage_offset)
        # overlapping positions: PyTorch's result is the last write
        if pos is None or pos.overlaps:
            return NotImplemented
        if pos.numel() == 0:
            return aten.clone.default(x)
        out = aten.scatter.src(aten.reshape.default(x, [-1]), 0, pos.reshape(-1),
                               aten.reshape.default(src, [-1]))
        return aten.reshape.default(out, list(x.shape))

    def masked_scatter(x, mask, source):
        # the k-th selected position (row-major) takes source's k-th element
        mask = aten.expand.default(mask, list(x.shape))
        if x.numel() == 0:
            return aten.clone.default(x)
        chosen = as_float(aten.reshape.default(mask, [-1]))
        k = aten.clamp_min.default(aten.sub.Scalar(aten.cumsum.default(chosen, 0), 1.0), 0.0)
        flat_src = aten.reshape.default(source, [-1])
        taken = aten.index_select.default(flat_src, 0, aten._to_copy.default(
            k, dtype=torch.int64))
        return aten.where.self(mask, aten.reshape.default(taken, list(x.shape)), x)

    def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                       unsafe=False, initial=None):
        # segment s covers [start_s, end_s) along `axis` (bounds from the
        # lengths or offsets tensors, in the graph); `initial` takes part in
        # the reduction (ATen's CPU kernel) and is an empty segment's value;
        # max/min ties between initial and the data go to the data
        if indices is not None or not data.is_floating_point():
            return NotImplemented
        if lengths is None:
            if offsets is None or offsets.dim() != 1:
                return NotImplemented
            n = offsets.shape[0]
            lengths = aten.sub.Tensor(aten.slice.Tensor(offsets, 0, 1, n),
                                      aten.slice.Tensor(offsets, 0, 0, n - 1))
        if lengths.dim() != 1:
            return NotImplemented
        axis %= data.dim()
        length = as_float(lengths)
        ends = aten.unsqueeze.default(aten.cumsum.default(length, 0), 1)     # [S, 1]
        starts = aten.sub.Tensor(ends, aten.unsqueeze.default(length, 1))
        at = aten.unsqueeze.default(positions(data.shape[axis]), 0)         # [1, L]
        mask = aten.logical_and.default(aten.le.Tensor(starts, at), aten.lt.Tensor(at, ends))
        xs, back = last(data, axis)
        rows = aten.unsqueeze.default(xs, -2)                                 # [..., 1, L]
        if reduce in ("sum", "mean"):
            r = aten.sum.dim_IntList(aten.where.ScalarOther(mask, rows, 0.0), [-1], False)
            if initial is not None:
                r = aten.add.Scalar(r, float(initial))
            if reduce == "mean":
                empty = aten.eq.Scalar(length, 0.0)
                start = float(initial) if initial is not None else math.nan
                r = aten.where.ScalarSelf(empty, start, aten.div.Tensor(
                    r, aten.clamp_min.default(length, 1.0)))
        elif reduce in ("max", "min"):
            fill = -math.inf if reduce == "max" else math.inf
            pick = aten.amax.default if reduce == "max" else aten.amin.default
            r = pick(aten.where.ScalarOther(mask, rows, fill), [-1], False)
            if initial is not None:
                better = (aten.ge.Scalar if reduce == "max" else aten.le.Scalar)(
                    r, float(initial))
                r = aten.where.self(aten.logical_or.default(better, aten.isnan.default(r)), r,
                                    aten.full_like.default(r, float(initial)))
        elif reduce == "prod":
            r = tree_prod(aten.where.ScalarOther(mask, rows, 1.0), xs.dim())
            if initial is not None:
                r = aten.mul.Scalar(r, float(initial))
        else:
            return NotImplemented
        return aten.permute.default(r, back)

    return {
        aten.segment_reduce.default: segment_reduce,
        aten.as_strided.default: as_strided,
        aten.as_strided_scatter.default: as_strided_scatter,
        aten.masked_scatter.default: masked_scatter,
        aten.prod.default: prod, aten.prod.dim_int: prod_dim,
        aten.cumprod.default: cumprod,
        aten.scatter_reduce.two: scatter_reduce,
        aten.index_reduce.default: index_reduce,
        aten.index_copy.default: index_copy,
        aten.put.default: put,
        aten.diagonal_scatter.default: diagonal_scatter,
        aten.max_unpool2d.default: max_unpool,
        aten.max_unpool3d.default: max_unpool,
    }
