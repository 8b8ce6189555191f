"""The per-op numeric test matrix: every tad op, VJP and JVP, in float64.

Each entry is a function @f around one op (with broadcasting, keepdim and
attribute variants); gradcheck compares its compiled VJP and JVP with
central differences. Run one family with `op_matrix.py FAMILY`, or all with
no argument; `--list` prints the ops covered.
"""

import os
import sys

from gradcheck import run_cases



def load_families():
    """Merges FAMILIES from every cases_*.py beside this file, so that op
    families can be added in files of their own."""
    import glob
    import importlib
    families = {}
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "cases_*.py"))):
        module = importlib.import_module(os.path.basename(path)[:-3])
        for name, cases in module.FAMILIES.items():
            if name in families:
                raise SystemExit("family %r defined twice" % name)
            families[name] = cases
    return families


FAMILIES = load_families()


def covered_ops():
    import re
    ops = set()
    for cases in FAMILIES.values():
        for case in cases:
            ops.update(re.findall(r"tad\.([A-Za-z0-9_.]+?)\s", case.mlir))
    return sorted(ops)


# Ops outside the matrix, and where they are checked instead: the
# collectives have no derivative (the AD passes refuse them) and need
# several MPI ranks.
CHECKED_ELSEWHERE = {
    "all_reduce": "test/MPI",
    "broadcast_from": "test/MPI",
    "barrier": "test/MPI",
}


def main(argv):
    if "--list" in argv:
        print("\n".join(covered_ops()))
        return 0
    if "--check-coverage" in argv:
        # Every op defined in TadOps.td must appear in the matrix.
        import re
        path = argv[argv.index("--check-coverage") + 1]
        files = [os.path.join(path, f) for f in sorted(os.listdir(path))
                 if f.endswith(".td")] if os.path.isdir(path) else [path]
        td = "".join(open(f).read() for f in files)
        defined = set(re.findall(r'def Tad_\w+ : Tad_\w+<"([\w.]+)"', td))
        missing = sorted(defined - set(covered_ops()) - set(CHECKED_ELSEWHERE))
        print("ops without numeric checks: %s" % (", ".join(missing) or "none"))
        return 1 if missing else 0
    families = [a for a in argv if not a.startswith("-")] or list(FAMILIES)
    failures = 0
    total = 0
    for family in families:
        cases = FAMILIES[family]
        total += 2 * len(cases)
        failures += run_cases(cases)
    print("%d passed, %d failed" % (total - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
