#!/usr/bin/env python3
"""A multilayer perceptron defined in PyTorch, imported into tad.

``build(dtype)`` returns ``(model, inputs, targets, loss_fn)``; running this
file imports the model, compiles its forward pass and gradient with tadc and
compares them with torch.autograd (test/Importer runs the same check).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, sizes=(20, 32, 32, 10)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i + 1 < len(self.layers):
                x = torch.tanh(x) if i % 2 else F.relu(x)
        return x


def build(dtype=torch.float32, batch=8, seed=0):
    torch.manual_seed(seed)
    model = MLP().to(dtype)
    x = torch.randn(batch, 20, dtype=dtype)
    y = torch.randn(batch, 10, dtype=dtype)
    return model, (x,), (y,), F.mse_loss


if __name__ == "__main__":
    import sys
    from tad.testing import check_example
    sys.exit(check_example(build, torch.float64))
