"""Parameters must reach the imported program through their arguments.

``rnn``: nn.RNN (which reads its weights from a cached list) imports with
every weight as an argument, and its forward, VJP and training steps match
torch.autograd/torch.optim (tad.testing). ``refusals``: modules whose
parameters would be folded into constants are TadImportErrors naming the
parameter; a parameter the module never uses is accepted.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))

import torch  # noqa: E402

import tad  # noqa: E402
from tad.testing import check_forward, check_training  # noqa: E402


class RNNHead(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.rnn = torch.nn.RNN(3, 4, **kwargs)
        width = 8 if kwargs.get("bidirectional") else 4
        self.head = torch.nn.Linear(width, 2)

    def forward(self, x):
        out, h = self.rnn(x)
        return self.head(out).flatten(0, 1).sum(0) + h.sum()


def rnn_builder(**kwargs):
    def build(dtype):
        torch.manual_seed(0)
        model = RNNHead(**kwargs).to(dtype)
        shape = (2, 5, 3) if kwargs.get("batch_first") else (5, 2, 3)
        x = torch.randn(*shape, dtype=dtype)
        y = torch.randn(2, dtype=dtype)
        return model, (x,), (y,), torch.nn.functional.mse_loss
    return build


def rnn():
    failed = 0
    for label, kwargs in [
            ("relu 2 layers bidirectional", dict(num_layers=2, nonlinearity="relu",
                                                 bidirectional=True)),
            ("tanh batch_first no bias", dict(batch_first=True, bias=False))]:
        print(f"-- RNN {label}")
        model, (x,), _, _ = rnn_builder(**kwargs)(torch.float64)
        text = tad.from_torch(model, (x,))
        n_params = len(list(model.parameters()))
        signature = text.splitlines()[0]
        print(f"arguments {signature.count('%arg')} = 1 input + {n_params} parameters")
        failed += check_forward(rnn_builder(**kwargs), torch.float64)
        failed += check_training(rnn_builder(**kwargs), torch.float64)
    print(f"{failed} failed")


class CachedList(torch.nn.Module):
    """Reads its weight from a list made at construction, like nn.RNN."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(3, 3))
        self._cache = [self.weight]

    def forward(self, x):
        return x @ self._cache[0]


class CopiedWeight(torch.nn.Module):
    """Uses a copy of its parameter's values."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(3, 3))
        self.frozen = self.weight.detach().clone()

    def forward(self, x):
        return x @ self.frozen


class UnusedParameter(torch.nn.Module):
    """A parameter the forward never reads: PyTorch's gradient is None."""

    def __init__(self):
        super().__init__()
        self.used = torch.nn.Parameter(torch.randn(3, 3))
        self.spare = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        return x @ self.used


def refusals():
    torch.manual_seed(0)
    x = torch.randn(2, 3)
    for cls in (CachedList, CopiedWeight, UnusedParameter):
        try:
            text = tad.from_torch(cls(), (x,))
            print(f"{cls.__name__}: imported, {text.splitlines()[0].count('%arg')} arguments")
        except tad.TadImportError as e:
            print(f"{cls.__name__}: TadImportError: {str(e).splitlines()[0]}")
    try:
        tad.compile_train_step(CachedList(), (x,), (torch.randn(2, 3),),
                               torch.nn.functional.mse_loss, tad.SGD(lr=0.1))
        print("train step CachedList: compiled")
    except tad.TadImportError as e:
        print(f"train step CachedList: TadImportError: {str(e).splitlines()[0]}")


if __name__ == "__main__":
    {"rnn": rnn, "refusals": refusals}[sys.argv[1]]()
