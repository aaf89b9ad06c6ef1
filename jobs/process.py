"""How the command-line entry points end the process (``run_main`` / ``exit_process``): one module that
every entry point (the job's CLI, the report, the simulator, the benchmarks) and the test session
share, so none of them imports another's CLI to leave."""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import traceback
from typing import NoReturn


def exit_process(code: int) -> NoReturn:
    """End the process with ``code`` once the job's work is done, without the interpreter's
    finalisation: Arrow's C++ thread pools can abort a finished process at exit ("terminate called
    without an active exception", exit 134; apache/arrow#34314, #39862, delta-io/delta-rs#2184),
    which would turn a successful nightly run into a failed one. Python's ``atexit`` handlers still
    run (PySpark's stops the JVM it started); only the native static destructors are skipped."""
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def run_main(entry) -> NoReturn:
    """``sys.exit(entry())`` for the command-line entry points, leaving through ``exit_process``."""
    try:
        code = entry()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        print("\ninterrupted (Ctrl-C)", file=sys.stderr)
        code = 130
    except BaseException:  # noqa: BLE001 - reported like the interpreter would, then a plain exit 1
        traceback.print_exc()
        code = 1
    exit_process(int(code or 0))
