"""Instance norm from its statistics, for tracing.

PyTorch computes ``F.instance_norm`` as a batch norm of the input viewed
as one sample of N*C channels, with the affine parameters repeated N times
(``repeat`` by the batch size: a program that cannot be made dynamic in
the batch). While ``statistics()`` is active, instance norm without
running statistics (``track_running_stats=False``, or evaluation mode
reading them) is traced as the same math over each sample's channels:
mean and biased variance over the spatial dimensions, normalize, then the
per-channel affine. 16-bit inputs are computed in float32 and rounded
once, as ATen's kernels do. Instance norm that updates running statistics
keeps PyTorch's definition.
"""
import contextlib


def _torch():
    import torch
    return torch


def _instance_norm(original):
    torch = _torch()

    def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                      use_input_stats=True, momentum=0.1, eps=1e-5):
        if not use_input_stats or running_mean is not None or running_var is not None \
                or input.dim() < 3:
            return original(input, running_mean, running_var, weight, bias,
                            use_input_stats, momentum, eps)
        dtype = input.dtype
        x = input.float() if dtype in (torch.float16, torch.bfloat16) else input
        dims = list(range(2, x.dim()))
        var, mean = torch.var_mean(x, dims, unbiased=False, keepdim=True)
        y = (x - mean) * torch.rsqrt(var + eps)
        shape = (1, x.shape[1]) + (1,) * len(dims)
        if weight is not None:
            y = y * weight.to(y.dtype).reshape(shape)
        if bias is not None:
            y = y + bias.to(y.dtype).reshape(shape)
        return y.to(dtype)
    return instance_norm


@contextlib.contextmanager
def statistics():
    """While active, ``torch.nn.functional.instance_norm`` without running
    statistics is traced from the per-sample statistics (module doc)."""
    functional = _torch().nn.functional
    saved = functional.instance_norm
    functional.instance_norm = _instance_norm(saved)
    try:
        yield
    finally:
        functional.instance_norm = saved
