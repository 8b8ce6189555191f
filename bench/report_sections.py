"""Sections of docs/benchmarks.md that one script writes and the others
keep: the text between ``<!-- NAME-begin -->`` and ``<!-- NAME-end -->``
(NAME: ``gpu`` for bench/run.py --target cuda, ``sweep`` for
bench/sweep.py). bench/run.py rewrites the rest of the file and keeps them.
"""

import os


def markers(name):
    return f"<!-- {name}-begin -->", f"<!-- {name}-end -->"


def kept_section(path_md, name):
    """The section `name` of an existing report, markers included ("" if
    none)."""
    if not os.path.exists(path_md):
        return ""
    with open(path_md) as f:
        text = f.read()
    begin, end = markers(name)
    if begin not in text or end not in text:
        return ""
    return begin + text.split(begin, 1)[1].split(end, 1)[0] + end


def replace_section(path_md, name, section):
    """Writes `section` (markers included) into the report in place of the
    old one, or appends it."""
    text = ""
    if os.path.exists(path_md):
        with open(path_md) as f:
            text = f.read()
    begin, end = markers(name)
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    elif text:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    else:
        text = "# Benchmarks\n\n" + section + "\n"
    with open(path_md, "w") as f:
        f.write(text)
