#!/usr/bin/env python3
"""Conformance of tad with PyTorch's own test databases (OpInfo ``op_db``,
ModuleInfo ``module_db``); see cases.py for what one case checks.

    /usr/bin/python3 test/Conformance/run.py --full      # every case, writes docs/conformance.md
    /usr/bin/python3 test/Conformance/run.py --subset    # the cases of subset.txt; exit 1 on a fail
    /usr/bin/python3 test/Conformance/run.py op:add module:Linear module:Linear@float32

Cases run in worker processes (``--jobs``, default 1), each with a time
limit (``--timeout``): a case that crashes its worker (a signal in a
compiled module) or runs past the limit is a ``fail`` and the worker is
replaced. Cases compile at -O3 unless ``--opt-level`` says otherwise (an
-O0 run against the -O3 one is the differential check of the optimizing
passes on programs nobody here wrote). Compiled modules are cached under
``$TAD_CONFORMANCE_CACHE`` (default ``build/conformance-cache``), keyed by
program text, optimization level, tadc binary, the ``TAD_HOST_*`` machine
model and the CPU's feature flags. Exit status: 1 if any
case failed.
"""

import argparse
import collections
import datetime
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


# --------------------------------------------------------------------------
# Worker side: reads case names on stdin, writes one JSON line per case.
# --------------------------------------------------------------------------

def worker(max_samples):
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # stray prints of the code under test go to stderr
    sys.path.insert(0, HERE)
    import cases
    cases.databases()
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        if name == "--list":
            out.write(json.dumps({"cases": cases.all_cases()}) + "\n")
        else:
            start = time.time()
            result = cases.run_case(name, max_samples)
            result["seconds"] = round(time.time() - start, 2)
            out.write(json.dumps(result) + "\n")
        out.flush()


# --------------------------------------------------------------------------
# Driver side
# --------------------------------------------------------------------------

class Worker:
    def __init__(self, max_samples, startup_timeout=300):
        cmd = ["nice", "-n", "10", sys.executable, os.path.abspath(__file__), "--worker"]
        if max_samples:
            cmd += ["--samples", str(max_samples)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True,
                                     start_new_session=True)
        self.case = None
        self.started = None
        msg = self.read(startup_timeout)
        if not msg or not msg.get("ready"):
            self.kill()
            raise RuntimeError("conformance worker did not start")

    def read(self, timeout):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def send(self, name):
        self.case, self.started = name, time.time()
        self.proc.stdin.write(name + "\n")
        self.proc.stdin.flush()

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def death(self):
        code = self.proc.poll()
        if code is None:
            return None
        return f"signal {-code}" if code < 0 else f"exit code {code}"


def list_cases():
    w = Worker(None)
    w.proc.stdin.write("--list\n")
    w.proc.stdin.flush()
    names = w.read(120)["cases"]
    w.proc.stdin.close()
    w.kill()
    return names


def run_cases(names, jobs, timeout, max_samples, progress=True):
    pending = collections.deque(names)
    workers = []
    results = {}
    total = len(names)
    while pending or any(w.case for w in workers):
        while len(workers) < min(jobs, len(pending) + sum(1 for w in workers if w.case)):
            workers.append(Worker(max_samples))
        for w in workers:
            if w.case is None and pending:
                w.send(pending.popleft())
        busy = [w for w in workers if w.case]
        ready, _, _ = select.select([w.proc.stdout for w in busy], [], [], 1.0)
        now = time.time()
        for w in list(busy):
            result = None
            if w.proc.stdout in ready:
                try:
                    result = w.read(0)
                except ValueError:
                    result = None
                if result is None:
                    why = w.death() or "closed its output"
                    result = _failed(w.case, f"worker died ({why}) during the case", now - w.started)
                    w.kill()
                    workers.remove(w)
            elif now - w.started > timeout:
                result = _failed(w.case, f"timeout ({timeout} s)", now - w.started)
                w.kill()
                workers.remove(w)
            if result is None:
                continue
            results[w.case] = result
            w.case = None
            if progress:
                print(f"[{len(results)}/{total}] {result['name']}: {result['status']}"
                      + (f" ({result['reason']})" if result["reason"] else ""), flush=True)
    for w in workers:
        w.proc.stdin.close()
        w.kill()
    return [results[n] for n in names]


def _failed(name, reason, seconds):
    return {"name": name, "status": "fail", "reason": reason, "seconds": round(seconds, 2),
            "counts": {"pass": 0, "unsupported": 0, "fail": 1, "excluded": 0},
            "samples": [{"status": "fail", "reason": reason}]}


STATUSES = ("pass", "unsupported", "fail", "excluded")
#: (title, case kind, dtype) of the summary lines; the float64 titles are
#: the historical ones (test/Conformance/subset.test checks them).
SUMMARY_ROWS = (("OpInfo", "op:", "float64"), ("ModuleInfo", "module:", "float64"),
                ("OpInfo float32", "op:", "float32"),
                ("ModuleInfo float32", "module:", "float32"),
                ("OpInfo bfloat16", "op:", "bfloat16"),
                ("ModuleInfo bfloat16", "module:", "bfloat16"),
                ("OpInfo float16", "op:", "float16"),
                ("OpInfo dynamic batch", "op:", "dynamic"),
                ("ModuleInfo dynamic batch", "module:", "dynamic"))


def counts_of(results, kind, dtype="float64"):
    """Status counts of the cases of one kind (``op:``, ``module:``) in one
    dtype (case names of float32 runs end in ``@float32``)."""
    c = collections.Counter(r["status"] for r in results if r["name"].startswith(kind)
                            and (r["name"].partition("@")[2] or "float64") == dtype)
    return {s: c.get(s, 0) for s in STATUSES}


def markdown(results, command, seconds, max_samples):
    def esc(text):
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [
        "# Conformance with PyTorch's test databases",
        "",
        "Generated by `test/Conformance/run.py --full`; do not edit. Every OpInfo",
        "of `torch.testing._internal.common_methods_invocations.op_db` and every",
        "ModuleInfo of `torch.testing._internal.common_modules.module_db`",
        "(Debian's python3-torch) is imported with `tad.from_torch`, compiled",
        "with its VJP and JVP and checked against PyTorch: outputs,",
        "gradients (`torch.autograd`, or central differences for the ops listed",
        "in `cases.py`'s `CENTRAL_DIFFERENCES`), tangents (forward AD, or the",
        "checked VJP), for modules also parameter gradients and updated buffers,",
        "in training and evaluation mode. See `test/Conformance/cases.py`.",
        "Each case runs in float64, in float32 (`NAME@float32`) and in bfloat16",
        "(`NAME@bfloat16`), and each OpInfo also in float16 (`NAME@float16`;",
        "PyTorch 1.13 has no float16 CPU kernels for the products, convolutions",
        "and norms of the ModuleInfos, which have no float16 run). In the narrower",
        "dtypes the reference is PyTorch in float64 on the same values, and tad",
        "may differ from it by 1e-4 (relative; 2^-6 for a bf16 value, 2^-9 for an",
        "f16 one) or by 10 times PyTorch's own error in that dtype, whichever is",
        "larger. An OpInfo that PyTorch has no CPU kernel for in a 16-bit dtype",
        "(its dtype lists) is checked all the same (*widened*): against PyTorch in",
        "float32 on the same values with its results rounded to that dtype, on its",
        "float32 samples rounded (PyTorch's sample generators need the missing",
        "kernels too); where PyTorch refuses the dtype by design (linalg, FFT,",
        "quantile) the case is unsupported.",
        "",
        "Each case also runs with a dynamic batch (`NAME@dynamic`, float64):",
        "dimension 0 of the sample's inputs that share the first input's size",
        "(or of the first alone, where PyTorch refuses them resized together) is",
        "imported as one dynamic size (`tad.from_torch(..., dynamic_shapes=...)`)",
        "and the one compiled module is checked as above at the sample's batch,",
        "at batch 1 and at batch 7; where PyTorch refuses a batch, tad must",
        "refuse it too (an error, not numbers), and so must it below the",
        "minimum the importer gave the batch (`tad.dim_min`: 2 where the program",
        "differs at 1 and does not run like PyTorch there). Here **unsupported** also covers",
        "the importer's `DynamicShapeError` (the two traces differ in a way it",
        "cannot generalise) and tadc's diagnostics that refuse a dynamic size.",
        "",
        "- **pass**: every sample that is not excluded matches;",
        "- **unsupported**: the importer refuses the program with a `TadImportError`",
        "  naming the op, argument or dtype, or tadc reports a missing derivative rule;",
        "- **fail**: wrong numbers, a tadc error or crash, a raw Python exception,",
        "  a crash or timeout of the case;",
        "- **excluded**: no autograd or no such dtype on CPU, complex or sparse, random,",
        "  lazy modules, or PyTorch itself raises on the sample.",
        "",
        "A case's status is its worst sample's (fail, then unsupported); its",
        "reason is the first such sample's.",
        "",
        f"Last run: {datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M')} UTC, "
        f"`{command}`, {seconds / 60:.1f} min, "
        "samples: " + (f"the first {max_samples} per op and per module and mode."
                       if max_samples else
                       "the first 2 per op, the first 3 per module and mode (train, eval)."),
        "",
        "| | pass | unsupported | fail | excluded | total |",
        "|---|---|---|---|---|---|",
    ]
    for title, kind, dtype in SUMMARY_ROWS:
        c = counts_of(results, kind, dtype)
        if sum(c.values()):
            lines.append(f"| {title} | {c['pass']} | {c['unsupported']} | {c['fail']} | "
                         f"{c['excluded']} | {sum(c.values())} |")
    lines.append("")
    fails = [r for r in results if r["status"] == "fail"]
    lines += ["## Fails", ""]
    lines += [f"- `{r['name']}`: {esc(r['reason'])}" for r in fails] or ["none"]
    lines.append("")

    def grouped(status, title):
        reasons = collections.Counter(_reason_key(r["reason"]) for r in results
                                      if r["status"] == status)
        out = [f"## {title}", "", "| reason | cases |", "|---|---|"]
        out += [f"| {esc(k)} | {v} |" for k, v in reasons.most_common()]
        return out + [""]
    lines += grouped("unsupported", "Unsupported, by reason")
    lines += grouped("excluded", "Excluded, by reason")
    for title, kind in (("ModuleInfo", "module:"), ("OpInfo", "op:")):
        lines += [f"## {title}", "", "| case | samples (pass/unsupported/fail/excluded) | status | reason |",
                  "|---|---|---|---|"]
        for r in results:
            if not r["name"].startswith(kind):
                continue
            c = r["counts"]
            lines.append(f"| `{r['name'][len(kind):]}` | {c['pass']}/{c['unsupported']}/"
                         f"{c['fail']}/{c['excluded']} | {r['status']} | {esc(r['reason'])} |")
        lines.append("")
    return "\n".join(lines)


def _reason_key(reason):
    """A reason without its per-case details (the missing op's name stays)."""
    m = re.match(r"unsupported op (aten\.[\w.]+)", reason)
    if m:
        return f"no tad op for {m.group(1)}"
    reason = re.sub(r"\(.*", "", reason)
    return reason.strip()[:120]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*",
                        help="op:NAME or module:NAME; float32, bfloat16, float16 and "
                        "dynamic-batch runs as op:NAME@float32, op:NAME@bfloat16, "
                        "op:NAME@float16, op:NAME@dynamic")
    parser.add_argument("--full", action="store_true",
                        help="every case; writes docs/conformance.md and build/conformance.json")
    parser.add_argument("--subset", action="store_true",
                        help="the cases listed in test/Conformance/subset.txt")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per case")
    parser.add_argument("--samples", type=int, default=None,
                        help="samples per op / per module mode (default 2 / 3)")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true", help="print only fails and the summary")
    parser.add_argument("--opt-level", type=int, choices=(0, 1, 2, 3), default=None,
                        help="tadc optimization level of the compiled cases (default 3)")
    args = parser.parse_args()
    if args.opt_level is not None:  # the workers inherit it
        os.environ["TAD_CONFORMANCE_OPT_LEVEL"] = str(args.opt_level)
    if args.worker:
        return worker(args.samples)

    if args.full:
        names = list_cases()
        args.markdown = args.markdown or os.path.join(ROOT, "docs", "conformance.md")
        args.json = args.json or os.path.join(
            os.environ.get("TAD_BUILD_DIR") or os.path.join(ROOT, "build"), "conformance.json")
    elif args.subset:
        with open(os.path.join(HERE, "subset.txt")) as f:
            names = [line.split("#")[0].strip() for line in f]
        names = [n for n in names if n]
    else:
        names = args.cases
    if not names:
        parser.error("name cases, or --full or --subset")
    start = time.time()
    results = run_cases(names, args.jobs, args.timeout, args.samples, not args.quiet)
    seconds = time.time() - start
    for r in results:
        if args.quiet and r["status"] == "fail":
            print(f"{r['name']}: fail ({r['reason']})")
        if not args.quiet and len(names) <= 10:
            for s in r["samples"]:
                if s["status"] != "pass":
                    print(f"  {s.get('sample', '')} {s['status']}: {s['reason']}")
    for title, kind, dtype in SUMMARY_ROWS:
        c = counts_of(results, kind, dtype)
        if dtype == "float64" or sum(c.values()):
            print(f"{title}: " + ", ".join(f"{v} {k}" for k, v in c.items()))
    print(f"{sum(1 for r in results if r['status'] == 'fail')} failed in {seconds:.0f} s")
    command = "/usr/bin/python3 test/Conformance/run.py " + " ".join(sys.argv[1:])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": command, "seconds": seconds, "results": results}, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(results, command.strip(), seconds, args.samples))
    return 1 if any(r["status"] == "fail" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
