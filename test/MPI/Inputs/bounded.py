"""Runs a command with a time limit and reports how it ended, so that a
test can tell an error (any status) from a hang.

    bounded.py SECONDS COMMAND...
"""
import subprocess
import sys
import time

limit = float(sys.argv[1])
start = time.time()
try:
    proc = subprocess.run(sys.argv[2:], timeout=limit, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout)
    print(f"bounded: exited with status {proc.returncode} "
          f"({'nonzero' if proc.returncode else 'zero'}) within {limit:g} s")
except subprocess.TimeoutExpired as e:
    out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    sys.stdout.write(out)
    print(f"bounded: HUNG for {time.time() - start:.0f} s")
