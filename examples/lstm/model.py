#!/usr/bin/env python3
"""An LSTM unrolled over time, defined in PyTorch, imported into tad.

The cell is written out (gates = x W_ih^T + h W_hh^T + b, chunked into
input/forget/cell/output gates); the Python loop over time steps is
unrolled by tracing. A linear head reads the last hidden state.
``build(dtype)`` returns ``(model, inputs, targets, loss_fn)``; running this
file compares tad's gradients with torch.autograd.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTM(nn.Module):
    def __init__(self, input_size=8, hidden=16, out=4):
        super().__init__()
        self.hidden = hidden
        self.ih = nn.Linear(input_size, 4 * hidden)
        self.hh = nn.Linear(hidden, 4 * hidden, bias=False)
        self.head = nn.Linear(hidden, out)

    def forward(self, x):  # x: [batch, time, input]
        b, steps, _ = x.shape
        h = x.new_zeros(b, self.hidden)
        c = x.new_zeros(b, self.hidden)
        for t in range(steps):
            i, f, g, o = (self.ih(x[:, t]) + self.hh(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return self.head(h)


def build(dtype=torch.float32, batch=4, seed=0, input_size=8, hidden=16, steps=6):
    torch.manual_seed(seed)
    model = LSTM(input_size, hidden).to(dtype)
    x = torch.randn(batch, steps, input_size, dtype=dtype)
    y = torch.randn(batch, 4, dtype=dtype)
    return model, (x,), (y,), F.mse_loss


if __name__ == "__main__":
    import sys
    from tad.testing import check_example
    sys.exit(check_example(build, torch.float64))
