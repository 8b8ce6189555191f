"""Dynamic sizes for imported programs (docs/dynamic-shapes.md).

The importer traces with real tensors, so every size in the program it
writes is a number. To make some input dimensions dynamic, the program is
traced twice: at the example sizes and with each dynamic size grown (the
k-th named size by k + 1). What the second program differs in is what
depends on those sizes:

- a tensor type's size that differs becomes ``?``;
- a ``view``/``reshape``/``_unsafe_view`` size list with exactly one
  differing entry gets ``-1`` there, an ``expand`` size list ``-1`` (keep
  the input's size) wherever it differs;
- anything else that differs (another attribute, a constant -- also a
  constant whose shape depends on the sizes, such as the initial state
  ``torch.zeros(x.shape[0], hidden)`` of a recurrence --, a different op or
  graph) cannot be expressed and is refused with the line that differs,
  rather than specialising silently.

The result is checked again by tadc: it re-infers every op's result type
from the generalised operands (a wrong generalisation is a type error
there), and sizes that must agree are compared at run time.
"""
import re
from typing import Dict, List, Optional, Sequence, Tuple

_TENSOR = re.compile(r"tensor<([^<>]*)>")
_ARRAY = re.compile(r"array<i64(?::\s*([^>]*))?>")
_SIZE_OPS = ("tad.view", "tad.reshape", "tad._unsafe_view")
_ARG = re.compile(r"(%[A-Za-z_][\w$.]*): tensor<([^<>]*)>( \{[^{}]*\})?")


class DynamicShapeError(ValueError):
    """The traced program cannot be made dynamic in the sizes asked for."""


def normalize(dynamic_shapes, example_args: Sequence, arg_names: Sequence[str]
              ) -> Dict[int, Dict[int, str]]:
    """``{input index: {dim: name}}`` from the user's form: a dict keyed by
    input index or by the name of the forward parameter, or a sequence
    aligned with the inputs (None for a static input); each entry maps a
    dimension to the name of its size (or is a sequence of dimensions,
    named ``d<input>_<dim>``)."""
    if dynamic_shapes is None:
        return {}
    if isinstance(dynamic_shapes, (list, tuple)):
        items = [(i, spec) for i, spec in enumerate(dynamic_shapes)]
    elif isinstance(dynamic_shapes, dict):
        items = list(dynamic_shapes.items())
    else:
        raise TypeError("dynamic_shapes must be a dict or a sequence, not "
                        f"{type(dynamic_shapes).__name__}")
    result: Dict[int, Dict[int, str]] = {}
    for key, spec in items:
        if spec is None:
            continue
        if isinstance(key, str):
            if key not in arg_names:
                raise DynamicShapeError(
                    f"dynamic_shapes names '{key}', which is not an input "
                    f"(inputs: {', '.join(arg_names)})")
            index = list(arg_names).index(key)
        else:
            index = int(key)
        if not 0 <= index < len(example_args):
            raise DynamicShapeError(f"dynamic_shapes: input {key} does not exist "
                                    f"({len(example_args)} inputs)")
        rank = len(example_args[index].shape)
        if not isinstance(spec, dict):
            spec = {d: f"d{index}_{d}" for d in spec}
        dims = {}
        for dim, name in spec.items():
            d = int(dim) + (rank if int(dim) < 0 else 0)
            if not 0 <= d < rank:
                raise DynamicShapeError(f"dynamic_shapes: input {key} has rank "
                                        f"{rank}, no dimension {dim}")
            if not (isinstance(name, str) and name.isidentifier()):
                raise DynamicShapeError(f"dynamic_shapes: the size of input "
                                        f"{key} dimension {dim} needs a name "
                                        f"that is an identifier, not {name!r}")
            dims[d] = name
        result[index] = dims
    return result


def symbol_names(spec: Dict[int, Dict[int, str]]) -> List[str]:
    """The distinct size names, in order of appearance."""
    names: List[str] = []
    for dims in spec.values():
        for name in dims.values():
            if name not in names:
                names.append(name)
    return names


def resized(torch, args: Sequence, spec: Dict[int, Dict[int, str]],
            grow: bool) -> Tuple[list, Dict[str, int]]:
    """The inputs with their dynamic dimensions set to one size per name:
    the example's (at least 2, since PyTorch treats 1 as a broadcast), grown
    by k + 1 for the k-th name when ``grow``. Rows are repeated cyclically,
    so labels stay valid. Returns the inputs and the size of each name."""
    names = symbol_names(spec)
    sizes: Dict[str, int] = {}
    for index, dims in spec.items():
        for d, name in dims.items():
            size = max(int(args[index].shape[d]), 2)
            if sizes.setdefault(name, size) != size:
                raise DynamicShapeError(
                    f"dynamic_shapes: the example inputs give '{name}' two "
                    f"sizes, {sizes[name]} and {size}")
    if grow:
        sizes = {n: s + names.index(n) + 1 for n, s in sizes.items()}
    out = list(args)
    for index, dims in spec.items():
        a = out[index]
        for d, name in dims.items():
            n = sizes[name]
            if a.shape[d] != n:
                a = a.index_select(d, torch.arange(n) % a.shape[d])
        out[index] = a
    return out, sizes


def _differs(line_a: str, line_b: str, what: str) -> DynamicShapeError:
    return DynamicShapeError(
        "cannot make the traced program dynamic: " + what + "; the two "
        "traces (example sizes and grown sizes) differ in\n  " +
        line_a.strip() + "\nand\n  " + line_b.strip())


def _split(line: str):
    """``line`` cut into tensor types, i64 arrays and the text between."""
    pieces, last = [], 0
    for m in re.finditer(r"tensor<[^<>]*>|array<i64(?::[^>]*)?>", line):
        pieces.append(line[last:m.start()])
        pieces.append(m.group(0))
        last = m.end()
    pieces.append(line[last:])
    return pieces


def _ints(text: Optional[str]) -> List[int]:
    return [int(v) for v in text.split(",")] if text and text.strip() else []


def _generalize_type(a: str, b: str) -> Optional[str]:
    """``tensor<4x3xf32>`` against ``tensor<5x3xf32>``: ``tensor<?x3xf32>``;
    None if they differ in more than sizes."""
    da, db = _TENSOR.fullmatch(a).group(1).split("x"), _TENSOR.fullmatch(b).group(1).split("x")
    if len(da) != len(db) or da[-1] != db[-1]:
        return None
    out = []
    for x, y in zip(da[:-1], db[:-1]):
        if x == y:
            out.append(x)
        elif x.isdigit() and y.isdigit():
            out.append("?")
        else:
            return None
    return "tensor<" + "x".join(out + [da[-1]]) + ">"


def generalize(text_a: str, text_b: str, grown: Dict[str, int] = None,
               base: Dict[str, int] = None) -> str:
    """``text_a`` with what differs in ``text_b`` made dynamic (see the
    module's doc). Arguments of exported functions get ``tad.dim_names``:
    a dynamic argument size is named after the size it was grown from
    (``base``/``grown``: each name's size in the two traces)."""
    lines_a, lines_b = text_a.splitlines(), text_b.splitlines()
    if len(lines_a) != len(lines_b):
        raise DynamicShapeError(
            "cannot make the traced program dynamic: its graph depends on "
            f"the sizes ({len(lines_a)} lines at the example sizes, "
            f"{len(lines_b)} at the grown sizes)")
    by_sizes = {(base[n], grown[n]): n for n in base} if base else {}
    out = []
    for la, lb in zip(lines_a, lines_b):
        if la == lb:
            out.append(la)
            continue
        pa, pb = _split(la), _split(lb)
        if len(pa) != len(pb):
            raise _differs(la, lb, "an op differs")
        op = next((name for name in _SIZE_OPS + ("tad.expand",)
                   if f'"{name}"' in la or f"{name} " in la), None)
        if '"tad.constant"' in la:
            raise _differs(la, lb, "a constant's shape depends on the dynamic "
                           "sizes (a tensor made in Python from a size, such as "
                           "torch.zeros(x.shape[0], ...); make it from an input "
                           "instead, e.g. torch.zeros_like, or pass it as one)")
        pieces = []
        for i, (x, y) in enumerate(zip(pa, pb)):
            if x == y:
                pieces.append(x)
            elif x.startswith("tensor<") and y.startswith("tensor<"):
                t = _generalize_type(x, y)
                if t is None:
                    raise _differs(la, lb, "a tensor type differs in more than its sizes")
                pieces.append(t)
            elif x.startswith("array<i64") and y.startswith("array<i64"):
                va, vb = _ints(_ARRAY.fullmatch(x).group(1)), _ints(_ARRAY.fullmatch(y).group(1))
                diff = [j for j, (p, q) in enumerate(zip(va, vb)) if p != q]
                if len(va) != len(vb) or op is None or (op != "tad.expand" and len(diff) != 1):
                    raise _differs(la, lb, "a size attribute depends on the dynamic sizes "
                                   "(only view/reshape with one such size, and expand, "
                                   "can be generalised)")
                for j in diff:
                    va[j] = -1
                pieces.append("array<i64: " + ", ".join(map(str, va)) + ">")
            else:
                raise _differs(la, lb, "something other than a size differs")
        line = "".join(pieces)
        if line.lstrip().startswith("func.func") and by_sizes:
            line = _name_arguments(line, la, lb, by_sizes)
        out.append(line)
    return "\n".join(out) + ("\n" if text_a.endswith("\n") else "")


def _name_arguments(line: str, la: str, lb: str, by_sizes) -> str:
    """Adds ``tad.dim_names`` to the dynamic arguments of a ``func.func``
    line (public functions: the ones exported)."""
    if "func.func private" in line:
        return line
    types_a = {m.group(1): m.group(2) for m in _ARG.finditer(la)}
    types_b = {m.group(1): m.group(2) for m in _ARG.finditer(lb)}

    def named(m):
        k, attrs = m.group(1), m.group(3)
        da, db = types_a[k].split("x")[:-1], types_b[k].split("x")[:-1]
        if da == db:
            return m.group(0)
        names = []
        for x, y in zip(da, db):
            names.append("" if x == y else by_sizes.get((int(x), int(y)), ""))
        entry = "tad.dim_names = [" + ", ".join(f'"{n}"' for n in names) + "]"
        head = m.group(0)[:len(m.group(0)) - len(attrs or "")]
        if attrs:
            return f"{head} {{{entry}, {attrs.strip()[1:-1].strip()}}}"
        return f"{head} {{{entry}}}"

    return _ARG.sub(named, line)
