"""The benchmark workloads, defined in PyTorch (float32).

Each ``make_<name>()`` returns ``(model, inputs, targets, loss_fn)``: the
loss is ``loss_fn(model(*inputs), *targets)``, the same function for PyTorch
and for tad.
"""

import importlib.util
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def _example(name):
    spec = importlib.util.spec_from_file_location(
        f"example_{name}", os.path.join(ROOT, "examples", name, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def native_cross_entropy():
    from tad import torch_import
    return all(torch_import.has_op(op) for op in ("tad._log_softmax", "tad.nll_loss_forward"))


def cross_entropy_onehot(logits, onehot):
    """Cross-entropy from elementwise ops and sums (while tad lacks
    _log_softmax/nll_loss_forward); used by both sides when it applies."""
    z = logits - logits.mean(dim=1, keepdim=True)
    logp = z - torch.log(torch.exp(z).sum(dim=1, keepdim=True))
    return -(logp * onehot).sum(dim=1).mean()


def _classification_targets(batch, classes=10):
    y = torch.randint(0, classes, (batch,))
    if native_cross_entropy():
        return (y,), F.cross_entropy
    return (F.one_hot(y, classes).float(),), cross_entropy_onehot


def make_mlp_small():
    model = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10))
    return model, (torch.randn(32, 64),), (torch.randn(32, 10),), F.mse_loss


def make_mlp():
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 10))
    targets, loss = _classification_targets(128)
    return model, (torch.randn(128, 784),), targets, loss


def make_cnn():
    model = _example("cnn").LeNet()
    targets, loss = _classification_targets(64)
    return model, (torch.randn(64, 1, 28, 28),), targets, loss


def make_transformer_block():
    model = _example("transformer").Block(d=256, heads=4, ffn=1024, seq=128)
    return model, (torch.randn(8, 128, 256),), (torch.randn(8, 128, 256),), F.mse_loss


def make_lstm_unrolled():
    model = _example("lstm").LSTM(input_size=128, hidden=256, out=10)
    return model, (torch.randn(16, 32, 128),), (torch.randn(16, 10),), F.mse_loss


class LSTMHead(nn.Module):
    """nn.LSTM (imported as one loop over time) and a linear head on h_n."""

    def __init__(self, input_size=128, hidden=256, out=10):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden, batch_first=True)
        self.head = nn.Linear(hidden, out)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        return self.head(h[0])


def make_lstm():
    """examples/lstm's cell and head, its loop over time written with
    tad.scan: tad imports it as one scf.for (compiled once, whatever the
    sequence length); PyTorch runs the same Python loop as examples/lstm's
    (`lstm_unrolled`, which tad unrolls), so the ratios of the two
    workloads compare."""
    import tad

    class LSTMScan(_example("lstm").LSTM):
        @staticmethod
        def step(carry, x, w_ih, b_ih, w_hh):
            h, c = carry
            i, f, g, o = (x @ w_ih.t() + b_ih + h @ w_hh.t()).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
            return (h, c), h

        def forward(self, x):  # x: [batch, time, input]
            h = x.new_zeros(x.shape[0], self.hidden)
            (h, _), _ = tad.scan(self.step, (h, h), x.transpose(0, 1),
                                 params=(self.ih.weight, self.ih.bias, self.hh.weight))
            return self.head(h)

    model = LSTMScan(input_size=128, hidden=256, out=10)
    return model, (torch.randn(16, 32, 128),), (torch.randn(16, 10),), F.mse_loss


def make_lstm_loop(steps=32):
    return LSTMHead(), (torch.randn(16, steps, 128),), (torch.randn(16, 10),), F.mse_loss


def make_lstm_loop_512():
    return make_lstm_loop(512)


class Elementwise(nn.Module):
    def __init__(self, n=1 << 20):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        return torch.tanh(x * self.w + self.b) * torch.sigmoid(x)


def _sum_loss(out):
    return out.sum()


def make_elementwise():
    return Elementwise(), (torch.randn(1 << 20),), (), _sum_loss


WORKLOADS = {
    "mlp_small": (make_mlp_small, "Linear(64,64)-tanh-Linear(64,10) + MSE, batch 32"),
    "mlp": (make_mlp, "784-512-512-10 ReLU + cross-entropy, batch 128"),
    "cnn": (make_cnn, "LeNet-5 + cross-entropy, 64x1x28x28"),
    "transformer_block": (make_transformer_block,
                          "pre-LN block d=256, 4 heads, FFN 1024 GELU, seq 128, batch 8, MSE"),
    "lstm": (make_lstm, "LSTM cell input 128, hidden 256, 32 steps as one loop (tad.scan), "
             "batch 16, linear head + MSE"),
    "lstm_unrolled": (make_lstm_unrolled, "the same LSTM, its Python loop over the 32 steps "
                      "unrolled (examples/lstm)"),
    "lstm_loop": (make_lstm_loop, "nn.LSTM (an scf.for over time) input 128, hidden 256, "
                  "32 steps, batch 16, linear head + MSE"),
    "lstm_loop_512": (make_lstm_loop_512, "the same nn.LSTM over 512 steps"),
    "elementwise": (make_elementwise, "sum(tanh(x*w+b)*sigmoid(x)), 1M floats"),
}


def get(name):
    """(model, inputs, targets, loss_fn) of a workload or of a sweep point
    (bench/sweep_points.py)."""
    if name in WORKLOADS:
        return WORKLOADS[name][0]()
    import sweep_points
    return sweep_points.make(name)


def tad_step_calls(step, inputs, targets):
    """The three timed calls of a compiled training step (a
    tad.TrainStep): forward (the loss), forward+backward and the step."""
    import numpy as np
    m = step.module
    data = [t.numpy() for t in list(inputs) + list(targets)]
    params = [np.array(p) for p in step.params]
    # Buffers the forward pass updates (BatchNorm's running statistics)
    # follow the parameters; @loss returns their new values, whose
    # cotangents are zero.
    buffers = [np.array(b) for b in step.buffers]
    one = np.ones((), params[0].dtype)
    zeros = [np.zeros_like(b) for b in buffers]
    state = list(step.state)
    # The step writes the new parameters into arrays of its own, as
    # tad.TrainStep does from its second step on (PyTorch updates them in
    # place): new arrays per call would be fresh pages to fault in.
    new = [None] + [np.empty_like(a) for a in params + buffers + state]
    return (lambda: m.loss(*data, *params, *buffers),
            lambda: m.loss_vjp(*data, *params, *buffers, one, *zeros),
            lambda: m.train_step(*data, *params, *buffers, *state, out=new))
