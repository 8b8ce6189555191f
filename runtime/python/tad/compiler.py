"""Running tadc from Python: ``tad.compile``."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .module import Module, load


class CompileError(RuntimeError):
    """tadc rejected the program or failed.

    ``str(error)`` leads with the diagnostics; ``diagnostics`` is tadc's
    stderr as written (``file:line:col: error: ...``), ``returncode`` its
    exit status and ``command`` the argument list that ran.
    """

    def __init__(self, message: str, diagnostics: str = "",
                 returncode=None, command=()):
        super().__init__(message)
        self.diagnostics = diagnostics
        self.returncode = returncode
        self.command = list(command)


def _own_tadcs():
    """The tadc that belongs to this package: the installed one next to an
    installed package, else a checkout's build ($TAD_BUILD_DIR, then the
    checkout's build/)."""
    package = Path(__file__).resolve().parent
    try:
        from . import _install
    except ImportError:
        _install = None
    if _install is not None:
        return [os.path.normpath(package / _install.BINDIR / "tadc")]
    candidates = []
    build = os.environ.get("TAD_BUILD_DIR")
    if build:
        candidates.append(os.path.join(build, "bin", "tadc"))
    # runtime/python/tad/compiler.py -> <repo>/build/bin/tadc
    candidates.append(str(package.parents[2] / "build" / "bin" / "tadc"))
    return candidates


def find_tadc() -> str:
    """The tadc to run: ``$TADC``; else the one this package was installed
    with (``<prefix>/bin/tadc``), or in a checkout the one built there;
    else ``tadc`` on ``PATH``. If none exists, the path where this
    package's own tadc would be."""
    env = os.environ.get("TADC")
    if env:
        return env
    own = _own_tadcs()
    for candidate in own:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    on_path = shutil.which("tadc")
    if on_path:
        return on_path
    return own[0]


def _names(value):
    """A name or an iterable of names, as a list."""
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value]


def _paths(value):
    """A path or an iterable of paths, as a list of absolute paths."""
    if isinstance(value, (str, os.PathLike)):
        value = [value]
    return [os.path.abspath(os.fspath(v)) for v in value]


def _is_text(source) -> bool:
    """Whether ``source`` is MLIR text rather than a path to a file."""
    if isinstance(source, os.PathLike):
        return False
    if not isinstance(source, str):
        raise TypeError("tad.compile takes a path or MLIR text, not "
                        f"{type(source).__name__}")
    return "\n" in source or "{" in source


def compile(source, vjp=(), jvp=(), target="cpu", rules=(), opt_level=3,
            output=None, extra_args=(), checkpoint=None) -> Module:
    """Compiles a tad program with tadc and loads the result.

    ``source`` is a path to a ``.mlir`` file or the MLIR text itself (any
    string with a newline or a ``{``). ``vjp`` and ``jvp`` name the
    functions to differentiate (a name or a list of names); ``rules`` adds
    derivative rule files; ``checkpoint`` ("store", "sqrt", "levels:L",
    "revolve:S" or a segment length k) chooses how the reverse sweep of
    loops keeps forward values (tadc ``--checkpoint``, docs/loops.md);
    ``extra_args`` go to tadc as they are. The
    ``.so`` is written to ``output``, or to a temporary directory that lives
    as long as the returned module. Raises ``CompileError`` with tadc's
    diagnostics if it fails.
    """
    if opt_level not in (0, 1, 2, 3):
        raise ValueError(f"opt_level must be 0, 1, 2 or 3, not {opt_level!r}")
    tadc = find_tadc()
    if not (os.path.isfile(tadc) and os.access(tadc, os.X_OK)):
        raise CompileError(f"tadc not found at {tadc}: install tad "
                           "(docs/install.md), set TADC, or put tadc on PATH")

    workdir = tempfile.TemporaryDirectory(prefix="tad-")
    try:
        if _is_text(source):
            input_path = os.path.join(workdir.name, "module.mlir")
            with open(input_path, "w", encoding="utf-8") as f:
                f.write(source)
        else:
            input_path = os.path.abspath(os.fspath(source))
            if not os.path.isfile(input_path):
                raise FileNotFoundError(f"no such tad program: {input_path}")
        out = os.path.abspath(os.fspath(output)) if output is not None else \
            os.path.join(workdir.name, "module.so")

        command = [tadc, input_path, "-o", out, f"--target={target}",
                   f"-O{opt_level}"]
        if _names(vjp):
            command.append("--vjp=" + ",".join(_names(vjp)))
        if _names(jvp):
            command.append("--jvp=" + ",".join(_names(jvp)))
        command += [f"--rules={path}" for path in _paths(rules)]
        if checkpoint is not None:
            command.append(f"--checkpoint={checkpoint}")
        command += [str(a) for a in extra_args]

        proc = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            how = (f"exit code {proc.returncode}" if proc.returncode > 0
                   else f"signal {-proc.returncode}")
            diagnostics = proc.stderr.strip()
            raise CompileError(f"tadc failed ({how}):\n{diagnostics}",
                               proc.stderr, proc.returncode, command)
        if not os.path.isfile(out):
            raise CompileError(f"tadc succeeded but wrote no {out}",
                               proc.stderr, proc.returncode, command)
        module = load(out)
    except BaseException:
        workdir.cleanup()
        raise
    if output is None:
        module._workdir = workdir  # removed with the module
    else:
        workdir.cleanup()
    return module
