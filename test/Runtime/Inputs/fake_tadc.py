"""A stand-in for tadc, for testing tad.compile without the compiler.

Appends its argument list and the input text to $FAKE_TADC_LOG (one JSON
object per line). If the input contains "syntax error" it prints an MLIR
diagnostic and exits 1; otherwise it copies $FAKE_TADC_SO, or with --target=cuda $FAKE_TADC_SO2,
to the -o path.
"""

import json
import os
import shutil
import sys

args = sys.argv[1:]
source = open(args[0]).read()
with open(os.environ["FAKE_TADC_LOG"], "a") as log:
    log.write(json.dumps({"args": args, "source": source}) + "\n")
if "syntax error" in source:
    sys.stderr.write(f"{os.path.basename(args[0])}:2:3: error: custom op 'tad.bogus' "
                     "is unknown\n")
    sys.exit(1)
# Like a linker, replace the output rather than rewrite it in place: a
# process may have the old file mapped.
out = args[args.index("-o") + 1]
so = os.environ["FAKE_TADC_SO2" if "--target=cuda" in args else "FAKE_TADC_SO"]
shutil.copyfile(so, out + ".tmp")
os.replace(out + ".tmp", out)
