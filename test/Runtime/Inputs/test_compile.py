"""Checks tad.compile against a fake tadc (Inputs/fake_tadc.py).

usage: test_compile.py WORKDIR FAKE.so FAKE_PLUS.so

FAKE_PLUS.so is the fake module with its "add" renamed "plus"; the fake
tadc writes it for --target=cuda.
"""

import gc
import json
import os
import stat
import sys
from pathlib import Path

import numpy as np

import tad

workdir, fake_so, fake_plus_so = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3]
log = workdir / "log.jsonl"
wrapper = workdir / "tadc"
wrapper.write_text("#!/bin/sh\nexec /usr/bin/python3 "
                   f"{Path(__file__).parent / 'fake_tadc.py'} \"$@\"\n")
wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
os.environ.update(TADC=str(wrapper), FAKE_TADC_LOG=str(log), FAKE_TADC_SO=fake_so,
                  FAKE_TADC_SO2=fake_plus_so)


def passed(name):
    print(f"PASS: {name}", flush=True)


def last_run():
    return json.loads(log.read_text().splitlines()[-1])


TEXT = "func.func @add(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  return %a : tensor<2x3xf32>\n}\n"

# --- MLIR text, every option ---------------------------------------------------------
(workdir / "extra.yaml").write_text("")
m = tad.compile(TEXT, vjp=["add", "stats"], jvp="add", rules=[workdir / "extra.yaml"],
                opt_level=2, extra_args=["--mlir-timing"])
run = last_run()
args = run["args"]
assert run["source"] == TEXT
assert Path(args[0]).name == "module.mlir", args
assert args[1] == "-o" and Path(args[2]).name == "module.so", args
assert args[3:] == ["--target=cpu", "-O2", "--vjp=add,stats", "--jvp=add",
                    f"--rules={workdir / 'extra.yaml'}", "--mlir-timing"], args
np.testing.assert_array_equal(m.add(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)),
                              np.full((2, 3), 2, np.float32))
passed("compile text")

# The temporary .so lives as long as the module.
so = Path(args[2])
assert so.exists()
add = m.add
del m
gc.collect()
assert so.exists()
del add
gc.collect()
assert not so.parent.exists(), so.parent
passed("temporary output lifetime")

# --- A path, defaults, and an explicit output ----------------------------------------------
src = workdir / "model.mlir"
src.write_text(TEXT)
out = workdir / "out" / "model.so"
out.parent.mkdir(exist_ok=True)
m = tad.compile(src, output=out)
args = last_run()["args"]
assert args == [str(src), "-o", str(out), "--target=cpu", "-O3"], args
assert out.exists() and m.path == str(out)
passed("compile path")

# Rebuilding the same output in one process gives the new module, and the
# old one keeps working.
old = m
m = tad.compile(str(src), output=str(out), target="cuda", opt_level=0)
assert last_run()["args"][3:] == ["--target=cuda", "-O0"], last_run()
assert list(m.functions) == ["plus", "stats", "mix", "fail"], list(m.functions)
assert m.path == str(out)
one = np.ones((2, 3), np.float32)
np.testing.assert_array_equal(m.plus(one, one), 2 * one)
np.testing.assert_array_equal(old.add(one, one), 2 * one)
assert list(tad.load(out).functions)[0] == "plus"
passed("recompile same output")

# --- Failures -------------------------------------------------------------------------
try:
    tad.compile(TEXT + "// syntax error\n")
    raise AssertionError("no CompileError")
except tad.CompileError as e:
    assert e.returncode == 1, e.returncode
    assert e.diagnostics == "module.mlir:2:3: error: custom op 'tad.bogus' is unknown\n"
    print(str(e))
    assert not Path(e.command[1]).parent.exists()  # the temporary directory is gone
passed("compile error")

try:
    tad.compile(workdir / "missing.mlir")
    raise AssertionError("no FileNotFoundError")
except FileNotFoundError as e:
    assert "missing.mlir" in str(e)
try:
    tad.compile(TEXT, opt_level=4)
    raise AssertionError("no ValueError")
except ValueError as e:
    assert "opt_level" in str(e)
os.environ["TADC"] = str(workdir / "no-such-tadc")
try:
    tad.compile(TEXT)
    raise AssertionError("no CompileError")
except tad.CompileError as e:
    assert "tadc not found" in str(e), str(e)
passed("argument errors")

# Without $TADC, a checkout's package runs the tadc of $TAD_BUILD_DIR, else
# the checkout's build/bin/tadc, before any tadc on PATH.
del os.environ["TADC"]
os.environ["PATH"] = str(workdir)
os.environ["TAD_BUILD_DIR"] = str(workdir / "other-build")
(workdir / "other-build" / "bin").mkdir(parents=True)
other = workdir / "other-build" / "bin" / "tadc"
other.write_text("#!/bin/sh\n")
other.chmod(0o755)
assert tad.find_tadc() == str(other), tad.find_tadc()
del os.environ["TAD_BUILD_DIR"]
repo = Path(tad.__file__).resolve().parents[3]
# (A checkout built elsewhere, the sanitized build's build-asan/, has none.)
if (repo / "build" / "bin" / "tadc").exists():
    assert tad.find_tadc() == str(repo / "build" / "bin" / "tadc"), tad.find_tadc()
# Without a tadc of its own, the one on PATH.
own_tadcs = tad.compiler._own_tadcs
tad.compiler._own_tadcs = lambda: [str(workdir / "no-such-build" / "tadc")]
assert tad.find_tadc() == str(wrapper), tad.find_tadc()
os.environ["PATH"] = str(workdir / "empty")
assert tad.find_tadc() == str(workdir / "no-such-build" / "tadc")
tad.compiler._own_tadcs = own_tadcs
passed("find tadc")
