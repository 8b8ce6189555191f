"""Differential check of the optimization levels on imported models: each
model's loss and its gradients (VJP) compiled at -O0 and at -O2 must agree
with each other and with torch.autograd, in float64.

A pass that is right alone and wrong in combination with the others shows up
here as an -O2 gradient that differs from -O0's (the squeeze-and-excitation
block's adaptive average pooling followed by a 1x1 convolution was once
wrong at -O1 and above)."""
import sys

import numpy as np
import tad
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SqueezeExcite(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        return (self.conv(F.adaptive_avg_pool2d(x, 1)) ** 2).sum()


class SqueezeExciteGate(nn.Module):
    """x * sigmoid(fc2(relu(fc1(pool(x))))): the MobileNet-style block."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Conv2d(8, 2, 1)
        self.fc2 = nn.Conv2d(2, 8, 1)

    def forward(self, x):
        s = torch.sigmoid(self.fc2(F.relu(self.fc1(F.adaptive_avg_pool2d(x, 1)))))
        return ((x * s) ** 2).mean()


class ConvBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.norm = nn.GroupNorm(2, 6)
        self.fc = nn.Linear(6 * 3 * 3, 5)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.norm(self.conv(x))), 2)
        return F.cross_entropy(self.fc(h.flatten(1)), torch.tensor([1, 4]))


class DepthwiseSeparable(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.pw = nn.Conv2d(4, 6, 1)

    def forward(self, x):
        return F.relu6(self.pw(F.relu6(self.dw(x)))).pow(2).sum()


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(12, 16)
        self.norm = nn.LayerNorm(16)
        self.l2 = nn.Linear(16, 3)

    def forward(self, x):
        return F.mse_loss(self.l2(self.norm(F.gelu(self.l1(x)))),
                          torch.linspace(-1, 1, 15, dtype=torch.float64).reshape(5, 3))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)
        self.out = nn.Linear(8, 8)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        a = torch.softmax(q @ k.transpose(-1, -2) / 8 ** 0.5, dim=-1)
        return self.out(a @ v).tanh().sum()


class PoolAverages(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 1)

    def forward(self, x):
        a = F.avg_pool2d(x, 2)
        b = F.adaptive_avg_pool2d(x, (3, 2))
        # Windows clipped by padding and ceil mode, each divisor rule.
        c = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        d = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=True)
        e = F.avg_pool2d(x, 2, stride=1, divisor_override=3)
        return (self.conv(a).sum() * 0.5 + (self.conv(b) ** 2).sum() + (c ** 2).sum()
                + d.sin().sum() + e.tanh().sum())


MODELS = [
    ("squeeze-excite", SqueezeExcite, (2, 8, 4, 4)),
    ("squeeze-excite gate", SqueezeExciteGate, (2, 8, 4, 4)),
    ("conv block", ConvBlock, (2, 3, 6, 6)),
    ("depthwise separable", DepthwiseSeparable, (2, 4, 5, 5)),
    ("mlp", MLP, (5, 12)),
    ("attention", Attention, (2, 6, 8)),
    ("pool averages", PoolAverages, (2, 2, 6, 4)),
]


def relative_error(a, b):
    return float(np.max(np.abs(a - b)) / (np.max(np.abs(b)) + 1e-300))


def main():
    failures = 0
    for name, cls, shape in MODELS:
        model = cls().double()
        x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        loss = model(x)
        loss.backward()
        reference = [x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()]
        text = tad.from_torch(model, (x.detach(),))
        args = [x.detach().numpy()] + [p.detach().numpy() for p in model.parameters()]
        results = {}
        for opt in (0, 2):
            m = tad.compile(text, vjp=["forward"], opt_level=opt)
            out = m.forward_vjp(*args, np.ones((), np.float64))
            results[opt] = out
        worst = 0.0
        for opt in (0, 2):
            out = results[opt]
            errors = [relative_error(out[0], loss.detach().numpy())] + [
                relative_error(g, r) for g, r in zip(out[1:], reference)]
            worst = max(worst, max(errors))
        between = max(relative_error(a, b) for a, b in zip(results[2], results[0]))
        ok = worst < 1e-9 and between < 1e-9
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'}: {name} (vs torch {worst:.1e}, "
              f"-O2 vs -O0 {between:.1e})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
