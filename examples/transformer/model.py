#!/usr/bin/env python3
"""A pre-LayerNorm transformer encoder block defined in PyTorch, imported
into tad.

    x = x + Attention(LayerNorm(x))      multi-head, causal, written with
    x = x + FFN(LayerNorm(x))            matmul and softmax; FFN: Linear-GELU-Linear

The causal mask is a buffer (a constant in the imported program).
``build(dtype)`` returns ``(model, inputs, targets, loss_fn)``; running this
file compares tad's gradients with torch.autograd.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d=32, heads=4, ffn=64, seq=8):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ffn)
        self.fc2 = nn.Linear(ffn, d)
        mask = torch.triu(torch.full((seq, seq), float("-inf")), diagonal=1)
        self.register_buffer("mask", mask)

    def attention(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, h, d // h).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // h) + self.mask[:t, :t]
        out = torch.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, t, d))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def build(dtype=torch.float32, batch=2, seed=0, d=32, heads=4, ffn=64, seq=8):
    torch.manual_seed(seed)
    model = Block(d, heads, ffn, seq).to(dtype)
    x = torch.randn(batch, seq, d, dtype=dtype)
    y = torch.randn(batch, seq, d, dtype=dtype)
    return model, (x,), (y,), F.mse_loss


if __name__ == "__main__":
    import sys
    from tad.testing import check_example
    sys.exit(check_example(build, torch.float64))
