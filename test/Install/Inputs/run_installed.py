"""Runs /usr/bin/python3 on the tad package installed under PREFIX.

usage: run_installed.py PREFIX SCRIPT [ARGS...]

Debian's python3 imports packages from PREFIX/lib/python3.X/dist-packages
when PREFIX is /usr/local; for a temporary prefix this puts that directory
on PYTHONPATH instead, in an environment without the checkout's settings
(PYTHONPATH, TADC, TAD_BUILD_DIR) and with PATH reduced to the system's.
"""

import glob
import os
import sys

prefix, script, *args = sys.argv[1:]
site = glob.glob(os.path.join(prefix, "lib", "python3.*", "dist-packages"))
if len(site) != 1:
    sys.exit(f"run_installed.py: expected one lib/python3.X/dist-packages "
             f"under {prefix}, found {site}")
env = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONPATH", "TADC", "TAD_BUILD_DIR", "TAD_PYTHON_DIR")}
env["PYTHONPATH"] = site[0]
env["PATH"] = "/usr/bin:/bin"
os.execve("/usr/bin/python3", ["/usr/bin/python3", script, *args], env)
