"""Importer decompositions of the ATen ops that order values along a
dimension: ``sort`` (``msort``), ``topk``, ``kthvalue``, ``median``,
``nanmedian``, ``mode``, ``cummax`` and ``cummin`` (see
``_decompositions`` for the contract).

There is no sort op: the position of element i in the sorted order is
its rank, the number of elements j that sort before it (smaller, or NaN
after every number, or equal with j < i: a stable sort), computed by
comparing all pairs along the dimension (n^2 comparisons per row, for
the short rows of tests and models, not for sorting millions). The
permutation is read off the ranks; values are ``gather`` of the input at
the chosen indices, so the derivative is PyTorch's: the gradient goes to
the selected index (``value_selecting_reduction_backward``). ``median``
and ``nanmedian`` without a dimension distribute it evenly over the
elements equal to the result (``evenly_distribute_backward``), as
PyTorch does: there the value is selected by an ``amax`` over those
elements. Index arithmetic is done in float64 (exact below 2^53) and
converted to int64 at the end.

``table()`` returns ``{aten overload: function}``.
"""

import math


def table():
    import torch
    aten = torch.ops.aten
    from ._decomposition_helpers import arange, as_float, as_index, last

    def sorted_order(x, descending):
        """For ``x`` [..., n]: the indices [..., n] (float64) of the stable
        sort along the last dimension, NaN after the numbers (before them
        when descending)."""
        n = x.shape[-1]
        a = aten.unsqueeze.default(x, -1)   # [..., i, 1]
        b = aten.unsqueeze.default(x, -2)   # [..., 1, j]
        nan_a, nan_b = aten.isnan.default(a), aten.isnan.default(b)
        if descending:  # j ahead of i: larger, or NaN where i is a number
            before, nan_ahead = aten.gt.Tensor(b, a), nan_b
            nan_other = nan_a
        else:           # smaller, or a number where i is NaN
            before, nan_ahead = aten.lt.Tensor(b, a), nan_a
            nan_other = nan_b
        ahead = aten.logical_or.default(before, aten.logical_and.default(
            nan_ahead, aten.logical_not.default(nan_other)))
        tie = aten.logical_or.default(aten.eq.Tensor(b, a), aten.logical_and.default(nan_a, nan_b))
        earlier = aten.lt.Tensor(arange(n, [1, n]), arange(n, [n, 1]))   # j < i
        ahead = aten.logical_or.default(ahead, aten.logical_and.default(tie, earlier))
        rank = aten.sum.dim_IntList(as_float(ahead), [-1], True)         # [..., i, 1]
        # position k holds the i whose rank is k
        hit = as_float(aten.eq.Tensor(rank, arange(n, [1, n])))          # [..., i, k]
        return aten.sum.dim_IntList(aten.mul.Tensor(hit, arange(n, [n, 1])), [-2], False)

    def sort_along(x, dim, descending):
        """(values, float64 indices) of ``x`` sorted along ``dim``."""
        if x.dim() == 0:
            return aten.clone.default(x), aten.zeros_like.default(x)
        dim %= x.dim()
        xs, back = last(x, dim)
        idx = aten.permute.default(sorted_order(xs, descending), back)
        return aten.gather.default(x, dim, as_index(idx)), idx

    def floating(x):
        return x.is_floating_point()

    def sort(x, dim=-1, descending=False):
        if not floating(x):
            return NotImplemented
        values, idx = sort_along(x, dim, descending)
        return values, as_index(idx)

    def sort_stable(x, *, stable=None, dim=-1, descending=False):
        return sort(x, dim, descending)

    def pick(x, dim, idx, keepdim):
        """``x`` and its (float64) sorted-order indices ``idx`` at one
        position ``pos`` along ``dim``: (values, int64 indices)."""
        i = as_index(idx)
        values = aten.gather.default(x, dim, i)
        if not keepdim and x.dim():
            values, i = aten.squeeze.dim(values, dim), aten.squeeze.dim(i, dim)
        return values, i

    def topk(x, k, dim=-1, largest=True, sorted=True):
        if not floating(x):
            return NotImplemented
        values, idx = sort_along(x, dim, largest)
        if x.dim() == 0:
            return values, as_index(idx)
        dim %= x.dim()
        idx = aten.slice.Tensor(idx, dim, 0, k)
        i = as_index(idx)
        return aten.gather.default(x, dim, i), i

    def kthvalue(x, k, dim=-1, keepdim=False):
        if not floating(x):
            return NotImplemented
        _, idx = sort_along(x, dim, False)
        if x.dim() == 0:
            return aten.clone.default(x), as_index(idx)
        dim %= x.dim()
        return pick(x, dim, aten.slice.Tensor(idx, dim, k - 1, k), keepdim)

    def median_position(x, dim, skip_nan):
        """The float64 index (keepdim) of the lower median along ``dim``:
        NaN if the row has one (``median``), or the lower median of the
        numbers (``nanmedian``; NaN if all are)."""
        n = x.shape[dim]
        _, idx = sort_along(x, dim, False)
        numbers = aten.sum.dim_IntList(as_float(aten.logical_not.default(
            aten.isnan.default(x))), [dim], True)
        if skip_nan:
            pos = aten.floor.default(aten.mul.Scalar(aten.sub.Scalar(numbers, 1.0), 0.5))
            pos = aten.clamp_min.default(pos, 0.0)
        else:
            has_nan = aten.lt.Scalar(numbers, n - 0.5)
            pos = aten.where.ScalarOther(has_nan, numbers, float((n - 1) // 2))
        return aten.gather.default(idx, dim, as_index(pos))

    def median_dim(skip_nan):
        def fn(x, dim=-1, keepdim=False):
            if not floating(x):
                return NotImplemented
            if x.dim() == 0:
                return aten.clone.default(x), as_index(aten.zeros_like.default(x))
            dim %= x.dim()
            return pick(x, dim, median_position(x, dim, skip_nan), keepdim)
        return fn

    def median_all(skip_nan):
        def fn(x):
            if not floating(x) or x.numel() == 0:
                return NotImplemented
            flat = aten.reshape.default(x, [-1])
            i = as_index(median_position(flat, 0, skip_nan))
            v = aten.detach.default(aten.gather.default(flat, 0, i))   # [1]
            # every element equal to the median (NaN: every NaN) shares the gradient
            same = aten.logical_or.default(
                aten.eq.Tensor(flat, v),
                aten.logical_and.default(aten.isnan.default(flat), aten.isnan.default(v)))
            return aten.amax.default(aten.where.ScalarOther(same, flat, -math.inf), [0])
        return fn

    def mode(x, dim=-1, keepdim=False):
        # the most frequent value, the smallest of them on a tie, at the
        # last index that holds it (PyTorch's CPU kernel)
        if not floating(x):
            return NotImplemented
        if x.dim() == 0:
            return aten.clone.default(x), as_index(aten.zeros_like.default(x))
        dim %= x.dim()
        xs, back = last(aten.detach.default(x), dim)
        n = xs.shape[-1]
        a, b = aten.unsqueeze.default(xs, -1), aten.unsqueeze.default(xs, -2)
        count = aten.sum.dim_IntList(as_float(aten.eq.Tensor(a, b)), [-1], False)
        top = aten.eq.Tensor(count, aten.amax.default(count, [-1], True))
        value = aten.amin.default(aten.where.ScalarOther(top, xs, math.inf), [-1], True)
        at = aten.where.ScalarOther(aten.eq.Tensor(xs, value), arange(n, [n]), -1.0)
        idx = aten.permute.default(aten.amax.default(at, [-1], True), back)
        return pick(x, dim, idx, keepdim)

    def cumulative(largest):
        # out[i] = the extreme of x[j <= i] (NaN once one is seen), at the
        # last index j <= i that holds it
        def fn(x, dim):
            if not floating(x):
                return NotImplemented
            if x.dim() == 0:
                return aten.clone.default(x), as_index(aten.zeros_like.default(x))
            dim %= x.dim()
            xs, back = last(aten.detach.default(x), dim)
            n = xs.shape[-1]
            if n == 0:
                return aten.clone.default(x), as_index(aten.zeros_like.default(x))
            seen = aten.le.Tensor(arange(n, [1, n]), arange(n, [n, 1]))      # [i, j]: j <= i
            rows = aten.unsqueeze.default(xs, -2)                             # [..., 1, j]
            nan = aten.isnan.default(rows)
            fill = -math.inf if largest else math.inf
            masked = aten.where.ScalarOther(seen, rows, fill)
            best = (aten.amax.default if largest else aten.amin.default)(masked, [-1], True)
            any_nan = aten.gt.Scalar(aten.sum.dim_IntList(
                as_float(aten.logical_and.default(seen, nan)), [-1], True), 0.5)
            hold = aten.logical_or.default(
                aten.logical_and.default(any_nan, nan),
                aten.logical_and.default(aten.logical_not.default(any_nan),
                                         aten.eq.Tensor(rows, best)))
            at = aten.where.ScalarOther(aten.logical_and.default(seen, hold),
                                        arange(n, [1, n]), -1.0)
            idx = aten.permute.default(aten.amax.default(at, [-1], False), back)
            i = as_index(idx)
            return aten.gather.default(x, dim, i), i
        return fn

    def msort(x):
        return sort(x, 0)[0]

    return {
        aten.sort.default: sort, aten.sort.stable: sort_stable,
        aten.msort.default: msort,
        aten.topk.default: topk, aten.kthvalue.default: kthvalue,
        aten.median.default: median_all(False), aten.nanmedian.default: median_all(True),
        aten.median.dim: median_dim(False), aten.nanmedian.dim: median_dim(True),
        aten.mode.default: mode,
        aten.cummax.default: cumulative(True), aten.cummin.default: cumulative(False),
    }
