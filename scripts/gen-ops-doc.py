#!/usr/bin/env python3
"""Generates docs/ops.md, the table of tad ops, from dialects/Tad/TadOps.td.

TableGen itself reads the ODS (llvm-tblgen --dump-json), so the table sees
exactly the records the C++ is generated from: op name, the ATen schema
(`atenSchema` of Tad_AtenOp), summary, operand element types and attributes
with their defaults.

    /usr/bin/python3 scripts/gen-ops-doc.py           # rewrite docs/ops.md
    /usr/bin/python3 scripts/gen-ops-doc.py --check   # fail if it is stale

To add a column, append a Column to COLUMNS: it gets the op's record (a dict
of TableGen fields) and the whole record dump, and returns the cell's text.
"""
import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
TD_FILE = REPO / "dialects" / "Tad" / "TadOps.td"
OUT_FILE = REPO / "docs" / "ops.md"
LLVM_PREFIX = Path("/usr/lib/llvm-22")
DIALECT = "Tad_Dialect"


def dump_records(tblgen: str) -> dict:
    """All TableGen records of TadOps.td, as llvm-tblgen --dump-json gives them."""
    cmd = [tblgen, "--dump-json", "-I", str(LLVM_PREFIX / "include"),
           "-I", str(REPO), str(TD_FILE)]
    try:
        result = subprocess.run(cmd, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit(f"gen-ops-doc: {tblgen} not found (use --tblgen)")
    except subprocess.CalledProcessError as error:
        sys.exit(f"gen-ops-doc: {' '.join(cmd)} failed:\n{error.stderr}")
    return json.loads(result.stdout)


def ref(value) -> str:
    """Name of the record a field refers to ('' when not a record)."""
    return value.get("def", "") if isinstance(value, dict) else ""


def tad_ops(records: dict) -> list:
    """The dialect's ops in the order of TadOps.td."""
    ops = [records[name] for name in records["!instanceof"]["Op"]
           if ref(records[name].get("opDialect")) == DIALECT]

    def position(op):
        file, _, line = op["!locs"][0].rpartition(":")
        return (file, int(line))
    return sorted(ops, key=position)


def arguments(op: dict) -> list:
    """(constraint record name, argument name) pairs of `arguments`."""
    return [(ref(arg), name) for arg, name in op["arguments"]["args"]]


def is_attr(records: dict, name: str) -> bool:
    return "Attr" in records[name]["!superclasses"]


def element_types(records: dict, constraint: str) -> list:
    """Element types of a ranked tensor constraint, e.g. ['f32', 'f64'].

    TableGen keeps RankedTensorOf's type list only in the summary ("ranked
    tensor of 32-bit float or 64-bit float values"), so the summaries of the
    builtin scalar types (F32, I64, ...) map it back to type names."""
    names = {}
    for name, record in records.items():
        supers = record.get("!superclasses", []) if isinstance(record, dict) else []
        if ("F" in supers or "I" in supers) and record.get("bitwidth"):
            kind = "f" if "F" in supers else "i"
            names.setdefault(record["summary"], f"{kind}{record['bitwidth']}")
    text = records[constraint].get("summary", "")
    prefix, suffix = "ranked tensor of ", " values"
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return [text or constraint]
    return [names.get(t, t) for t in text[len(prefix):-len(suffix)].split(" or ")]


ATTR_NAMES = {
    "Tad_ScalarAttr": "Scalar (f64)",
    "DenseI64ArrayAttr": "int[] (i64 array)",
    "I64Attr": "int (i64)",
    "BoolAttr": "bool",
    "ElementsAttr": "elements",
}


def describe_attr(records: dict, name: str) -> str:
    """'Scalar (f64) = 1.0', 'int[] (i64 array), optional', ..."""
    record = records[name]
    supers = record["!superclasses"]
    if "DefaultValuedAttr" in supers:
        default = record["defaultValue"].strip('"')
        return f"{describe_attr(records, ref(record['baseAttr']))} = {default}"
    if "OptionalAttr" in supers:
        return f"{describe_attr(records, ref(record['baseAttr']))}, optional"
    return ATTR_NAMES.get(name, record.get("summary") or name)


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


@dataclass
class Column:
    title: str
    render: Callable[[dict, dict], str]


def op_name(op, records):
    return f"`tad.{op['opName']}`"


def aten_schema(op, records):
    schema = op.get("atenSchema")
    return f"`{schema}`" if schema else "— (not an ATen op)"


def summary(op, records):
    return cell(op.get("summary", ""))


def types(op, records):
    seen = []
    constraints = [c for c, _ in arguments(op) if not is_attr(records, c)]
    constraints += [ref(r) for r, _ in op["results"]["args"]]
    for constraint in constraints:
        for t in element_types(records, constraint):
            if t not in seen:
                seen.append(t)
    return ", ".join(seen)


def attributes(op, records):
    attrs = [f"`{name}`: {describe_attr(records, c)}"
             for c, name in arguments(op) if is_attr(records, c)]
    return "<br>".join(attrs) if attrs else "—"


COLUMNS = [
    Column("Op", op_name),
    Column("ATen schema", aten_schema),
    Column("Summary", summary),
    Column("Element types", types),
    Column("Attributes", attributes),
]

HEADER = """\
# tad ops

<!-- Generated by scripts/gen-ops-doc.py from dialects/Tad/TadOps.td; do not
     edit. Regenerate with: /usr/bin/python3 scripts/gen-ops-doc.py -->

Each op implements one ATen overload: the op name is the ATen name with its
overload, tensor arguments are operands, and the other schema arguments are
attributes with the schema's names (ATen `Scalar`s are f64 attributes whatever
the tensor's element type). All ops have value semantics on ranked tensors
and infer their result types; shapes broadcast as in ATen.

"""


def render(records: dict) -> str:
    lines = ["| " + " | ".join(c.title for c in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    ops = tad_ops(records)
    for op in ops:
        lines.append("| " + " | ".join(c.render(op, records) for c in COLUMNS) + " |")
    return HEADER + f"{len(ops)} ops.\n\n" + "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/ops.md differs from the ODS")
    parser.add_argument("--tblgen", default=str(LLVM_PREFIX / "bin" / "llvm-tblgen"))
    parser.add_argument("-o", "--output", type=Path, default=OUT_FILE)
    args = parser.parse_args()

    text = render(dump_records(args.tblgen))
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            print(f"gen-ops-doc: {args.output} is stale; run "
                  "/usr/bin/python3 scripts/gen-ops-doc.py", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
