#!/usr/bin/env python3
"""A mutation fuzzer for tadc's input.

Mutates valid tad programs (the seed corpus, test/fuzz/tadc-seeds/) and
compiles each mutant with tadc, plainly or with --vjp/--jvp, under a
timeout. Each mutant is classified as

  clean     tadc rejected it with a diagnostic located in the mutant
  crash     a signal, an assertion or LLVM fatal error, an internal error
            report, an error without a location, or one located elsewhere
            than in the mutant (e.g. in tad's own rule files)
  hang      tadc ran past the timeout
  accepted  tadc compiled it

An accepted mutant is then compiled again at -O0 and both modules are
called on the same random inputs (in a child process: see tadc_fuzz_call.py)
and compared: bitwise for integers and booleans, within the fast-math
tolerance of docs/contributing.md for floats; the two must raise the same
errors. A difference is a `mismatch`; a child that dies is a `runcrash`.

Every finding is written to --out (the mutant, the command, tadc's output),
and the counts are printed at the end:

  mutants 120 clean 80 crash 0 hang 0 accepted 40 compared 35 mismatch 0 ...

The exit status is 1 if there was any crash, hang, mismatch or runcrash.
Runs are reproducible for a given --seed and --mutants (not for --time).
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# A diagnostic tadc reports for a located error: "<file>:<line>:<col>: error:".
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*):\d+:\d+: error:", re.M)
INTERNAL = ("Assertion", "LLVM ERROR", "PLEASE submit a bug report",
            "Stack dump", "UNREACHABLE", "AddressSanitizer",
            "UndefinedBehaviorSanitizer", "runtime error:")

ELEMENT_TYPES = ["f32", "f64", "i64", "i32", "i1", "f16", "bf16", "i8",
                 "index"]
DIMENSIONS = [0, 1, 2, 3, 7, 1 << 31, 1 << 40, 1 << 62, (1 << 63) - 1, "?"]
INTEGERS = ["0", "1", "-1", "2", "-2", "3", "7", "64", "2147483648",
            "9223372036854775807", "-9223372036854775808"]
FLOATS = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "1.0e+300", "1.0e-300",
          "0x7FF8000000000000", "0x7FF0000000000000", "3.5"]
ATTRIBUTE_TYPES = ["i64", "i32", "i1", "f32", "f64", "index"]


def programs(path):
    """The programs of a seed file: split at `// -----`."""
    with open(path) as f:
        text = f.read()
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [line for line in chunk.splitlines()
                 if not line.lstrip().startswith("//")]
        if any("func.func" in line for line in lines):
            yield "\n".join(lines) + "\n"


def public_functions(text):
    return re.findall(r"func\.func\s+@([\w$.]+)", text)


class Mutator:
    """Text-level mutations of a tad program."""

    def __init__(self, rng, op_names):
        self.rng = rng
        self.op_names = sorted(op_names)

    def mutate(self, text):
        kinds = [self.drop_line, self.duplicate_line, self.swap_lines,
                 self.shape, self.shape, self.element_type, self.attribute,
                 self.attribute_type, self.operand, self.op_name,
                 self.result_count]
        for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
            mutated = self.rng.choice(kinds)(text)
            if mutated is not None:
                text = mutated
        return text

    def _body_lines(self, lines):
        return [i for i, line in enumerate(lines)
                if line.strip() and not line.strip().startswith("func.func")
                and line.strip() != "}"]

    def drop_line(self, text):
        lines = text.splitlines()
        body = self._body_lines(lines)
        if not body:
            return None
        del lines[self.rng.choice(body)]
        return "\n".join(lines) + "\n"

    def duplicate_line(self, text):
        lines = text.splitlines()
        body = self._body_lines(lines)
        if not body:
            return None
        i = self.rng.choice(body)
        lines.insert(self.rng.choice(body) + 1, lines[i])
        return "\n".join(lines) + "\n"

    def swap_lines(self, text):
        lines = text.splitlines()
        body = self._body_lines(lines)
        if len(body) < 2:
            return None
        i, j = self.rng.sample(body, 2)
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines) + "\n"

    def _replace_match(self, text, matches, replacement):
        m = self.rng.choice(matches)
        return text[:m.start()] + replacement(m) + text[m.end():]

    def shape(self, text):
        """One dimension of one tensor type, or of every type that has the
        same dimension list (so that the program may stay consistent)."""
        matches = list(re.finditer(r"tensor<((?:\d+x)+)", text))
        if not matches:
            return None
        m = self.rng.choice(matches)
        dims = m.group(1)[:-1].split("x")
        k = self.rng.randrange(len(dims))
        new = list(dims)
        new[k] = str(self.rng.choice(DIMENSIONS))
        old_prefix = "tensor<" + m.group(1)
        new_prefix = "tensor<" + "x".join(new) + "x"
        if self.rng.random() < 0.5:
            return text.replace(old_prefix, new_prefix)
        return text[:m.start()] + new_prefix + text[m.end():]

    def element_type(self, text):
        matches = list(re.finditer(r"(?<=x)(f32|f64|i64|i32|i1)(?=>)|"
                                   r"(?<=tensor<)(f32|f64|i64|i32|i1)(?=>)",
                                   text))
        if not matches:
            return None
        new = self.rng.choice(ELEMENT_TYPES)
        if self.rng.random() < 0.5:
            old = self.rng.choice(matches).group(0)
            return re.sub(r"(?<=[x<])%s(?=>)" % old, new, text)
        return self._replace_match(text, matches, lambda m: new)

    def attribute(self, text):
        """An integer or float in an attribute dictionary or array."""
        matches = list(re.finditer(r"(?<=[=:,\[] )-?\d+(\.\d+(e[+-]?\d+)?)?"
                                   r"(?=[ ,>\]}])", text))
        if not matches:
            return None

        def value(m):
            if "." in m.group(0):
                return self.rng.choice(FLOATS)
            return self.rng.choice(INTEGERS)
        return self._replace_match(text, matches, value)

    def attribute_type(self, text):
        """`1 : i64` -> `1 : f32`, `array<i64: ...>` -> `array<i32: ...>`,
        or an attribute replaced by one of another kind."""
        choice = self.rng.random()
        if choice < 0.4:
            matches = list(re.finditer(r"(?<=: )(i64|i32|i1|f32|f64)(?=[ ,}])",
                                       text))
            if matches:
                return self._replace_match(
                    text, matches, lambda m: self.rng.choice(ATTRIBUTE_TYPES))
        if choice < 0.7:
            matches = list(re.finditer(r"array<(i64|i32|i1|f64|f32)", text))
            if matches:
                return self._replace_match(
                    text, matches,
                    lambda m: "array<" + self.rng.choice(ATTRIBUTE_TYPES))
        matches = list(re.finditer(r"(?<=\{)(\w+) = ([^,}]+)", text))
        if not matches:
            return None
        others = ["true", "\"s\"", "[1, 2]", "array<i64>", "1.5 : f32",
                  "unit", "dense<1> : tensor<2xi64>", "@f", "7"]
        return self._replace_match(
            text, matches,
            lambda m: m.group(1) + " = " + self.rng.choice(others))

    def operand(self, text):
        names = sorted(set(re.findall(r"%[\w.]+", text)))
        uses = [m for m in re.finditer(r"%[\w.]+", text)
                if text[max(0, m.start() - 8):m.start()].find("=") < 0 and
                not re.match(r"\s*[=:,]\s*[^%]*=", text[m.end():m.end() + 3])]
        if len(names) < 2 or not uses:
            return None
        return self._replace_match(text, uses,
                                   lambda m: self.rng.choice(names))

    def op_name(self, text):
        matches = list(re.finditer(r"\btad\.[\w.]+", text))
        if not matches or not self.op_names:
            return None
        return self._replace_match(text, matches,
                                   lambda m: self.rng.choice(self.op_names))

    def result_count(self, text):
        """A `return` with one operand more or fewer."""
        matches = list(re.finditer(r"return (%[\w.]+)", text))
        if not matches:
            return None
        m = self.rng.choice(matches)
        if self.rng.random() < 0.5:
            return text[:m.start()] + "return" + text[m.end():]
        return text[:m.end()] + ", " + m.group(1) + text[m.end():]


def classify(proc_returncode, output, mutant_path, timed_out):
    if timed_out:
        return "hang", "timeout"
    if proc_returncode == 0:
        return "accepted", ""
    if proc_returncode < 0:
        return "crash", "signal %d" % -proc_returncode
    for marker in INTERNAL:
        if marker in output:
            return "crash", marker
    files = {m.group("file") for m in LOCATED.finditer(output)}
    if not files:
        return "crash", "error without a location"
    if mutant_path not in files:
        return "crash", "error located in " + ", ".join(sorted(files))
    return "clean", ""


def run(command, timeout, env=None):
    """(returncode, output, timed_out); kills the whole process group."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            env=env)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return proc.returncode, out.decode("utf-8", "replace"), True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tadc")
    parser.add_argument("--seeds", default=os.path.join(HERE, "tadc-seeds"),
                        help="directory of seed programs (.mlir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutants", type=int, default=0,
                        help="stop after this many mutants (0: no limit)")
    parser.add_argument("--time", type=float, default=0,
                        help="stop after this many seconds (0: no limit)")
    parser.add_argument("--timeout", type=float, default=20,
                        help="seconds per tadc run")
    parser.add_argument("--differential", action="store_true",
                        help="compare accepted mutants' -O2 and -O0 builds")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the Python with NumPy that runs the modules")
    parser.add_argument("--out", help="directory for findings")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--split-seeds", metavar="DIR",
                        help="write each seed program to DIR/<n>.mlir (a "
                             "corpus for ProgramFuzzer) and exit")
    parser.add_argument("--split-limit", type=int, default=0,
                        help="with --split-seeds: at most this many, spread "
                             "over the seeds")
    args = parser.parse_args()
    if args.split_seeds:
        os.makedirs(args.split_seeds, exist_ok=True)
        texts = [text for name in sorted(os.listdir(args.seeds))
                 if name.endswith(".mlir")
                 for text in programs(os.path.join(args.seeds, name))]
        if args.split_limit and len(texts) > args.split_limit:
            step = len(texts) / args.split_limit
            texts = [texts[int(i * step)] for i in range(args.split_limit)]
        for n, text in enumerate(texts):
            with open(os.path.join(args.split_seeds, f"{n}.mlir"), "w") as f:
                f.write(text)
        print(f"{len(texts)} seed programs")
        return 0
    if not args.tadc:
        parser.error("give --tadc")
    if not args.mutants and not args.time:
        parser.error("give --mutants or --time")

    seeds = []
    for name in sorted(os.listdir(args.seeds)):
        if name.endswith(".mlir"):
            seeds.extend(programs(os.path.join(args.seeds, name)))
    if not seeds:
        parser.error("no seed programs in " + args.seeds)
    op_names = set()
    for text in seeds:
        op_names.update(re.findall(r"\btad\.[\w.]+", text))

    rng = random.Random(args.seed)
    mutator = Mutator(rng, op_names)
    work = tempfile.mkdtemp(prefix="tadc-fuzz-")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    counts = dict.fromkeys(["mutants", "clean", "crash", "hang", "accepted",
                            "compared", "mismatch", "runcrash", "skipped"], 0)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(HERE, "..", "..", "runtime", "python")] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    start = time.monotonic()

    def record(kind, index, mutant, command, output):
        print(f"{kind}: mutant {index}: {' '.join(command)}")
        for line in output.strip().splitlines()[:6]:
            print("  | " + line)
        if args.out:
            base = os.path.join(args.out, f"{kind}-{args.seed}-{index}")
            with open(base + ".mlir", "w") as f:
                f.write(mutant)
            with open(base + ".txt", "w") as f:
                f.write(" ".join(command) + "\n" + output)

    try:
        index = 0
        while True:
            if args.mutants and index >= args.mutants:
                break
            if args.time and time.monotonic() - start >= args.time:
                break
            seed_text = rng.choice(seeds)
            mutant = mutator.mutate(seed_text)
            index += 1
            counts["mutants"] += 1
            path = os.path.join(work, "m.mlir")
            with open(path, "w") as f:
                f.write(mutant)
            functions = public_functions(mutant)
            mode = rng.choice(["plain", "plain", "vjp", "jvp"])
            command = [args.tadc, path, "-o", os.path.join(work, "m2.so")]
            if mode != "plain" and functions:
                command.append(f"--{mode}=" + rng.choice(functions))
            rc, output, timed_out = run(command, args.timeout)
            kind, why = classify(rc, output, path, timed_out)
            counts[kind] += 1
            if args.verbose:
                print(f"{index}: {kind} {why}")
            if kind in ("crash", "hang"):
                record(kind, index, mutant, command, why + "\n" + output)
                continue
            if kind != "accepted" or not args.differential:
                continue
            if re.search(r"rand|dropout|bernoulli|normal|uniform|empty",
                         mutant):
                counts["skipped"] += 1  # results are not a function of args
                continue
            command0 = command[:1] + [path, "-O0", "-o",
                                      os.path.join(work, "m0.so")] + \
                command[4:]
            rc, output, timed_out = run(command0, args.timeout)
            kind0, why0 = classify(rc, output, path, timed_out)
            if kind0 != "accepted":
                # -O2 accepted what -O0 rejects (or the reverse): a finding
                # unless -O0 gave a clean diagnostic for a size limit.
                counts["mismatch" if kind0 == "clean" else kind0] += 1
                record("mismatch" if kind0 == "clean" else kind0, index,
                       mutant, command0, why0 + "\n" + output)
                continue
            call = [args.python, os.path.join(HERE, "tadc_fuzz_call.py"),
                    os.path.join(work, "m2.so"), os.path.join(work, "m0.so"),
                    str(rng.randrange(1 << 30))]
            rc, output, timed_out = run(call, args.timeout * 3, env=env)
            if timed_out:
                counts["skipped"] += 1  # a large but valid program
                continue
            if rc == 0:
                counts["compared"] += 1
            elif rc == 3:
                counts["mismatch"] += 1
                record("mismatch", index, mutant, call, output)
            elif rc == 2:
                counts["skipped"] += 1  # inputs it cannot make or too large
            else:
                counts["runcrash"] += 1
                record("runcrash", index, mutant, call,
                       f"exit status {rc}\n" + output)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    elapsed = time.monotonic() - start
    print(" ".join(f"{k} {v}" for k, v in counts.items()) +
          f" seconds {elapsed:.0f}")
    bad = (counts["crash"] + counts["hang"] + counts["mismatch"] +
           counts["runcrash"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
