#!/usr/bin/env python3
"""Generates docs/ops.md: the coverage table and the reference table of tad ops.

The reference table comes from dialects/Tad/TadOps.td: TableGen itself reads
the ODS (llvm-tblgen --dump-json), so the table sees exactly the records the
C++ is generated from: op name, the ATen schema (`atenSchema` of
Tad_AtenOp), summary, operand element types and attributes with their
defaults.

The coverage table joins, per op, the rule files (rules/derivatives.yaml:
which inputs have a VJP formula, how the JVP is given; rules/decompositions.yaml:
composites) with the results the numeric checks recorded in the last test
run (test/Numeric/gradcheck.py writes them to build/test/results/*.jsonl
when run by lit): first-order VJP and JVP checks per target, and
second-order checks (VJP of a VJP, JVP of a VJP) of models using the op.

    /usr/bin/python3 scripts/gen-ops-doc.py           # rewrite docs/ops.md
    /usr/bin/python3 scripts/gen-ops-doc.py --check   # fail if the reference
                                                      # table is stale or the
                                                      # coverage table misses ops

To add a column, append a Column to COLUMNS: it gets the op's record (a dict
of TableGen fields) and the whole record dump, and returns the cell's text.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
TD_FILE = REPO / "dialects" / "Tad" / "TadOps.td"
RULES = REPO / "rules" / "derivatives.yaml"
DECOMPOSITIONS = REPO / "rules" / "decompositions.yaml"
RESULTS = Path(os.environ.get("TAD_BUILD_DIR", REPO / "build")) / "test" / "results"
REFERENCE_MARK = "## Reference\n"
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

# --------------------------------------------------------------------------
# Coverage: rules x numeric results
# --------------------------------------------------------------------------

def load_rules(path: Path) -> dict:
    """op name -> entry of a derivative rule file (a dict of its YAML keys)."""
    import yaml
    entries = yaml.safe_load(path.read_text()) or []
    return {e["name"].split("(", 1)[0].strip(): e for e in entries
            if isinstance(e, dict) and "name" in e}


def split_top(text: str) -> list:
    """Splits at commas outside brackets: 'int[2] s=[1, 1], Tensor x'."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip() and p.strip() != "*"]


def output_names(schema: str) -> set:
    """Names a forward formula may be keyed by: the named returns, 'result'
    and 'resultN'."""
    returns = schema.rsplit("->", 1)[-1].strip().strip("()")
    names = {p.split()[-1] for p in split_top(returns) if len(p.split()) > 1}
    return names | {"result"} | {f"result{i}" for i in range(8)}


def vjp_cell(entry) -> str:
    flags = entry.get("output_differentiability")
    if flags and not any(flags):
        return "not differentiable"
    outputs = output_names(entry["name"])
    inputs = []
    for key, value in entry.items():
        names = [k.strip() for k in str(key).split(",")]
        if key in ("name", "dispatch", "output_differentiability") or \
                any(n in outputs for n in names):
            continue
        if str(value).strip() != "non_differentiable":
            inputs.extend(names)
    return ", ".join(f"`{i}`" for i in inputs) if inputs else "no differentiable input"


def jvp_cell(entry) -> str:
    flags = entry.get("output_differentiability")
    if flags and not any(flags):
        return "not differentiable"
    outputs = output_names(entry["name"])
    kinds = []
    for key, value in entry.items():
        if any(k.strip() in outputs for k in str(key).split(",")):
            text = str(value).strip()
            kind = text if text in ("auto_element_wise", "auto_linear") else "formula"
            if kind not in kinds:
                kinds.append(kind)
    return ", ".join(kinds) if kinds else "—"


def load_results(directory: Path) -> list:
    results = []
    for path in sorted(glob.glob(str(directory / "*.jsonl"))):
        with open(path) as f:
            results.extend(json.loads(line) for line in f if line.strip())
    return results


def check_cell(results, op, target, order, mode=None) -> str:
    """'✓ 3' (all of 3 checks passed), '✗ 1/3' (1 of 3 failed), '' (none)."""
    runs = [r for r in results if op in r["ops"] and r.get("target", "cpu") == target
            and r["order"] == order and (mode is None or r["mode"] == mode)]
    if not runs:
        return ""
    failed = sum(not r["ok"] for r in runs)
    return f"✗ {failed}/{len(runs)}" if failed else f"✓ {len(runs)}"


def coverage(records: dict, results: list) -> str:
    rules, composites = load_rules(RULES), load_rules(DECOMPOSITIONS)
    rows, counts = [], {"vjp": 0, "jvp": 0, "second": 0, "failed": 0}
    ops = tad_ops(records)
    for op in ops:
        name = op["opName"]
        entry = rules.get(name)
        if entry is not None:
            vjp, jvp = vjp_cell(entry), jvp_cell(entry)
        elif name in composites:
            vjp = jvp = "decomposed"
        else:
            vjp = jvp = "no rule"
        cells = [check_cell(results, name, "cpu", 1, "vjp"),
                 check_cell(results, name, "cpu", 1, "jvp"),
                 check_cell(results, name, "cpu", 2),
                 check_cell(results, name, "cuda", 1)]
        counts["vjp"] += cells[0].startswith("✓")
        counts["jvp"] += cells[1].startswith("✓")
        counts["second"] += cells[2].startswith("✓")
        counts["failed"] += any(c.startswith("✗") for c in cells)
        cells = [c or "not run" for c in cells]
        rows.append(f"| `tad.{name}` | {vjp} | {jvp} | " + " | ".join(cells) + " |")
    summary = (f"{len(ops)} ops; numeric checks recorded for {len(results)} runs: "
               f"{counts['vjp']} ops with passing VJP checks, {counts['jvp']} with "
               f"passing JVP checks, {counts['second']} in passing second-order checks, "
               f"{counts['failed']} with a failing check.\n\n")
    table = ["| Op | VJP rule (inputs) | JVP rule | VJP check (CPU, f64) | "
             "JVP check (CPU, f64) | second order (CPU, f64) | GPU |",
             "|---|---|---|---|---|---|---|"]
    return COVERAGE_HEADER + summary + "\n".join(table + rows) + "\n\n"


COVERAGE_HEADER = """\
## Coverage

Generated from the rule files and the results the numeric checks recorded in
the last test run. *VJP rule*: the inputs with a backward formula in
rules/derivatives.yaml; *JVP rule*: how the forward formula is given
(`auto_element_wise` and `auto_linear` are derived from the backward
formula); *decomposed*: a composite of rules/decompositions.yaml,
differentiated through its decomposition. The check columns count the
numeric checks against central finite differences in f64 that used the op
(test/Numeric): ✓ N = all N passed, ✗ F/N = F of N failed. *Second order*:
VJP-of-VJP and JVP-of-VJP (Hessian-vector product) checks of functions that
use the op. *GPU*: the same checks compiled with `--target=cuda` and run on
a GPU.

At non-differentiable points tad follows upstream's formulas: relu/threshold
pass no gradient at the threshold (`x > 0`), abs has gradient 0 at 0
(`sgn`), max/min/amax/amin ties share the gradient evenly (upstream's
`evenly_distribute_backward`), max.dim/min.dim send it to the first index,
clamp passes the gradient at the bounds, floor/sign have zero gradients.

"""


HEADER = """\
# tad ops

<!-- Generated by scripts/gen-ops-doc.py from dialects/Tad/TadOps.td, the
     rule files and the numeric results of the last test run; do not edit.
     Regenerate after running the tests: /usr/bin/python3 scripts/gen-ops-doc.py -->

Each op implements one ATen overload: the op name is the ATen name with its
overload, tensor arguments are operands, and the other schema arguments are
attributes with the schema's names (ATen `Scalar`s are f64 attributes whatever
the tensor's element type). All ops have value semantics on ranked tensors
and infer their result types; shapes broadcast as in ATen.

"""


def reference(records: dict) -> str:
    lines = ["| " + " | ".join(c.title for c in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    ops = tad_ops(records)
    for op in ops:
        lines.append("| " + " | ".join(c.render(op, records) for c in COLUMNS) + " |")
    return REFERENCE_MARK + "\n" + f"{len(ops)} ops.\n\n" + "\n".join(lines) + "\n"


def covered_ops(text: str) -> list:
    """Ops listed in the coverage section of a generated docs/ops.md."""
    section = text.split("## Coverage", 1)[-1].split(REFERENCE_MARK, 1)[0]
    import re
    return re.findall(r"^\| `tad\.([\w.]+)` \|", section, re.M)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/ops.md differs from the ODS")
    parser.add_argument("--tblgen", default=str(LLVM_PREFIX / "bin" / "llvm-tblgen"))
    parser.add_argument("-o", "--output", type=Path, default=OUT_FILE)
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="directory of the numeric checks' *.jsonl results")
    args = parser.parse_args()

    records = dump_records(args.tblgen)
    ref_text = reference(records)
    if args.check:
        # The coverage numbers depend on the last test run; check only that
        # the reference table is current and the coverage table lists every op.
        current = args.output.read_text() if args.output.exists() else ""
        stale = not current.endswith(ref_text) or \
            covered_ops(current) != [op["opName"] for op in tad_ops(records)]
        if stale:
            print(f"gen-ops-doc: {args.output} is stale; run the tests, then "
                  "/usr/bin/python3 scripts/gen-ops-doc.py", file=sys.stderr)
            return 1
        return 0
    results = load_results(args.results)
    args.output.write_text(HEADER + coverage(records, results) + ref_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
