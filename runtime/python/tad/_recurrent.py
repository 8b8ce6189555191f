"""``nn.RNN``, ``nn.LSTM`` and ``nn.GRU`` imported as loops.

PyTorch's own decomposition unrolls a recurrent layer into one copy of the
cell per time step. While the importer traces, the layers' ``forward``
instead calls one opaque op, ``tad_recurrent::rnn`` (registered here with a
CPU kernel that runs PyTorch's layer, so tracing still computes the real
values), and the emitter turns that op into an ``scf.for`` over time per
layer and direction: the input projection of all steps as one matrix
product before the loop, then per step the hidden projection, the gates,
and the step's output written into a carried sequence tensor
(``tensor.insert_slice``). tad differentiates the loop without unrolling
it (docs/loops.md), so program size and compile time do not grow with the
sequence length.

Supported: every mode (LSTM, GRU, RNN with tanh or relu), layers,
bidirectional, batch_first, bias or not, proj_size (LSTM), unbatched input,
initial states given or not. Refused with a message: PackedSequence inputs
and dropout between layers in training mode.
"""
import contextlib

_MODES = ("LSTM", "GRU", "RNN_TANH", "RNN_RELU")
_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_library = None
# While the importer traces: scan() calls the op instead of looping.
_tracing = False
# The step functions of the scans met while tracing, by id: (function,
# whether the carry is a single tensor).
_steps = {}


def _torch():
    import torch
    return torch


def _register():
    """Defines ``tad_recurrent::rnn`` once per process."""
    global _library
    if _library is not None:
        return
    torch = _torch()
    lib = torch.library.Library("tad_recurrent", "DEF")
    lib.define("rnn(Tensor input, Tensor hx, Tensor cx, Tensor[] params, str mode, "
               "int num_layers, bool bidirectional, bool batch_first, bool has_biases) "
               "-> (Tensor, Tensor, Tensor)")

    def kernel(input, hx, cx, params, mode, num_layers, bidirectional, batch_first,
               has_biases):
        args = (params, has_biases, num_layers, 0.0, False, bidirectional, batch_first)
        if mode == "LSTM":
            out, h, c = torch._VF.lstm(input, (hx, cx), *args)
            return out, h, c
        run = {"GRU": torch._VF.gru, "RNN_TANH": torch._VF.rnn_tanh,
               "RNN_RELU": torch._VF.rnn_relu}[mode]
        out, h = run(input, hx, *args)
        return out, h, h.clone()

    lib.impl("rnn", kernel, "CPU")
    lib.define("scan(Tensor[] init, Tensor xs, Tensor[] params, int fn) -> Tensor[]")

    def scan_kernel(init, xs, params, fn):
        step, single = _steps[fn]
        try:
            carry, ys = _run_scan(step, init, xs, params, single)
        except (RuntimeError, NotImplementedError) as e:
            from .torch_import import TadImportError
            raise TadImportError(
                "tad.scan: the step function failed on its arguments; it must read no "
                "tensor other than its arguments (pass the weights in `params`): "
                + str(e).splitlines()[0]) from None
        return list(carry) + [ys]

    lib.impl("scan", scan_kernel, "CPU")
    _library = lib


def _run_scan(step, init, xs, params, single):
    """The loop itself, in PyTorch."""
    torch = _torch()
    carry = list(init)
    ys = []
    for t in range(xs.shape[0]):
        new, y = step(carry[0] if single else tuple(carry), xs[t], *params)
        carry = [new] if single else list(new)
        ys.append(y)
    return carry, torch.stack(ys)


def _captured_state(step):
    """What tensors or modules `step` holds other than through its
    arguments (closure cells, a bound method's object, defaults, a
    partial's arguments), described; empty if none."""
    import functools
    torch = _torch()
    held = []
    while isinstance(step, functools.partial):
        held += list(step.args) + list(step.keywords.values())
        step = step.func
    held.append(getattr(step, "__self__", None))
    held += [cell.cell_contents for cell in (getattr(step, "__closure__", None) or ())
             if cell.cell_contents is not None]
    held += list(getattr(step, "__defaults__", None) or ())
    for value in held:
        if isinstance(value, torch.Tensor):
            return "a tensor"
        if isinstance(value, torch.nn.Module):
            name = next(c.__name__ for c in type(value).__mro__
                        if not c.__name__.startswith("StatelessReplacer"))
            return f"a module ({name})"
    return ""


def scan(step, init, xs, params=()):
    """``for t: carry, y_t = step(carry, xs[t], *params)``; returns
    ``(carry, ys)``, the ``y_t`` stacked along a new first dimension.

    ``step`` must compute from its arguments only (as ``jax.lax.scan``'s
    function): the weights it uses are passed in ``params`` (a module's
    ``parameters()``, say). ``init`` is a tensor or a tuple of tensors (the
    carry keeps its shapes and dtypes), ``xs`` a tensor whose first
    dimension is time. In PyTorch this is a Python loop; imported by tad
    (``from_torch``, ``compile_train_step``), ``step`` is traced once and
    becomes the body of one ``scf.for``, instead of being unrolled per step
    (docs/importer.md).
    """
    torch = _torch()
    single = isinstance(init, torch.Tensor)
    init = [init] if single else list(init)
    params = list(params)
    if not _tracing:
        carry, ys = _run_scan(step, init, xs, params, single)
        return (carry[0] if single else tuple(carry)), ys
    captured = _captured_state(step)
    if captured:
        from .torch_import import TadImportError
        raise TadImportError(
            f"tad.scan: the step function captures {captured}; it must compute from its "
            "arguments only (pass the weights in `params`), or its gradient would be lost")
    _steps[id(step)] = (step, single)
    results = torch.ops.tad_recurrent.scan(init, xs, params, id(step))
    carry = results[:-1]
    return (carry[0] if single else tuple(carry)), results[-1]


def is_recurrent_op(target) -> bool:
    return _library is not None and \
        target is _torch().ops.tad_recurrent.rnn.default


def is_scan_op(target) -> bool:
    return _library is not None and \
        target is _torch().ops.tad_recurrent.scan.default


def _forward(self, input, hx=None):
    """nn.RNNBase.forward through ``tad_recurrent::rnn``."""
    torch = _torch()
    from .torch_import import TadImportError
    # functional_call swaps parameters through a subclass: name the layer.
    name = next(c.__name__ for c in type(self).__mro__
                if c in (torch.nn.RNN, torch.nn.LSTM, torch.nn.GRU))
    if isinstance(input, torch.nn.utils.rnn.PackedSequence):
        raise TadImportError(f"{name} with a PackedSequence input cannot be "
                             "imported as a loop (pad the sequences, or pass "
                             "recurrent='unroll' to unroll it)")
    if self.dropout and self.training and self.num_layers > 1:
        raise TadImportError(f"{name} with dropout={self.dropout} between "
                             "layers in training mode cannot be imported (random masks); "
                             "use eval() or dropout=0")
    mode = self.mode  # LSTM, GRU, RNN_TANH or RNN_RELU
    batched = input.dim() == 3
    if not batched:
        input = input.unsqueeze(0 if self.batch_first else 1)
    batch = input.shape[0 if self.batch_first else 1]
    directions = 2 if self.bidirectional else 1
    out_size = self.proj_size if getattr(self, "proj_size", 0) else self.hidden_size
    if mode == "LSTM":
        if hx is None:
            h0 = torch.zeros(self.num_layers * directions, batch, out_size,
                             dtype=input.dtype, device=input.device)
            c0 = torch.zeros(self.num_layers * directions, batch, self.hidden_size,
                             dtype=input.dtype, device=input.device)
        else:
            h0, c0 = hx
            if not batched:
                h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
    else:
        if hx is None:
            h0 = torch.zeros(self.num_layers * directions, batch, out_size,
                             dtype=input.dtype, device=input.device)
        else:
            h0 = hx if batched else hx.unsqueeze(1)
        c0 = h0
    params = [getattr(self, name) for name in self._flat_weights_names]
    out, h, c = torch.ops.tad_recurrent.rnn(input, h0, c0, params, mode,
                                            self.num_layers, self.bidirectional,
                                            self.batch_first, self.bias)
    if not batched:
        out = out.squeeze(0 if self.batch_first else 1)
        h, c = h.squeeze(1), c.squeeze(1)
    return (out, (h, c)) if mode == "LSTM" else (out, h)


@contextlib.contextmanager
def as_loops():
    """While active, recurrent layers trace as ``tad_recurrent::rnn`` and
    ``scan`` as ``tad_recurrent::scan``."""
    global _tracing
    torch = _torch()
    _register()
    classes = (torch.nn.RNN, torch.nn.LSTM, torch.nn.GRU)
    saved = [cls.forward for cls in classes]
    for cls in classes:
        cls.forward = _forward
    _tracing = True
    try:
        yield
    finally:
        _tracing = False
        for cls, forward in zip(classes, saved):
            cls.forward = forward


def _shape(ty):
    """(dims, element type) of "tensor<2x3xf32>"."""
    body = ty[len("tensor<"):-1]
    parts = body.split("x")
    return [int(p) for p in parts[:-1]], parts[-1]


def _ty(dims, elt):
    return "tensor<" + "".join(f"{d}x" for d in dims) + elt + ">"


class _Writer:
    """Emits tad/tensor/scf text through the importer's emitter."""

    def __init__(self, emitter, elt):
        self.e = emitter
        self.elt = elt

    def line(self, text, indent):
        self.e.lines.append("  " * indent + text)

    def op(self, name, operands, result_dims, indent, attrs=""):
        ref = self.e.fresh()
        ins = ", ".join(v for v, _ in operands)
        types = ", ".join(t for _, t in operands)
        rty = _ty(result_dims, self.elt)
        attrs = f" {{{attrs}}}" if attrs else ""
        self.line(f'{ref} = "{name}"({ins}){attrs} : ({types}) -> {rty}', indent)
        return (ref, rty)

    def zeros(self, dims, indent):
        ref = self.e.fresh()
        rty = _ty(dims, self.elt)
        self.line(f'{ref} = "tad.constant"() {{value = dense<0.0> : {rty}}} : () -> {rty}',
                  indent)
        return (ref, rty)

    def index(self, value, indent):
        ref = self.e.fresh()
        self.line(f"{ref} = arith.constant {value} : index", indent)
        return ref

    def extract(self, source, offsets, sizes, result_dims, indent):
        """Slice of `source` (offsets: SSA names or ints), rank-reduced to
        `result_dims`."""
        ref = self.e.fresh()
        rty = _ty(result_dims, self.elt)
        self.line(f"{ref} = tensor.extract_slice {source[0]}[{', '.join(map(str, offsets))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : "
                  f"{source[1]} to {rty}", indent)
        return (ref, rty)

    def insert(self, value, dest, offsets, sizes, indent):
        ref = self.e.fresh()
        self.line(f"{ref} = tensor.insert_slice {value[0]} into {dest[0]}"
                  f"[{', '.join(map(str, offsets))}] [{', '.join(map(str, sizes))}] "
                  f"[{', '.join('1' for _ in sizes)}] : {value[1]} into {dest[1]}", indent)
        return (ref, dest[1])


def emit(emitter, node):
    """The loops of one ``tad_recurrent::rnn`` node; its results are the
    output sequence, h_n and c_n (h_n again for modes without c)."""
    from .torch_import import _bind
    args = _bind(node.target._schema, node.args, node.kwargs)
    x = emitter.value_of(node, args["input"])
    hx = emitter.value_of(node, args["hx"])
    cx = emitter.value_of(node, args["cx"])
    params = emitter.value_of(node, args["params"])
    mode, layers = args["mode"], args["num_layers"]
    directions = 2 if args["bidirectional"] else 1
    batch_first, has_biases = args["batch_first"], args["has_biases"]
    gates = _GATES[mode]
    (x_dims, elt) = _shape(x[1])
    w = _Writer(emitter, elt)
    indent = 1

    if batch_first:
        x = w.op("tad.transpose.int", [x], [x_dims[1], x_dims[0], x_dims[2]], indent,
                 "dim0 = 0 : i64, dim1 = 1 : i64")
    steps, batch, _ = _shape(x[1])[0]
    per_group = 2 + 2 * has_biases
    hidden = _shape(params[1][1])[0][0] // gates  # w_hh: [gates * H, H_out]
    projected = len(params) == layers * directions * (per_group + 1)
    if projected:
        per_group += 1  # LSTM with proj_size: w_hr follows
    out_size = _shape(params[1][1])[0][1]
    gh = gates * hidden

    c0, c1, cT = w.index(0, indent), w.index(1, indent), w.index(steps, indent)
    last = w.index(steps - 1, indent)
    h_n = w.zeros([layers * directions, batch, out_size], indent)
    c_n = w.zeros([layers * directions, batch, hidden], indent)
    layer_input = x
    for layer in range(layers):
        outputs = []
        for direction in range(directions):
            slot = layer * directions + direction
            group = params[slot * per_group:(slot + 1) * per_group]
            w_ih, w_hh = group[0], group[1]
            b_ih = group[2] if has_biases else None
            b_hh = group[3] if has_biases else None
            w_hr = group[-1] if projected else None
            in_size = _shape(layer_input[1])[0][2]
            # The input projection of every step at once: [T*B, in] @ [in, G*H].
            flat = w.op("tad._unsafe_view", [layer_input], [steps * batch, in_size], indent,
                        f"size = array<i64: {steps * batch}, {in_size}>")
            w_ih_t = w.op("tad.t", [w_ih], [in_size, gh], indent)
            xw = w.op("tad.mm", [flat, w_ih_t], [steps * batch, gh], indent)
            if b_ih is not None:
                xw = w.op("tad.add.Tensor", [xw, b_ih], [steps * batch, gh], indent)
            xw = w.op("tad._unsafe_view", [xw], [steps, batch, gh], indent,
                      f"size = array<i64: {steps}, {batch}, {gh}>")
            w_hh_t = w.op("tad.t", [w_hh], [out_size, gh], indent)
            w_hr_t = w.op("tad.t", [w_hr], [hidden, out_size], indent) if w_hr else None
            h_init = w.extract(hx, [slot, 0, 0], [1, batch, out_size], [batch, out_size],
                               indent)
            carried = [h_init]
            if mode == "LSTM":
                carried.append(w.extract(cx, [slot, 0, 0], [1, batch, hidden],
                                         [batch, hidden], indent))
            seq = w.zeros([steps, batch, out_size], indent)
            carried.append(seq)

            loop = emitter.fresh()
            t = emitter.fresh()
            block_args = [(emitter.fresh(), v[1]) for v in carried]
            inits = ", ".join(f"{a[0]} = {v[0]}" for a, v in zip(block_args, carried))
            types = ", ".join(v[1] for v in carried)
            w.line(f"{loop}:{len(carried)} = scf.for {t} = {c0} to {cT} step {c1} "
                   f"iter_args({inits}) -> ({types}) {{", indent)
            body = indent + 1
            h, seq_arg = block_args[0], block_args[-1]
            if direction == 0:
                at = t
            else:
                at = emitter.fresh()
                w.line(f"{at} = arith.subi {last}, {t} : index", body)
            xw_t = w.extract(xw, [at, 0, 0], [1, batch, gh], [batch, gh], body)
            hw = w.op("tad.mm", [h, w_hh_t], [batch, gh], body)
            if b_hh is not None:
                hw = w.op("tad.add.Tensor", [hw, b_hh], [batch, gh], body)

            def gate(value, k):
                return w.extract(value, [0, k * hidden], [batch, hidden], [batch, hidden], body)

            bh = [batch, hidden]
            if mode == "LSTM":
                c = block_args[1]
                pre = w.op("tad.add.Tensor", [xw_t, hw], [batch, gh], body)
                i = w.op("tad.sigmoid", [gate(pre, 0)], bh, body)
                f = w.op("tad.sigmoid", [gate(pre, 1)], bh, body)
                g = w.op("tad.tanh", [gate(pre, 2)], bh, body)
                o = w.op("tad.sigmoid", [gate(pre, 3)], bh, body)
                fc = w.op("tad.mul.Tensor", [f, c], bh, body)
                ig = w.op("tad.mul.Tensor", [i, g], bh, body)
                c_new = w.op("tad.add.Tensor", [fc, ig], bh, body)
                h_new = w.op("tad.mul.Tensor", [o, w.op("tad.tanh", [c_new], bh, body)], bh,
                             body)
                if w_hr_t is not None:
                    h_new = w.op("tad.mm", [h_new, w_hr_t], [batch, out_size], body)
                new = [h_new, c_new]
            elif mode == "GRU":
                r = w.op("tad.sigmoid", [w.op("tad.add.Tensor", [gate(xw_t, 0), gate(hw, 0)],
                                             bh, body)], bh, body)
                z = w.op("tad.sigmoid", [w.op("tad.add.Tensor", [gate(xw_t, 1), gate(hw, 1)],
                                             bh, body)], bh, body)
                rh = w.op("tad.mul.Tensor", [r, gate(hw, 2)], bh, body)
                n = w.op("tad.tanh", [w.op("tad.add.Tensor", [gate(xw_t, 2), rh], bh, body)],
                         bh, body)
                # h' = (1 - z) n + z h = n + z (h - n)
                diff = w.op("tad.sub.Tensor", [h, n], bh, body)
                new = [w.op("tad.add.Tensor", [n, w.op("tad.mul.Tensor", [z, diff], bh, body)],
                            bh, body)]
            else:
                pre = w.op("tad.add.Tensor", [xw_t, hw], bh, body)
                act = "tad.tanh" if mode == "RNN_TANH" else "tad.relu"
                new = [w.op(act, [pre], bh, body)]
            seq_new = w.insert(new[0], seq_arg, [at, 0, 0], [1, batch, out_size], body)
            yields = new + [seq_new]
            w.line("scf.yield " + ", ".join(v[0] for v in yields) + " : "
                   + ", ".join(v[1] for v in yields), body)
            w.line("}", indent)
            results = [(f"{loop}#{k}", v[1]) for k, v in enumerate(carried)]
            outputs.append(results[-1])
            h_n = w.insert(results[0], h_n, [slot, 0, 0], [1, batch, out_size], indent)
            if mode == "LSTM":
                c_n = w.insert(results[1], c_n, [slot, 0, 0], [1, batch, hidden], indent)
        if directions == 1:
            layer_input = outputs[0]
        else:
            both = w.zeros([steps, batch, 2 * out_size], indent)
            for k, part in enumerate(outputs):
                both = w.insert(part, both, [0, 0, k * out_size], [steps, batch, out_size],
                                indent)
            layer_input = both
    out = layer_input
    if batch_first:
        dims = _shape(out[1])[0]
        out = w.op("tad.transpose.int", [out], [dims[1], dims[0], dims[2]], indent,
                   "dim0 = 0 : i64, dim1 = 1 : i64")
    from .torch_import import _Value
    emitter.ssa[node] = [_Value(*out), _Value(*h_n),
                         _Value(*(c_n if mode == "LSTM" else h_n))]


def emit_scan(emitter, node):
    """One ``tad_recurrent::scan`` node: its step traced once (with the carry,
    one step of xs and the parameters as inputs) and emitted as the body of
    an ``scf.for``; its results are the final carry, then the stacked ys."""
    from .torch_import import TadImportError, _bind, _Emitter, _Value, trace
    args = _bind(node.target._schema, node.args, node.kwargs)
    step, single = _steps[args["fn"]]
    init = emitter.value_of(node, args["init"])
    xs = emitter.value_of(node, args["xs"])
    params = emitter.value_of(node, args["params"])
    init_ex = [emitter.env[a] for a in args["init"]]
    xs_ex = emitter.env[args["xs"]]
    params_ex = [emitter.env[p] for p in args["params"]]
    k = len(init)

    def body(*flat):
        carry, x, ps = flat[:k], flat[k], flat[k + 1:]
        new, y = step(carry[0] if single else tuple(carry), x, *ps)
        return tuple([new] if single else list(new)) + (y,)

    examples = [t.detach().clone() for t in init_ex + [xs_ex[0]] + params_ex]
    gm = trace(body, examples)
    (xs_dims, elt) = _shape(xs[1])
    steps = xs_dims[0]
    w = _Writer(emitter, elt)
    indent = 1
    c0, c1, cT = w.index(0, indent), w.index(1, indent), w.index(steps, indent)

    # Emit the body once to learn y's type, into a separate list of lines.
    loop, t = emitter.fresh(), emitter.fresh()
    carried = [(emitter.fresh(), v[1]) for v in init]
    seq_arg = emitter.fresh()
    x_t = (emitter.fresh(), _ty(xs_dims[1:], elt))
    sub = _Emitter(gm, examples, "scan", (), (),
                   [f"arg{i}" for i in range(len(examples))])
    sub.counter = emitter.counter
    outputs = sub.inline([_Value(*v) for v in carried + [x_t] + list(params)])
    emitter.counter = sub.counter
    new_carry, y = outputs[:-1], outputs[-1]
    for before, after in zip(carried, new_carry):
        if before[1] != after.type:
            raise TadImportError(f"tad.scan: the step turns a carry of type {before[1]} into "
                                 f"{after.type}; the carry must keep its type")
    (y_dims, y_elt) = _shape(y.type)
    seq = w.zeros([steps] + y_dims, indent)
    inits = [f"{a[0]} = {v[0]}" for a, v in zip(carried, init)] + [f"{seq_arg} = {seq[0]}"]
    types = [v[1] for v in init] + [seq[1]]
    w.line(f"{loop}:{k + 1} = scf.for {t} = {c0} to {cT} step {c1} "
           f"iter_args({', '.join(inits)}) -> ({', '.join(types)}) {{", indent)
    w.line(f"{x_t[0]} = tensor.extract_slice {xs[0]}[{t}" + ", 0" * (len(xs_dims) - 1)
           + "] [1" + "".join(f", {d}" for d in xs_dims[1:]) + "] ["
           + ", ".join("1" for _ in xs_dims) + f"] : {xs[1]} to {x_t[1]}", indent + 1)
    emitter.lines += ["  " + line for line in sub.lines]
    seq_new = w.insert((y.ref, y.type), (seq_arg, seq[1]), [t] + [0] * len(y_dims),
                       [1] + y_dims, indent + 1)
    yields = [(v.ref, v.type) for v in new_carry] + [seq_new]
    w.line("scf.yield " + ", ".join(v[0] for v in yields) + " : "
           + ", ".join(v[1] for v in yields), indent + 1)
    w.line("}", indent)
    emitter.ssa[node] = [_Value(f"{loop}#{i}", types[i]) for i in range(k + 1)]
