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
- a constant of one value whose shape has one such size (the initial
  state ``torch.zeros(x.shape[0], hidden)`` of a recurrence) is made from
  an input with that size at run time (``_sized_splat``), and so is one
  that is an index pattern at both sizes: ``torch.arange`` along a
  dimension, a triangular mask (``_index_pattern``);
- anything else that differs (another attribute, another constant, a
  different op or graph) cannot be expressed and is refused with the line
  that differs, rather than specialising silently.

The result is checked again by tadc: it re-infers every op's result type
from the generalised operands (a wrong generalisation is a type error
there), and sizes that must agree are compared at run time.
"""
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

_TENSOR = re.compile(r"tensor<([^<>]*)>")
_ARRAY = re.compile(r"array<i64(?::\s*([^>]*))?>")
_SIZE_OPS = ("tad.view", "tad.reshape", "tad._unsafe_view")
_ARG = re.compile(r"(%[A-Za-z_][\w$.]*): tensor<([^<>]*)>( \{[^{}]*\})?")


class DynamicShapeError(ValueError):
    """The traced program cannot be made dynamic in the sizes asked for."""


class Dim:
    """A named dynamic size with bounds, for ``dynamic_shapes`` (in the
    spirit of torch.export's ``Dim``): ``Dim("batch", min=2, max=512)``.
    The compiled module checks the bounds at every call (``tad.dim_min``,
    ``tad.dim_max``: TAD_ERROR_SHAPE outside them). A bound of 0 or 1 is
    checked at import: a program that differs at size 1 is refused rather
    than given the minimum 2 that a plain name gets."""

    def __init__(self, name: str, min: Optional[int] = None, max: Optional[int] = None):
        if not (isinstance(name, str) and name.isidentifier()):
            raise DynamicShapeError(f"Dim: a size needs a name that is an identifier, "
                                    f"not {name!r}")
        if min is not None and int(min) < 0:
            raise DynamicShapeError(f"Dim '{name}': min must be non-negative, not {min}")
        if max is not None and int(max) < (0 if min is None else int(min)):
            raise DynamicShapeError(f"Dim '{name}': max {max} is below min {min or 0}")
        self.name = name
        self.min = None if min is None else int(min)
        self.max = None if max is None else int(max)

    def __repr__(self):
        return f"Dim({self.name!r}, min={self.min}, max={self.max})"


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
            if isinstance(name, Dim):
                name = name.name
            if not (isinstance(name, str) and name.isidentifier()):
                raise DynamicShapeError(f"dynamic_shapes: the size of input "
                                        f"{key} dimension {dim} needs a name "
                                        f"that is an identifier, not {name!r}")
            dims[d] = name
        result[index] = dims
    return result


def declared_bounds(dynamic_shapes) -> Dict[str, Dim]:
    """The ``Dim`` of each name that the user's form declares with one
    (names given as strings have none); raises where one name has two
    different bounds."""
    if isinstance(dynamic_shapes, dict):
        specs = list(dynamic_shapes.values())
    elif isinstance(dynamic_shapes, (list, tuple)):
        specs = list(dynamic_shapes)
    else:
        return {}
    found: Dict[str, Dim] = {}
    for spec in specs:
        for value in (spec.values() if isinstance(spec, dict) else ()):
            if not isinstance(value, Dim):
                continue
            known = found.setdefault(value.name, value)
            if (known.min, known.max) != (value.min, value.max):
                raise DynamicShapeError(f"dynamic_shapes: '{value.name}' has two sets "
                                        f"of bounds, {known!r} and {value!r}")
    return found


def check_example_sizes(sizes: Dict[str, int], grown: Dict[str, int],
                        bounds: Dict[str, Dim]) -> None:
    """Raises unless each declared size's example and grown trace sizes
    lie within its bounds."""
    for name, dim in bounds.items():
        if name not in sizes:
            continue
        low = dim.min or 0
        high = dim.max
        if sizes[name] < low or (high is not None and sizes[name] > high):
            raise DynamicShapeError(
                f"dynamic_shapes: the example gives '{name}' the size {sizes[name]}"
                f"{' (sizes of 1 are traced at 2)' if sizes[name] == 2 else ''}, "
                f"outside its bounds [{low}, {'inf' if high is None else high}]")
        if high is not None and grown[name] > high:
            raise DynamicShapeError(
                f"dynamic_shapes: '{name}' is traced at {grown[name]} too (one more "
                f"than the example, to see what depends on it), above its maximum "
                f"{high}; give an example below the maximum")


def symbol_names(spec: Dict[int, Dict[int, str]]) -> List[str]:
    """The distinct size names, in order of appearance."""
    names: List[str] = []
    for dims in spec.values():
        for name in dims.values():
            if name not in names:
                names.append(name)
    return names


def resized(torch, args: Sequence, spec: Dict[int, Dict[int, str]],
            grow: bool, at: Optional[Dict[str, int]] = None
            ) -> Tuple[list, Dict[str, int]]:
    """The inputs with their dynamic dimensions set to one size per name:
    the example's (at least 2, since PyTorch treats 1 as a broadcast), grown
    by k + 1 for the k-th name when ``grow``, and the sizes ``at`` gives
    for the names it has. Rows are repeated cyclically, so labels stay
    valid. Returns the inputs and the size of each name."""
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
    sizes.update({n: s for n, s in (at or {}).items() if n in sizes})
    out = list(args)
    for index, dims in spec.items():
        a = out[index]
        for d, name in dims.items():
            n = sizes[name]
            if a.shape[d] != n:
                a = a.index_select(d, torch.arange(n) % a.shape[d])
        out[index] = a
    return out, sizes


def _describe(sizes: Dict[str, int]) -> str:
    return ", ".join(f"'{n}' = {s}" for n, s in sizes.items())


def _refused(sizes: Dict[str, int], e: Exception) -> DynamicShapeError:
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return DynamicShapeError(
        f"cannot make the traced program dynamic: it does not run with "
        f"{_describe(sizes)} ({type(e).__name__}: {first}), so it is not the "
        "same program at every size")


def trace_at(trace: Callable[[list], str], args: list, sizes: Dict[str, int]) -> str:
    """``trace(args)`` for the inputs ``resized`` to ``sizes``; a model that
    PyTorch itself does not run at those sizes (a parameter as large as the
    batch: ``x * w``) is refused with a DynamicShapeError naming them, not
    PyTorch's error from inside the trace."""
    try:
        return trace(args)
    except DynamicShapeError:
        raise
    except Exception as e:  # noqa: BLE001 -- PyTorch refuses the sizes
        raise _refused(sizes, e) from None


def check_smaller_sizes(torch, trace: Callable[[list], str], args: Sequence,
                        spec: Dict[int, Dict[int, str]], text: str, text_b: str,
                        grown: Dict[str, int],
                        agrees: Optional[Callable[[str, list], bool]] = None,
                        bounds: Optional[Dict[str, Dim]] = None) -> str:
    """``text``, generalised from ``trace`` (the program's text for some
    inputs) at the example sizes and at the grown ones (``text_b``,
    ``grown``), checked below them. Two traces at neighbouring sizes cannot
    see a decision that holds at both but not below them (``min(rows,
    cols)`` of a tall matrix: an SVD's count of singular values). So:

    - with every size 2 (where an example size is larger), the program
      must be ``text`` too, else DynamicShapeError: one compiled program
      would be wrong at sizes in the middle of its range;
    - with each size 1 in turn: PyTorch treats a size 1 as a broadcast, and
      programs may differ there or not run (batch norm in training refuses
      one sample per channel). Where it differs, the arguments of that size
      get the minimum 2 (``tad.dim_min``), which the compiled module checks
      at every call: size 1 is an error there, not a wrong result. Many
      programs differ at 1 only in which kernels PyTorch picked (a size-1
      dimension makes a transposed input contiguous: ``addmm`` instead of
      ``mm`` + ``add``); ``agrees(text, inputs)``, where given, runs
      ``text`` on the inputs at size 1 and compares it with PyTorch, and
      where they agree there is no minimum.

    ``bounds`` (declared ``Dim``s) move the first check to the least
    declared minimum above 2 and skip the second for sizes declared from 2
    up; a size declared from 0 or 1 that differs at 1 is refused.

    Returns ``text`` with the minimums and the declared maximums."""
    bounds = bounds or {}
    names = symbol_names(spec)

    def same_at(at: Dict[str, int]) -> bool:
        """Raises DynamicShapeError where the trace differs, as False."""
        smaller, sizes = resized(torch, args, spec, grow=False, at=at)
        if generalize(trace(smaller), text_b, base=sizes, grown=grown) != text:
            raise DynamicShapeError("the trace generalises to another program")
        return True

    least = {n: max(2, bounds[n].min or 0) if n in bounds else 2 for n in names}
    example = resized(torch, args, spec, grow=False)[1]
    if any(example[n] > least[n] for n in names):
        sizes = _describe({n: least[n] for n in names})
        try:
            same = same_at(least)
        except DynamicShapeError:
            same = False
        except Exception as e:  # PyTorch itself refuses the smaller inputs
            raise _refused({n: least[n] for n in names}, e) from None
        if not same:
            raise DynamicShapeError(
                "cannot make the traced program dynamic: traced with "
                f"{sizes} it differs from the program traced at the example "
                "sizes (a decision that depends on the sizes, such as "
                "min(rows, cols), holds at the example sizes but not at smaller "
                "ones), so one compiled program would be wrong at some sizes")
    minimums = {n: bounds[n].min for n in names if n in bounds and (bounds[n].min or 0) >= 2}
    for name in names:
        if name in minimums:
            continue
        try:
            same = same_at({name: 1})
        except DynamicShapeError:  # another program at 1: run it to see
            same = agrees is not None and agrees(
                text, resized(torch, args, spec, grow=False, at={name: 1})[0])
        except Exception:  # noqa: BLE001 -- PyTorch refuses size 1: from 2 up
            same = False
        if same:
            continue
        if name in bounds and bounds[name].min is not None:
            raise DynamicShapeError(
                f"cannot make the traced program dynamic: '{name}' is declared from "
                f"{bounds[name].min}, but traced with '{name}' = 1 the program differs "
                "(or does not run) and its outputs do not match PyTorch's there; "
                "declare it from 2 (Dim(..., min=2))")
        minimums[name] = 2
    maximums = {n: bounds[n].max for n in names if n in bounds and bounds[n].max is not None}
    return with_bounds(text, minimums, maximums)


_DIM_NAMES = re.compile(r'tad\.dim_names = \[([^\[\]]*)\]')


def with_bounds(text: str, minimums: Dict[str, int], maximums: Dict[str, int]) -> str:
    """``text`` whose exported functions' arguments get ``tad.dim_min`` and
    ``tad.dim_max`` for the dimensions named in ``minimums`` (their least
    size) and ``maximums`` (their largest)."""
    if not minimums and not maximums:
        return text

    def add(m):
        names = [n.strip().strip('"') for n in m.group(1).split(",")]
        least = [minimums.get(n, 0) if n else 0 for n in names]
        most = [maximums.get(n, -1) if n else -1 for n in names]
        entry = m.group(0)
        if any(least):
            entry += ", tad.dim_min = array<i64: " + ", ".join(map(str, least)) + ">"
        if any(v >= 0 for v in most):
            entry += ", tad.dim_max = array<i64: " + ", ".join(map(str, most)) + ">"
        return entry

    return "\n".join(_DIM_NAMES.sub(add, line) if line.lstrip().startswith("func.func")
                     else line for line in text.split("\n"))


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


def _keeps_dynamic_sizes(pa: List[str], pb: List[str], diff: List[int]) -> bool:
    """Whether the ``tad.expand`` of the split lines ``pa``/``pb`` keeps its
    input's size at each position of ``diff`` (where the traces' size lists
    differ), so that -1 says it: the input's size there (aligned from the
    last) must differ between the traces too. A size 1 broadcast to a
    dynamic size, or a new leading dimension, is another tensor's size."""
    types_a = [p for p in pa if p.startswith("tensor<")]
    types_b = [p for p in pb if p.startswith("tensor<")]
    if not types_a or not types_b:
        return False
    ina = _TENSOR.fullmatch(types_a[0]).group(1).split("x")[:-1]
    inb = _TENSOR.fullmatch(types_b[0]).group(1).split("x")[:-1]
    sizes = len(_ints(_ARRAY.search("".join(pa)).group(1)))
    for j in diff:
        d = j - (sizes - len(ina))
        if d < 0 or ina[d] == inb[d]:
            return False
    return True


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
    arguments = []  # the current function's: (name, type at a, type at b)
    for la, lb in zip(lines_a, lines_b):
        if la.lstrip().startswith("func.func"):
            types_b = {m.group(1): m.group(2) for m in _ARG.finditer(lb)}
            arguments = [(m.group(1), f"tensor<{m.group(2)}>",
                          f"tensor<{types_b.get(m.group(1), m.group(2))}>")
                         for m in _ARG.finditer(la)]
        if la == lb:
            out.append(la)
            continue
        pa, pb = _split(la), _split(lb)
        if len(pa) != len(pb):
            raise _differs(la, lb, "an op differs")
        op = next((name for name in _SIZE_OPS + ("tad.expand",)
                   if f'"{name}"' in la or f"{name} " in la), None)
        if '"tad.constant"' in la:
            out.extend(_sized_constant(la, lb, arguments, len(out)))
            continue
        if "tensor.extract_slice" in la or "tensor.insert_slice" in la:
            out.extend(_dynamic_slice(la, lb, len(out)))
            continue
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
                if op == "tad.expand" and not _keeps_dynamic_sizes(pa, pb, diff):
                    raise _differs(la, lb, "an expand's size comes from another "
                                   "tensor's dynamic size (a broadcast to it), which "
                                   "a size list cannot say; expand_as can")
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


_CONSTANT = re.compile(r'^(\s*)(%[\w$.]+) = "tad\.constant"\(\) \{value = (dense<[^<>]*>) : '
                       r'(tensor<[^<>]*>)\} : \(\) -> (tensor<[^<>]*>)\s*$')


_CONSTANT_REFUSAL = (
    "a constant's shape depends on the dynamic sizes (a tensor made in "
    "Python from a size, such as torch.zeros(x.shape[0], ...), can be "
    "generalised only where it is one float value or an index pattern "
    "(torch.arange along one dimension, a triangular mask such as "
    "torch.ones(n, n).tril()), its other sizes are 1, and an input has "
    "each dynamic size; make it from an input, e.g. torch.zeros_like, or "
    "pass it as one)")


def _sized_constant(la: str, lb: str, arguments, serial: int) -> List[str]:
    """The lines replacing the ``tad.constant`` ``la`` whose shape differs
    from ``lb``'s: a splat (``_sized_splat``) or an index pattern
    (``_index_pattern``) made from inputs at run time; raises where neither
    applies."""
    ma, mb = _CONSTANT.match(la), _CONSTANT.match(lb)
    if not ma or not mb:
        raise _differs(la, lb, _CONSTANT_REFUSAL)
    ta, tb = ma.group(4), mb.group(4)
    generalized = _generalize_type(ta, tb)
    if generalized is None:
        raise _differs(la, lb, _CONSTANT_REFUSAL)
    dims = _TENSOR.fullmatch(generalized).group(1).split("x")
    da = _TENSOR.fullmatch(ta).group(1).split("x")
    db = _TENSOR.fullmatch(tb).group(1).split("x")
    # Each dynamic size of the constant, read from an input that has it.
    sources = {}
    for i, size in enumerate(dims[:-1]):
        if size == "?":
            sources[i] = _size_source((da[i], db[i]), arguments)
            if sources[i] is None:
                raise _differs(la, lb, _CONSTANT_REFUSAL)
    builder = _Builder(ma.group(1), serial)
    if ma.group(3) == mb.group(3) and len(sources) == 1 and \
            dims[-1].startswith(("f", "bf")):
        return _sized_splat(builder, ma.group(2), ma.group(3), dims, sources)
    lines = _index_pattern(builder, ma.group(2), (ma.group(3), da), (mb.group(3), db),
                           dims, sources)
    if lines is None:
        raise _differs(la, lb, _CONSTANT_REFUSAL)
    return lines


def _size_source(pair, arguments):
    """(name, generalised type, dimension) of the first argument with a
    dimension of sizes ``pair`` in the two traces, and no empty dimension
    (it is reduced to that dimension at index 0); None if none."""
    for name, ta, tb in arguments:
        sa = _TENSOR.fullmatch(ta).group(1).split("x")
        sb = _TENSOR.fullmatch(tb).group(1).split("x")
        if "0" in sa[:-1]:
            continue
        for d, (x, y) in enumerate(zip(sa[:-1], sb[:-1])):
            if (x, y) == pair:
                return name, _generalize_type(ta, tb), d
    return None


class _Builder:
    """Lines of generic tad ops at one indentation, with fresh names."""

    def __init__(self, indent: str, serial: int):
        self.indent, self.serial, self.count, self.lines = indent, serial, 0, []

    def op(self, text: str, result: Optional[str] = None) -> str:
        """Appends ``result = text``; returns the result's name."""
        if result is None:
            self.count += 1
            result = f"%dynsize{self.serial}_{self.count}"
        self.lines.append(f"{self.indent}{result} = {text}")
        return result

    def column(self, source, element: str) -> str:
        """The input ``source`` (name, type, dimension) reduced to that
        dimension (select.int at index 0 of the others): ``tensor<?x
        element>``, converted where the input's element type differs."""
        name, arg_type, d = source
        shape = _TENSOR.fullmatch(arg_type).group(1).split("x")
        kept, arg_element = shape[:-1], shape[-1]
        for j in reversed(range(len(kept))):  # the last first: indices hold
            if j == d:
                continue
            before = "tensor<" + "x".join(kept + [arg_element]) + ">"
            kept.pop(j)
            after = "tensor<" + "x".join(kept + [arg_element]) + ">"
            name = self.op(f'"tad.select.int"({name}) {{dim = {j} : i64, index = 0 : i64}} '
                           f': ({before}) -> {after}')
        if arg_element != element:
            name = self.op(f'"tad._to_copy"({name}) {{dtype = {element}}} '
                           f': (tensor<?x{arg_element}>) -> tensor<?x{element}>')
        return name

    def iota(self, dims: List[str], axis: int, sources, result: Optional[str] = None) -> str:
        """0, 1, ... along ``axis`` of the float64 shape ``dims`` (sizes
        1 elsewhere): from an input where the size is dynamic, else a
        constant."""
        rank = len(dims)
        shape = ["1"] * rank
        shape[axis] = dims[axis]
        shaped = "tensor<" + "x".join(shape + ["f64"]) + ">"
        if dims[axis] != "?":
            import numpy as np
            nested = str(np.arange(int(dims[axis]), dtype=np.float64)
                         .reshape([int(v) for v in shape]).tolist())
            return self.op(f'"tad.constant"() {{value = dense<{nested}> : {shaped}}} '
                           f': () -> {shaped}', result)
        vector = "tensor<?xf64>"
        ones = self.op(f'"tad.full_like"({self.column(sources[axis], "f64")}) '
                       f'{{fill_value = 1.000000e+00 : f64}} : ({vector}) -> {vector}')
        counts = self.op(f'"tad.cumsum"({ones}) {{dim = 0 : i64}} : ({vector}) -> {vector}')
        iota = self.op(f'"tad.sub.Scalar"({counts}) {{alpha = 1.000000e+00 : f64, '
                       f'other = 1.000000e+00 : f64}} : ({vector}) -> {vector}')
        sizes = ", ".join("-1" if j == axis else "1" for j in range(rank))
        return self.op(f'"tad.view"({iota}) {{size = array<i64: {sizes}>}} '
                       f': ({vector}) -> {shaped}', result)


def _sized_splat(builder: _Builder, result: str, value: str, dims: List[str],
                 sources) -> List[str]:
    """A splat constant whose shape has one dynamic size (the initial state
    ``torch.zeros(x.shape[0], hidden)`` of a recurrence): an input with
    that size reduced to it, zeros_like, viewed as a column of the
    constant's rank, plus the splat of every other size."""
    (i, source), = sources.items()
    element, rank = dims[-1], len(dims) - 1
    vector = f"tensor<?x{element}>"
    zeros = builder.op(f'"tad.zeros_like"({builder.column(source, element)}) '
                       f': ({vector}) -> {vector}')
    column = ["?" if j == i else "1" for j in range(rank)]
    column_type = "tensor<" + "x".join(column + [element]) + ">"
    view_sizes = ", ".join("-1" if j == i else "1" for j in range(rank))
    viewed = builder.op(f'"tad.view"({zeros}) {{size = array<i64: {view_sizes}>}} '
                        f': ({vector}) -> {column_type}')
    splat = ["1" if j == i else dims[j] for j in range(rank)]
    splat_type = "tensor<" + "x".join(splat + [element]) + ">"
    constant = builder.op(f'"tad.constant"() {{value = {value} : {splat_type}}} '
                          f': () -> {splat_type}')
    result_type = "tensor<" + "x".join(dims) + ">"
    builder.op(f'"tad.add.Tensor"({viewed}, {constant}) {{alpha = 1.0 : f64}} '
               f': ({column_type}, {splat_type}) -> {result_type}', result)
    return builder.lines


_MAX_PATTERN_ELEMENTS = 1 << 20


def _dense_values(value: str, sizes: List[str], element: str):
    """The elements of the literal ``dense<...>`` as a float64 NumPy array
    of ``sizes``; None where it is not a list of numbers or booleans (or
    hex of a numeric type)."""
    import ast
    import numpy as np
    shape = [int(v) for v in sizes]
    body = value[len("dense<"):-1]
    try:
        if body.startswith('"0x'):
            dtype = {"i32": np.int32, "i64": np.int64, "f32": np.float32,
                     "f64": np.float64}.get(element)
            if dtype is None:
                return None
            data = np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
        else:
            data = np.array(ast.literal_eval(
                body.replace("true", "1").replace("false", "0")), dtype=np.float64)
    except (ValueError, SyntaxError):
        return None
    data = data.astype(np.float64)
    if data.size == 1:
        return np.full(shape, data.reshape(-1)[0])
    return data.reshape(shape) if data.size == int(np.prod(shape)) else None


def _index_pattern(builder: _Builder, result: str, a, b, dims: List[str],
                   sources) -> Optional[List[str]]:
    """A constant that is the same function of its element's indices at
    both sizes, with sizes 1 outside the one or two dimensions it varies
    along: ``torch.arange(n)`` along a dimension (any element type), or
    the boolean mask ``j - i >= d`` (``<= d``) of rows i and columns j
    (``torch.ones(n, n).tril()``, a causal attention mask, the triangles
    of tad's sort and cumulative decompositions). Built from iotas of
    inputs with the dynamic sizes. None where it is neither."""
    import numpy as np
    element, rank = dims[-1], len(dims) - 1
    # Larger constants are not parsed (a sort of 8,000 values traces two
    # 8000x8000 masks, 400 MB of text each: refused, as before).
    if any(int(np.prod([int(v) for v in sizes[:-1]])) > _MAX_PATTERN_ELEMENTS
           for _, sizes in (a, b)):
        return None
    arrays = [_dense_values(value, sizes[:-1], element) for value, sizes in (a, b)]
    if any(x is None for x in arrays) or rank == 0:
        return None
    result_type = "tensor<" + "x".join(dims) + ">"

    def index(x, axis):
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        return np.arange(x.shape[axis], dtype=np.float64).reshape(shape)

    def only(axes):
        return all(x.shape[j] == 1 for x in arrays for j in range(rank) if j not in axes)

    if element != "i1":
        for k in range(rank):
            if only([k]) and all(np.array_equal(x, np.broadcast_to(index(x, k), x.shape))
                                 for x in arrays):
                if element == "f64":
                    builder.iota(dims[:-1], k, sources, result)
                    return builder.lines
                iota = builder.iota(dims[:-1], k, sources)
                source_type = "tensor<" + "x".join(dims[:-1] + ["f64"]) + ">"
                builder.op(f'"tad._to_copy"({iota}) {{dtype = {element}}} '
                           f': ({source_type}) -> {result_type}', result)
                return builder.lines
        return None
    for r in range(rank):
        for c in range(rank):
            if r == c or not only([r, c]):
                continue
            diffs = [index(x, c) - index(x, r) for x in arrays]
            first = arrays[0].astype(bool)
            if not first.any() or first.all():
                return None  # a splat, not a triangle
            for predicate, compare in (("ge", np.greater_equal), ("le", np.less_equal)):
                bound = diffs[0][first].min() if predicate == "ge" else diffs[0][first].max()
                if all(np.array_equal(x.astype(bool), np.broadcast_to(compare(d, bound), x.shape))
                       for x, d in zip(arrays, diffs)):
                    rows = builder.iota(dims[:-1], r, sources)
                    cols = builder.iota(dims[:-1], c, sources)
                    shape = ["1"] * rank
                    shape[r], shape[c] = dims[r], dims[c]
                    f64_type = "tensor<" + "x".join(shape + ["f64"]) + ">"
                    row_type = "tensor<" + "x".join(
                        [dims[r] if j == r else "1" for j in range(rank)] + ["f64"]) + ">"
                    col_type = "tensor<" + "x".join(
                        [dims[c] if j == c else "1" for j in range(rank)] + ["f64"]) + ">"
                    diff = builder.op(f'"tad.sub.Tensor"({cols}, {rows}) {{alpha = 1.000000e+00 : f64}} '
                                      f': ({col_type}, {row_type}) -> {f64_type}')
                    builder.op(f'"tad.{predicate}.Scalar"({diff}) {{other = {float(bound)} : f64}} '
                               f': ({f64_type}) -> {result_type}', result)
                    return builder.lines
    return None


_EXTRACT = re.compile(r"^(\s*)(%[\w$.:#]+) = tensor\.extract_slice (%[\w$.#]+)"
                      r"\[([^\]]*)\] \[([^\]]*)\] \[([^\]]*)\] : "
                      r"(tensor<[^<>]*>) to (tensor<[^<>]*>)\s*$")
_INSERT = re.compile(r"^(\s*)(%[\w$.:#]+) = tensor\.insert_slice (%[\w$.#]+) into "
                     r"(%[\w$.#]+)\[([^\]]*)\] \[([^\]]*)\] \[([^\]]*)\] : "
                     r"(tensor<[^<>]*>) into (tensor<[^<>]*>)\s*$")


def _dynamic_slice(la: str, lb: str, serial: int) -> List[str]:
    """A tensor.extract_slice/insert_slice (the recurrent emitter's) whose
    sizes differ between the traces only where the slice spans a whole
    dimension of the sliced tensor (the batch): those sizes are read with
    tensor.dim of that tensor, the types generalised. The lines replacing
    ``la``; raises where that does not apply."""
    refuse = _differs(la, lb, "a slice's sizes depend on the dynamic sizes "
                      "other than by spanning a whole dimension")
    extract = _EXTRACT.match(la)
    if extract:
        mb = _EXTRACT.match(lb)
        if not mb:
            raise refuse
        indent, result, whole = extract.group(1), extract.group(2), extract.group(3)
        offsets, sizes, strides = extract.group(4, 5, 6)
        types_a, types_b = extract.group(7, 8), mb.group(7, 8)
        sized_a, sized_b = types_a[0], types_b[0]  # the sliced tensor's type
        head = f"{indent}{result} = tensor.extract_slice {whole}"
        same = [extract.group(i) == mb.group(i) for i in (2, 3, 4, 6)]
    else:
        ma, mb = _INSERT.match(la), _INSERT.match(lb)
        if not ma or not mb:
            raise refuse
        indent, result, value, whole = ma.group(1, 2, 3, 4)
        offsets, sizes, strides = ma.group(5, 6, 7)
        types_a, types_b = ma.group(8, 9), mb.group(8, 9)
        sized_a, sized_b = types_a[1], types_b[1]  # the destination's
        head = f"{indent}{result} = tensor.insert_slice {value} into {whole}"
        same = [ma.group(i) == mb.group(i) for i in (2, 3, 4, 5, 7)]
    if not all(same):
        raise refuse
    sizes_a = [v.strip() for v in sizes.split(",")]
    sizes_b = [v.strip() for v in (mb.group(5) if extract else mb.group(6)).split(",")]
    dims_a = _TENSOR.fullmatch(sized_a).group(1).split("x")[:-1]
    dims_b = _TENSOR.fullmatch(sized_b).group(1).split("x")[:-1]
    offset_list = [v.strip() for v in offsets.split(",")]
    lines, generalized = [], []
    for j, (x, y) in enumerate(zip(sizes_a, sizes_b)):
        if x == y:
            generalized.append(x)
            continue
        if (len(sizes_a) != len(dims_a) or offset_list[j] != "0" or
                (x, y) != (dims_a[j], dims_b[j])):
            raise refuse
        index, size = f"%dynslice{serial}_{j}_i", f"%dynslice{serial}_{j}"
        lines.append(f"{indent}{index} = arith.constant {j} : index")
        lines.append(f"{indent}{size} = tensor.dim {whole}, {index} : "
                     f"{_generalize_type(sized_a, sized_b)}")
        generalized.append(size)
    types = [_generalize_type(a, b) for a, b in zip(types_a, types_b)]
    if None in types:
        raise refuse
    joiner = " to " if extract else " into "
    lines.append(f"{head}[{offsets}] [{', '.join(generalized)}] [{strides}] : "
                 f"{joiner.join(types)}")
    return lines


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
