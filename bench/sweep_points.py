"""The points of the shape sweep (bench/sweep.py), defined in PyTorch
(float32), beside the six fixed workloads of bench/workloads.py.

A point's name says its shape, e.g. ``linear-b256-w1024-gelu``,
``conv-64to64-56-k3-s1-b8``, ``dwconv-128-28-b32``, ``attn-s256-d512-h8-causal``,
``layernorm-4096x1024``; ``make(name)`` builds ``(model, inputs, targets,
loss_fn)`` for it, like a workload's maker. ``GROUPS`` lists the points of
each group; ``QUICK`` is a subset that covers every group in a few minutes.
"""

import math
import re

import torch
import torch.nn as nn
import torch.nn.functional as F

# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------


class LinearStack(nn.Module):
    """Linear-act(-LayerNorm)-Linear-act-Linear at one width."""

    def __init__(self, width, act):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = (nn.Linear(width, width) for _ in range(3))
        self.norm = nn.LayerNorm(width) if act == "gelu" else nn.Identity()
        self.act = nn.GELU() if act == "gelu" else nn.ReLU()

    def forward(self, x):
        x = self.norm(self.act(self.fc1(x)))
        return self.fc3(self.act(self.fc2(x)))


class ConvBlock(nn.Module):
    """Conv2d-BatchNorm-ReLU, the unit of ResNet-style stages."""

    def __init__(self, cin, cout, kernel, stride, groups=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel, stride, padding=kernel // 2, groups=groups,
                              bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class SelfAttention(nn.Module):
    """Multi-head self-attention written with matmul and softmax (what the
    importer sees of nn.MultiheadAttention's math), optionally causal."""

    def __init__(self, d, heads, seq, causal):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        mask = (torch.triu(torch.full((seq, seq), float("-inf")), diagonal=1) if causal
                else torch.zeros(seq, seq))
        self.register_buffer("mask", mask)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, h, d // h).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // h) + self.mask
        out = torch.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class Pointwise(nn.Module):
    """One normalization or activation at an activation size, with a
    learnable per-feature scale so that there is a parameter to train."""

    def __init__(self, op, features):
        super().__init__()
        self.op = op
        self.scale = nn.Parameter(torch.ones(features))
        self.norm = nn.LayerNorm(features) if op == "layernorm" else None

    def forward(self, x):
        x = x * self.scale
        if self.op == "layernorm":
            return self.norm(x)
        if self.op == "softmax":
            return torch.softmax(x, dim=-1)
        return F.gelu(x)


def _mse_to_random(model, inputs):
    with torch.no_grad():
        target = torch.randn_like(model(*inputs))
    return model, inputs, (target,), F.mse_loss


# --------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------

PATTERNS = [
    (r"linear-b(\d+)-w(\d+)-(gelu|relu)",
     lambda b, w, act: _mse_to_random(LinearStack(int(w), act), (torch.randn(int(b), int(w)),)),
     "Linear-{2}{ln}-Linear-{2}-Linear, width {1}, batch {0}"),
    (r"conv-(\d+)to(\d+)-(\d+)-k(\d+)-s(\d+)-b(\d+)",
     lambda cin, cout, hw, k, s, b: _mse_to_random(
         ConvBlock(int(cin), int(cout), int(k), int(s)),
         (torch.randn(int(b), int(cin), int(hw), int(hw)),)),
     "Conv2d {0}->{1} {3}x{3} stride {4} + BatchNorm + ReLU on {2}x{2}, batch {5}"),
    (r"dwconv-(\d+)-(\d+)-b(\d+)",
     lambda c, hw, b: _mse_to_random(ConvBlock(int(c), int(c), 3, 1, groups=int(c)),
                                     (torch.randn(int(b), int(c), int(hw), int(hw)),)),
     "depthwise Conv2d {0} channels 3x3 + BatchNorm + ReLU on {1}x{1}, batch {2}"),
    (r"pwconv-(\d+)to(\d+)-(\d+)-b(\d+)",
     lambda cin, cout, hw, b: _mse_to_random(ConvBlock(int(cin), int(cout), 1, 1),
                                             (torch.randn(int(b), int(cin), int(hw), int(hw)),)),
     "1x1 Conv2d {0}->{1} + BatchNorm + ReLU on {2}x{2}, batch {3}"),
    (r"attn-s(\d+)-d(\d+)-h(\d+)-(causal|full)",
     lambda s, d, h, kind: _mse_to_random(SelfAttention(int(d), int(h), int(s), kind == "causal"),
                                          (torch.randn(4, int(s), int(d)),)),
     "{3} self-attention, seq {0}, width {1}, {2} heads, batch 4"),
    (r"(layernorm|softmax|gelu)-(\d+)x(\d+)",
     lambda op, n, f: _mse_to_random(Pointwise(op, int(f)), (torch.randn(int(n), int(f)),)),
     "scale + {0} over [{1}, {2}]"),
]


def _match(name):
    for pattern, maker, description in PATTERNS:
        m = re.fullmatch(pattern, name)
        if m:
            return m.groups(), maker, description
    return None


def is_point(name):
    return _match(name) is not None


def make(name):
    """(model, inputs, targets, loss_fn) of a sweep point."""
    found = _match(name)
    if not found:
        raise KeyError(f"not a sweep point: {name}")
    groups, maker, _ = found
    torch.manual_seed(0)
    return maker(*groups)


def describe(name):
    groups, _, description = _match(name)
    ln = "-LayerNorm" if name.endswith("gelu") and name.startswith("linear") else ""
    return description.format(*groups, ln=ln)


# --------------------------------------------------------------------------
# The grid
# --------------------------------------------------------------------------

def _grid():
    groups = {}
    groups["linear"] = [f"linear-b{b}-w{w}-{act}" for act in ("gelu", "relu")
                        for b in (32, 256, 1024) for w in (256, 1024, 4096)]
    conv = []
    for b in (8, 32):
        for c, hw in ((64, 56), (128, 28), (256, 14), (512, 7)):
            conv += [f"conv-{c}to{c}-{hw}-k3-s1-b{b}", f"conv-{c}to{2 * c}-{hw}-k3-s2-b{b}"]
        conv += [f"conv-3to{c}-32-k3-s1-b{b}" for c in (16, 32, 64)]
        conv.append(f"conv-3to64-112-k7-s2-b{b}")
        for c, hw in ((64, 56), (128, 28), (256, 14)):
            conv += [f"dwconv-{c}-{hw}-b{b}", f"pwconv-{c}to{2 * c}-{hw}-b{b}"]
    groups["conv"] = conv
    groups["attention"] = [f"attn-s{s}-d{d}-h{h}-{kind}" for s in (64, 256, 1024)
                           for d in (128, 512) for h in (4, 8) for kind in ("full", "causal")]
    groups["pointwise"] = [f"{op}-{n}x{f}" for op in ("layernorm", "softmax", "gelu")
                           for n, f in ((1024, 512), (4096, 1024), (25088, 64))]
    sizes = (16, 64, 256, 1024, 4096)
    groups["mm"] = [f"mm-{m}x{n}x{k}" for m in sizes for n in sizes for k in sizes]
    return groups


GROUPS = _grid()

QUICK = ["linear-b32-w256-gelu", "linear-b1024-w1024-relu", "conv-64to64-56-k3-s1-b8",
         "conv-3to16-32-k3-s1-b8", "dwconv-128-28-b8", "pwconv-128to256-28-b8",
         "attn-s256-d128-h4-causal", "layernorm-4096x1024", "softmax-4096x1024",
         "mm-16x1024x1024", "mm-1024x1024x1024", "mm-256x4096x256"]


def mm_shape(name):
    """(m, n, k) of an ``mm-MxNxK`` point, else None."""
    m = re.fullmatch(r"mm-(\d+)x(\d+)x(\d+)", name)
    return tuple(int(v) for v in m.groups()) if m else None
