"""Compares the runs of dp_train.py: every rank's parameters bit for bit
with rank 0's after every step, and rank 0's with the one-process
reference (f64 within 1e-12, f32 within 1e-5), losses too.

    dp_compare.py OUTDIR RANKS
"""
import glob
import os
import sys

import numpy as np

out, ranks = sys.argv[1], int(sys.argv[2])
failed = 0
cases = sorted(os.path.basename(p)[len("ref0_"):-len(".npz")]
               for p in glob.glob(os.path.join(out, "ref0_*.npz")))
for case in cases:
    tol = 1e-12 if case.endswith("f64") else 1e-5
    ref = np.load(os.path.join(out, f"ref0_{case}.npz"))
    runs = [np.load(os.path.join(out, f"dp{r}_{case}.npz")) for r in range(ranks)]
    identical = all(np.array_equal(runs[0][k], run[k])
                    for run in runs[1:] for k in ref.files)
    err = max(float(np.max(np.abs(runs[0][k] - ref[k]) / (1 + np.abs(ref[k]))))
              for k in ref.files)
    ok = identical and err <= tol
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'} {case}: {ranks} ranks "
          f"{'identical' if identical else 'DIFFER'}, "
          f"max error against one process {err:.1e} (tolerance {tol:g})")
print(f"{len(cases)} cases, {failed} failed")
sys.exit(1 if failed or not cases else 0)
