"""Small modules for the importer's FileCheck tests."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Small(nn.Module):
    """Linear + tanh, Python scalars, a folded constant, a sum to a scalar."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.register_buffer("scale", torch.tensor([1.0, 2.0, float("-inf")]))

    def forward(self, x):
        h = torch.tanh(self.fc(x)) * 2 + 1
        h = h.view(2, 3).t().contiguous().clone() - 0.5
        return ((h + self.scale[:, None]).exp() * 3).sum(1, keepdim=True).mean()


class Unsupported(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        y = self.fc(x)
        return torch.special.bessel_j0(y)


class Inplace(nn.Module):
    def forward(self, x):
        y = x * 2
        y.add_(1)
        return F.relu(y, inplace=True)


class Detached(nn.Module):
    def forward(self, x):
        return (x * x.detach()).sum()


class MLP(nn.Module):
    """Linear + ReLU: imported with a dynamic batch by tad-import --dynamic."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return torch.relu(self.fc(x))
