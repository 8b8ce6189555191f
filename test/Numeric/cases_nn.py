"""Numeric test cases of the NN ops: softmax,
normalization, convolution, pooling and losses. Shapes are small: the
finite differences cost two calls per input element."""

import glob
import os

import numpy as np

from gradcheck import Case
from matrix_common import normal, positive, rng, t


def ti(shape):
    return "tensor<%si64>" % "".join("%dx" % d for d in shape)


def func(args, op, operands, attrs, in_types, out_types, keep=1):
    """@f(args) = the first `keep` results of one op.

    args: list of (name, type string); op: tad op name; operands: the
    operand text after the op name; attrs: attribute dict text."""
    params = ", ".join("%%%s: %s" % (n, ty) for n, ty in args)
    outs = out_types if len(out_types) > 1 else out_types
    out_text = ("(%s)" % ", ".join(outs)) if len(outs) > 1 else outs[0]
    nres = len(outs)
    lhs = "%%r:%d" % nres if nres > 1 else "%r"
    kept = ["%%r#%d" % i for i in range(keep)] if nres > 1 else ["%r"]
    return """
func.func @f(%s) -> (%s) {
  %s = tad.%s %s %s : (%s) -> %s
  return %s : %s
}""" % (params, ", ".join(outs[:keep]), lhs, op, operands, attrs,
        ", ".join(in_types), out_text, ", ".join(kept), ", ".join(outs[:keep]))


def softmax(op, shape, dim):
    T = t(shape)
    return """
func.func @f(%%x: %s) -> %s {
  %%0 = tad.%s %%x {dim = %d : i64, half_to_float = false} : %s
  return %%0 : %s
}""" % (T, T, op, dim, T, T)


def layer_norm(shape, normalized, affine=True):
    stats = list(shape[:len(shape) - len(normalized)]) + [1] * len(normalized)
    args = [("x", t(shape))]
    operands = "%x"
    ins = [t(shape)]
    if affine:
        args += [("w", t(normalized)), ("b", t(normalized))]
        operands += " weight %w bias %b"
        ins += [t(normalized), t(normalized)]
    return func(args, "native_layer_norm", operands,
                "{normalized_shape = array<i64: %s>, eps = 1.0e-5 : f64}"
                % ", ".join(map(str, normalized)),
                ins, [t(shape), t(stats), t(stats)])


def batch_norm(op, shape, training, affine=True, running=True):
    c = shape[1]
    stat = [c] if training else [0]
    args = [("x", t(shape))]
    operands = "%x"
    ins = [t(shape)]
    if affine:
        args += [("w", t([c])), ("b", t([c]))]
        operands += " weight %w bias %b"
        ins += [t([c]), t([c])]
    if running:
        args += [("rm", t([c]) + " {tad.nondiff}"), ("rv", t([c]) + " {tad.nondiff}")]
        ins += [t([c]), t([c])]
        operands += (" running %rm, %rv" if op != "native_batch_norm"
                     else " running_mean %rm running_var %rv")
    attrs = "{momentum = 0.1 : f64, eps = 1.0e-5 : f64%s}" % (
        "" if op == "_native_batch_norm_legit_no_training"
        else ", training = %s" % ("true" if training else "false"))
    return func(args, op, operands, attrs, ins, [t(shape), t(stat), t(stat)])


def group_norm(shape, group):
    n, c = shape[0], shape[1]
    hxw = int(np.prod(shape[2:]))
    return func([("x", t(shape)), ("w", t([c])), ("b", t([c]))],
                "native_group_norm", "%x weight %w bias %b",
                "{N = %d : i64, C = %d : i64, HxW = %d : i64, group = %d : i64, "
                "eps = 1.0e-5 : f64}" % (n, c, hxw, group),
                [t(shape), t([c]), t([c])],
                [t(shape), t([n, group]), t([n, group])])


def conv_out(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def conv_attrs(spatial, stride, padding, dilation, groups):
    def arr(v):
        return "array<i64: %s>" % ", ".join(map(str, v))
    return ("{stride = %s, padding = %s, dilation = %s, transposed = false, "
            "output_padding = %s, groups = %d : i64}" % (
                arr(stride), arr(padding), arr(dilation), arr([0] * spatial), groups))


def conv_shapes(xs, ws, stride, padding, dilation):
    spatial = len(xs) - 2
    out = [xs[0], ws[0]] + [
        conv_out(xs[2 + i], ws[2 + i], stride[i], padding[i], dilation[i])
        for i in range(spatial)]
    return out


def conv(xs, ws, stride, padding, dilation, groups, bias=True):
    spatial = len(xs) - 2
    out = conv_shapes(xs, ws, stride, padding, dilation)
    args = [("x", t(xs)), ("w", t(ws))]
    ins = [t(xs), t(ws)]
    operands = "%x, %w"
    if bias:
        args.append(("b", t([ws[0]])))
        ins.append(t([ws[0]]))
        operands += " bias %b"
    return func(args, "convolution", operands,
                conv_attrs(spatial, stride, padding, dilation, groups), ins, [t(out)])


def conv_backward(xs, ws, stride, padding, dilation, groups, mask=(1, 1, 1)):
    spatial = len(xs) - 2
    out = conv_shapes(xs, ws, stride, padding, dilation)
    attrs = conv_attrs(spatial, stride, padding, dilation, groups)[:-1] + (
        ", output_mask = array<i1: %s>}" % ", ".join("true" if m else "false"
                                                    for m in mask))
    return func([("g", t(out)), ("x", t(xs)), ("w", t(ws))], "convolution_backward",
                "%g, %x, %w", attrs, [t(out), t(xs), t(ws)],
                [t(xs), t(ws), t([ws[0]])], keep=3), out


def pool_out(size, k, s, p, d, ceil):
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    out = num // s + 1
    if ceil and (out - 1) * s >= size + p:
        out -= 1
    return out


def pool_shape(xs, k, s, p, d, ceil):
    return list(xs[:-2]) + [pool_out(xs[-2 + i], k[i], s[i], p[i], d[i], ceil)
                            for i in range(2)]


def arr(v):
    return "array<i64: %s>" % ", ".join(map(str, v))


def max_pool(xs, k, s, p, d, ceil=False):
    out = pool_shape(xs, k, s, p, d, ceil)
    attrs = "{kernel_size = %s, stride = %s, padding = %s, dilation = %s, ceil_mode = %s}" % (
        arr(k), arr(s), arr(p), arr(d), "true" if ceil else "false")
    return func([("x", t(xs))], "max_pool2d_with_indices", "%x", attrs, [t(xs)],
                [t(out), ti(out)], keep=1)


def max_pool_backward(xs, k, s, p, d, ceil=False):
    out = pool_shape(xs, k, s, p, d, ceil)
    attrs = "{kernel_size = %s, stride = %s, padding = %s, dilation = %s, ceil_mode = %s}" % (
        arr(k), arr(s), arr(p), arr(d), "true" if ceil else "false")
    return """
func.func @f(%%g: %(O)s, %%x: %(X)s) -> %(X)s {
  %%v:2 = tad.max_pool2d_with_indices %%x %(A)s : (%(X)s) -> (%(O)s, %(I)s)
  %%r = tad.max_pool2d_with_indices_backward %%g, %%x, %%v#1 %(A)s : (%(O)s, %(X)s, %(I)s) -> %(X)s
  return %%r : %(X)s
}""" % {"O": t(out), "X": t(xs), "I": ti(out), "A": attrs}, out


def avg_attrs(k, s, p, ceil, include, divisor):
    extra = ", divisor_override = %d : i64" % divisor if divisor else ""
    return ("{kernel_size = %s, stride = %s, padding = %s, ceil_mode = %s, "
            "count_include_pad = %s%s}" % (arr(k), arr(s), arr(p),
                                           "true" if ceil else "false",
                                           "true" if include else "false", extra))


def avg_pool(xs, k, s, p, ceil=False, include=True, divisor=None):
    out = pool_shape(xs, k, s, p, [1, 1], ceil)
    return func([("x", t(xs))], "avg_pool2d", "%x",
                avg_attrs(k, s, p, ceil, include, divisor), [t(xs)], [t(out)])


def avg_pool_backward(xs, k, s, p, ceil=False, include=True, divisor=None):
    out = pool_shape(xs, k, s, p, [1, 1], ceil)
    return func([("g", t(out)), ("x", t(xs))], "avg_pool2d_backward", "%g, %x",
                avg_attrs(k, s, p, ceil, include, divisor), [t(out), t(xs)],
                [t(xs)]), out


def adaptive(xs, out):
    os = list(xs[:-2]) + list(out)
    return func([("x", t(xs))], "_adaptive_avg_pool2d", "%x",
                "{output_size = %s}" % arr(out), [t(xs)], [t(os)])


def adaptive_backward(xs, out):
    os = list(xs[:-2]) + list(out)
    return func([("g", t(os)), ("x", t(xs))], "_adaptive_avg_pool2d_backward",
                "%g, %x", "", [t(os), t(xs)], [t(xs)]), os


def nll(op, xs, reduction, weight=False, ignore=-100):
    class_dim = 0 if len(xs) == 1 else 1
    ts = [d for i, d in enumerate(xs) if i != class_dim]
    out = ts if reduction == 0 else []
    args = [("x", t(xs)), ("y", ti(ts))]
    ins = [t(xs), ti(ts)]
    operands = "%x, %y"
    if weight:
        args.append(("w", t([xs[class_dim]]) + " {tad.nondiff}"))
        ins.append(t([xs[class_dim]]))
        operands += " weight %w"
    return func(args, op, operands,
                "{reduction = %d : i64, ignore_index = %d : i64}" % (reduction, ignore),
                ins, [t(out), t([])], keep=1), ts


def targets(ts, classes, ignore=None):
    y = rng.integers(0, classes, ts)
    if ignore is not None:
        y.flat[0] = ignore
    return y.astype(np.int64)


def nll_backward(op, xs, reduction, weight=False, ignore=-100):
    class_dim = 0 if len(xs) == 1 else 1
    ts = [d for i, d in enumerate(xs) if i != class_dim]
    gs = ts if reduction == 0 else []
    fwd = op.replace("_backward", "_forward")
    w_arg = ", %%w: %s {tad.nondiff}" % t([xs[class_dim]]) if weight else ""
    w_op = " weight %w" if weight else ""
    w_ty = ", " + t([xs[class_dim]]) if weight else ""
    attrs = "{reduction = %d : i64, ignore_index = %d : i64}" % (reduction, ignore)
    return """
func.func @f(%%g: %(G)s, %%x: %(X)s, %%y: %(Y)s%(WA)s) -> %(X)s {
  %%l:2 = tad.%(F)s %%x, %%y%(WO)s %(A)s : (%(X)s, %(Y)s%(WT)s) -> (%(G)s, tensor<f64>)
  %%r = tad.%(B)s %%g, %%x, %%y%(WO)s total_weight %%l#1 %(A)s : (%(G)s, %(X)s, %(Y)s%(WT)s, tensor<f64>) -> %(X)s
  return %%r : %(X)s
}""" % {"G": t(gs), "X": t(xs), "Y": ti(ts), "WA": w_arg, "WO": w_op, "WT": w_ty,
        "A": attrs, "F": fwd, "B": op}, ts, gs


def pointwise_loss(op, xs, ys, reduction, extra="", optionals=()):
    out = list(np.broadcast_shapes(tuple(xs), tuple(ys))) if reduction == 0 else []
    args = [("x", t(xs)), ("y", t(ys))]
    ins = [t(xs), t(ys)]
    operands = "%x, %y"
    for name, shape in optionals:
        args.append((name, t(shape) + " {tad.nondiff}"))
        ins.append(t(shape))
        operands += " %s %%%s" % (name if name != "pw" else "pos_weight", name)
    attrs = "{reduction = %d : i64%s}" % (reduction, extra)
    return func(args, op, operands, attrs, ins, [t(out)])


def probs(*shape):
    return rng.uniform(0.1, 0.9, shape)


def robust_pair(shape, threshold):
    """self, target whose differences stay away from +-threshold."""
    x = normal(*shape)
    mags = rng.choice([0.4, 2.0], shape) * threshold + rng.uniform(0, 0.3, shape) * threshold
    return x, x - mags * rng.choice([-1.0, 1.0], shape)


def have_op(name):
    """Whether the dialect defines tad.<name> (some rules use ops of other
    families: max pooling's JVP and double backward need `gather`)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in glob.glob(os.path.join(here, "..", "..", "dialects", "Tad", "*.td")):
        if '"%s(' % name in open(path).read():
            return True
    return False


HAVE_GATHER = have_op("gather") and not os.environ.get("TAD_TEST_NO_GATHER")


def needs_gather(case, modes=("vjp",)):
    """Without `gather`, check only `modes` of a max-pooling case."""
    if not HAVE_GATHER:
        case.modes = modes
    return case


def _cases():
    cb, cb_out = conv_backward([1, 2, 5, 5], [3, 2, 3, 3], [2, 2], [1, 1], [1, 1], 1)
    cbg, cbg_out = conv_backward([2, 4, 6], [4, 2, 2], [1], [1], [2], 2)
    # Kernel offsets whose windows miss the input (stride 3, pad 2).
    cbs, cbs_out = conv_backward([1, 4, 4, 5], [2, 2, 3, 2], [3, 2], [2, 1], [1, 2], 2)
    mpc, mpc_out = max_pool_backward([1, 2, 6, 7], [2, 3], [2, 2], [1, 1], [2, 1], True)
    apc, apc_out = avg_pool_backward([2, 1, 5, 6], [2, 3], [2, 2], [1, 1], True, True)
    mpb, mpb_out = max_pool_backward([1, 2, 5, 5], [3, 3], [2, 2], [1, 1], [1, 1])
    apb, apb_out = avg_pool_backward([1, 2, 5, 5], [3, 3], [2, 2], [1, 1], False, False)
    adb, adb_out = adaptive_backward([1, 2, 5, 7], [2, 3])
    nb, nb_ts, nb_gs = nll_backward("nll_loss_backward", [4, 5], 1, weight=True)
    nbn, nbn_ts, nbn_gs = nll_backward("nll_loss_backward", [4, 5], 0)
    n2b, n2b_ts, n2b_gs = nll_backward("nll_loss2d_backward", [2, 3, 2, 2], 2, weight=True)
    nl1, nl1_ts = nll("nll_loss_forward", [4, 5], 1, weight=True)
    nl2, nl2_ts = nll("nll_loss_forward", [4, 5], 2)
    nl0, nl0_ts = nll("nll_loss_forward", [4, 5], 0, weight=True, ignore=1)
    nlv, nlv_ts = nll("nll_loss_forward", [5], 1)
    nlm, nlm_ts = nll("nll_loss_forward", [4, 5], 1, weight=True, ignore=2)
    n2d, n2d_ts = nll("nll_loss2d_forward", [2, 3, 2, 2], 1, weight=True)
    return {
        "softmax": [
            Case("_softmax dim=1", softmax("_softmax", [3, 4], 1), [normal(3, 4)]),
            Case("_softmax dim=0", softmax("_softmax", [3, 4], 0), [normal(3, 4)]),
            Case("_softmax dim=-1 3-d", softmax("_softmax", [2, 3, 4], -1),
                 [normal(2, 3, 4)]),
            Case("_log_softmax dim=1", softmax("_log_softmax", [3, 4], 1), [normal(3, 4)]),
            Case("_log_softmax dim=1 3-d", softmax("_log_softmax", [2, 3, 4], 1),
                 [normal(2, 3, 4)]),
        ],
        "norm": [
            Case("native_layer_norm affine", layer_norm([3, 4], [4]),
                 [normal(3, 4), normal(4), normal(4)]),
            Case("native_layer_norm 2 dims", layer_norm([2, 3, 4], [3, 4]),
                 [normal(2, 3, 4), normal(3, 4), normal(3, 4)]),
            Case("native_layer_norm no affine", layer_norm([2, 5], [5], False),
                 [normal(2, 5)]),
            Case("native_batch_norm training", batch_norm("native_batch_norm", [4, 3], True),
                 [normal(4, 3), normal(3), normal(3), normal(3), positive(3)], diff=[0, 1, 2]),
            Case("native_batch_norm training 4-d no running",
                 batch_norm("native_batch_norm", [2, 3, 2, 2], True, running=False),
                 [normal(2, 3, 2, 2), normal(3), normal(3)]),
            Case("native_batch_norm eval", batch_norm("native_batch_norm", [3, 2, 2], False),
                 [normal(3, 2, 2), normal(2), normal(2), normal(2), positive(2)],
                 diff=[0, 1, 2]),
            Case("_native_batch_norm_legit training",
                 batch_norm("_native_batch_norm_legit", [2, 3, 3], True),
                 [normal(2, 3, 3), normal(3), normal(3), normal(3), positive(3)],
                 diff=[0, 1, 2]),
            Case("_native_batch_norm_legit_no_training",
                 batch_norm("_native_batch_norm_legit_no_training", [2, 3, 2], False),
                 [normal(2, 3, 2), normal(3), normal(3), normal(3), positive(3)],
                 diff=[0, 1, 2]),
            Case("native_group_norm", group_norm([2, 4, 3], 2),
                 [normal(2, 4, 3), normal(4), normal(4)]),
            Case("native_group_norm 4-d", group_norm([1, 6, 2, 2], 3),
                 [normal(1, 6, 2, 2), normal(6), normal(6)]),
        ],
        "conv": [
            Case("convolution 2-d pad 1 bias",
                 conv([1, 2, 4, 4], [3, 2, 3, 3], [1, 1], [1, 1], [1, 1], 1),
                 [normal(1, 2, 4, 4), normal(3, 2, 3, 3), normal(3)]),
            Case("convolution 2-d stride 2 no bias",
                 conv([2, 1, 5, 5], [2, 1, 3, 2], [2, 2], [0, 1], [1, 1], 1, bias=False),
                 [normal(2, 1, 5, 5), normal(2, 1, 3, 2)]),
            Case("convolution 2-d dilation 2 groups 2",
                 conv([1, 4, 5, 5], [4, 2, 2, 2], [1, 1], [1, 1], [2, 2], 2),
                 [normal(1, 4, 5, 5), normal(4, 2, 2, 2), normal(4)]),
            Case("convolution 1-d stride 2 pad 1",
                 conv([2, 2, 7], [3, 2, 3], [2], [1], [1], 1),
                 [normal(2, 2, 7), normal(3, 2, 3), normal(3)]),
            Case("convolution 1-d groups 2 dilation 2",
                 conv([1, 4, 8], [2, 2, 3], [1], [2], [2], 2),
                 [normal(1, 4, 8), normal(2, 2, 3), normal(2)]),
            Case("convolution_backward 2-d stride 2", cb,
                 [normal(*cb_out), normal(1, 2, 5, 5), normal(3, 2, 3, 3)]),
            Case("convolution_backward 1-d groups dilation", cbg,
                 [normal(*cbg_out), normal(2, 4, 6), normal(4, 2, 2)]),
            Case("convolution 2-d groups 3 channel multiplier 2 non-square",
                 conv([2, 3, 7, 6], [6, 1, 3, 2], [2, 1], [2, 1], [2, 1], 3),
                 [normal(2, 3, 7, 6), normal(6, 1, 3, 2), normal(6)]),
            Case("convolution_backward 2-d stride 3 pad 2 groups 2", cbs,
                 [normal(*cbs_out), normal(1, 4, 4, 5), normal(2, 2, 3, 2)]),
        ],
        "pool": [
            needs_gather(Case("max_pool2d_with_indices k2", max_pool([1, 2, 4, 4], [2, 2], [2, 2],
                                                        [0, 0], [1, 1]),
                 [normal(1, 2, 4, 4)])),
            needs_gather(Case("max_pool2d_with_indices k3 s2 p1 3-d",
                 max_pool([2, 5, 5], [3, 3], [2, 2], [1, 1], [1, 1]), [normal(2, 5, 5)])),
            needs_gather(Case("max_pool2d_with_indices dilation 2 ceil",
                 max_pool([1, 1, 6, 6], [2, 2], [2, 2], [0, 0], [2, 2], True),
                 [normal(1, 1, 6, 6)])),
            needs_gather(Case("max_pool2d_with_indices_backward", mpb,
                 [normal(*mpb_out), normal(1, 2, 5, 5)]), modes=("jvp",)),
            needs_gather(Case("max_pool2d_with_indices_backward ceil dilation", mpc,
                 [normal(*mpc_out), normal(1, 2, 6, 7)]), modes=("jvp",)),
            Case("avg_pool2d k2", avg_pool([1, 2, 4, 4], [2, 2], [2, 2], [0, 0]),
                 [normal(1, 2, 4, 4)]),
            Case("avg_pool2d k3 s2 p1 exclude pad",
                 avg_pool([1, 1, 5, 5], [3, 3], [2, 2], [1, 1], include=False),
                 [normal(1, 1, 5, 5)]),
            Case("avg_pool2d ceil 3-d", avg_pool([2, 5, 5], [2, 2], [2, 2], [0, 0], ceil=True),
                 [normal(2, 5, 5)]),
            Case("avg_pool2d divisor_override",
                 avg_pool([1, 1, 4, 4], [3, 3], [1, 1], [1, 1], divisor=4),
                 [normal(1, 1, 4, 4)]),
            Case("avg_pool2d_backward", apb, [normal(*apb_out), normal(1, 2, 5, 5)]),
            Case("avg_pool2d_backward ceil non-square", apc,
                 [normal(*apc_out), normal(2, 1, 5, 6)]),
            Case("_adaptive_avg_pool2d", adaptive([1, 2, 5, 7], [2, 3]),
                 [normal(1, 2, 5, 7)]),
            Case("_adaptive_avg_pool2d global 3-d", adaptive([2, 3, 3], [1, 1]),
                 [normal(2, 3, 3)]),
            Case("_adaptive_avg_pool2d_backward", adb, [normal(*adb_out), normal(1, 2, 5, 7)]),
        ],
        "nll-bce-huber": [
            Case("nll_loss_forward mean weight", nl1,
                 [normal(4, 5), targets(nl1_ts, 5), positive(5)], diff=[0]),
            Case("nll_loss_forward sum", nl2, [normal(4, 5), targets(nl2_ts, 5)]),
            Case("nll_loss_forward none ignore_index", nl0,
                 [normal(4, 5), targets(nl0_ts, 5, ignore=1), positive(5)], diff=[0]),
            Case("nll_loss_forward mean ignore_index", nlm,
                 [normal(4, 5), targets(nlm_ts, 5, ignore=2), positive(5)], diff=[0]),
            Case("nll_loss_forward 1-d", nlv, [normal(5), targets(nlv_ts, 5)]),
            Case("nll_loss2d_forward mean weight", n2d,
                 [normal(2, 3, 2, 2), targets(n2d_ts, 3), positive(3)], diff=[0]),
            Case("nll_loss_backward mean weight", nb,
                 [normal(*nb_gs), normal(4, 5), targets(nb_ts, 5), positive(5)], diff=[0, 1]),
            Case("nll_loss_backward none", nbn,
                 [normal(*nbn_gs), normal(4, 5), targets(nbn_ts, 5)]),
            Case("nll_loss2d_backward sum weight", n2b,
                 [normal(*n2b_gs), normal(2, 3, 2, 2), targets(n2b_ts, 3), positive(3)],
                 diff=[0, 1]),
            Case("binary_cross_entropy mean",
                 pointwise_loss("binary_cross_entropy", [3, 4], [3, 4], 1),
                 [probs(3, 4), probs(3, 4)]),
            Case("binary_cross_entropy none weight",
                 pointwise_loss("binary_cross_entropy", [3, 4], [3, 4], 0,
                                optionals=[("weight", [4])]),
                 [probs(3, 4), probs(3, 4), positive(4)], diff=[0, 1]),
            Case("binary_cross_entropy_with_logits mean",
                 pointwise_loss("binary_cross_entropy_with_logits", [3, 4], [3, 4], 1),
                 [normal(3, 4), probs(3, 4)]),
            Case("binary_cross_entropy_with_logits sum weight pos_weight",
                 pointwise_loss("binary_cross_entropy_with_logits", [3, 4], [3, 4], 2,
                                optionals=[("weight", [3, 4]), ("pw", [4])]),
                 [normal(3, 4), probs(3, 4), positive(3, 4), positive(4)], diff=[0, 1]),
            Case("smooth_l1_loss mean beta 0.5",
                 pointwise_loss("smooth_l1_loss", [3, 4], [3, 4], 1, ", beta = 5.0e-1 : f64"),
                 list(robust_pair((3, 4), 0.5))),
            Case("smooth_l1_loss none",
                 pointwise_loss("smooth_l1_loss", [3, 4], [3, 4], 0),
                 list(robust_pair((3, 4), 1.0))),
            Case("huber_loss sum delta 2",
                 pointwise_loss("huber_loss", [3, 4], [3, 4], 2, ", delta = 2.0 : f64"),
                 list(robust_pair((3, 4), 2.0))),
            Case("huber_loss mean",
                 pointwise_loss("huber_loss", [2, 3], [2, 3], 1),
                 list(robust_pair((2, 3), 1.0))),
        ],
    }


FAMILIES = _cases()
