#!/usr/bin/env python3
"""A LeNet-5-style convolutional network defined in PyTorch, imported into tad.

Conv(1->6, 5x5, pad 2) - ReLU - MaxPool 2 - Conv(6->16, 5x5) - ReLU -
MaxPool 2 - Linear(400, 120) - ReLU - Linear(120, 84) - ReLU - Linear(84, 10),
trained with cross-entropy on 28x28 images. ``build(dtype)`` returns
``(model, inputs, targets, loss_fn)``; running this file compares tad's
gradients with torch.autograd.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def build(dtype=torch.float32, batch=4, seed=0):
    torch.manual_seed(seed)
    model = LeNet().to(dtype)
    x = torch.randn(batch, 1, 28, 28, dtype=dtype)
    y = torch.randint(0, 10, (batch,))
    return model, (x,), (y,), F.cross_entropy


if __name__ == "__main__":
    import sys
    from tad.testing import check_example
    sys.exit(check_example(build, torch.float64))
