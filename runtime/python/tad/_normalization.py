"""Instance and group norm from their statistics, for dynamic traces.

PyTorch computes ``F.instance_norm`` as a batch norm of the input viewed
as one sample of N*C channels, with the affine parameters repeated N times
(``repeat`` by the batch size), and ``native_group_norm`` takes the batch
size N as an argument: neither can be made dynamic in the batch
(docs/dynamic-shapes.md). While a program is traced for dynamic sizes
(``torch_import.sizes_at_run_time``), the importer traces them as the same
math over each sample instead: mean and biased variance over a sample's
channel (instance norm) or group of channels (group norm), normalize, then
the per-channel affine; every size that depends on the batch is then a
view's or the input's. 16-bit inputs are computed in float32 and rounded
once, as ATen's kernels do. Static programs keep PyTorch's ops (tad has
``native_group_norm``); instance norm that updates running statistics
keeps PyTorch's definition.
"""
import contextlib


def _torch():
    import torch
    return torch


def _widened(x):
    torch = _torch()
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) else x


def _instance_norm(original):
    torch = _torch()

    def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                      use_input_stats=True, momentum=0.1, eps=1e-5):
        if not use_input_stats or running_mean is not None or running_var is not None \
                or input.dim() < 3:
            return original(input, running_mean, running_var, weight, bias,
                            use_input_stats, momentum, eps)
        x = _widened(input)
        dims = list(range(2, x.dim()))
        var, mean = torch.var_mean(x, dims, unbiased=False, keepdim=True)
        y = (x - mean) * torch.rsqrt(var + eps)
        shape = (1, x.shape[1]) + (1,) * len(dims)
        if weight is not None:
            y = y * weight.to(y.dtype).reshape(shape)
        if bias is not None:
            y = y + bias.to(y.dtype).reshape(shape)
        return y.to(input.dtype)
    return instance_norm


@contextlib.contextmanager
def instance_norm_from_statistics():
    """While active, ``torch.nn.functional.instance_norm`` without running
    statistics is traced from the per-sample statistics (module doc)."""
    functional = _torch().nn.functional
    saved = functional.instance_norm
    functional.instance_norm = _instance_norm(saved)
    try:
        yield
    finally:
        functional.instance_norm = saved


def group_norm_table():
    """``{aten.native_group_norm: its statistics}`` for the decomposition
    table of a dynamic trace."""
    torch = _torch()
    aten = torch.ops.aten

    def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
        x = _widened(input)
        # [N, group, C/group * HxW]: the batch is the one size that varies
        grouped = aten.view.default(x, [N, group, C // group * HxW])
        var, mean = aten.var_mean.correction(grouped, [2], correction=0, keepdim=True)
        rstd = aten.rsqrt.default(aten.add.Scalar(var, eps))
        y = aten.view.default(aten.mul.Tensor(aten.sub.Tensor(grouped, mean), rstd),
                              list(input.shape))
        shape = [1, C] + [1] * (input.dim() - 2)
        if weight is not None:
            y = aten.mul.Tensor(y, aten.view.default(_widened(weight), shape))
        if bias is not None:
            y = aten.add.Tensor(y, aten.view.default(_widened(bias), shape))

        def out(t):
            return t if t.dtype == input.dtype else aten._to_copy.default(t, dtype=input.dtype)
        return (out(y), out(aten.view.default(mean, [N, group])),
                out(aten.view.default(rstd, [N, group])))
    return {aten.native_group_norm.default: native_group_norm}
