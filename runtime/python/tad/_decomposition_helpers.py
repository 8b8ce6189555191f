"""Small tensor helpers shared by the importer's decomposition tables
(``_decompositions_*``): each builds ATen ops on traced tensors, so that
the traced graph holds only ops tad has rules for."""


def arange(n, shape):
    """0, 1, ..., n-1 in float64 reshaped to ``shape``, as a constant of the
    trace (made outside proxy tracing: it depends on no input)."""
    import torch
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
    with disable_proxy_modes_tracing():
        return torch.arange(n, dtype=torch.float64).reshape(shape)


def as_float(t):
    """``t`` as float64 (index arithmetic is exact in it below 2^53)."""
    import torch
    return torch.ops.aten._to_copy.default(t, dtype=torch.float64)


def as_index(t):
    """``t`` as int64."""
    import torch
    return torch.ops.aten._to_copy.default(t, dtype=torch.int64)


def last(t, dim):
    """``t`` with ``dim`` moved to the end, and the permutation back."""
    import torch
    nd = t.dim()
    order = [d for d in range(nd) if d != dim] + [dim]
    back = [0] * nd
    for k, d in enumerate(order):
        back[d] = k
    return torch.ops.aten.permute.default(t, order), back
