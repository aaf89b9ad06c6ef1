"""coordinator_core is sans-IO: no Spark, pandas, Arrow, Delta or I/O, no wall clock, and it never
imports the job (``jobs``), not even lazily inside a function."""

from __future__ import annotations

import ast
import pathlib

import pytest

CORE = pathlib.Path(__file__).resolve().parents[2] / "coordinator_core"
FORBIDDEN_MODULES = {
    "pyspark", "pandas", "pyarrow", "delta", "deltalake", "numpy", "io", "os", "pathlib", "socket",
    "subprocess", "shutil", "tempfile", "logging", "time", "threading", "asyncio", "urllib", "requests",
    "jobs",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input"}


def _sources():
    files = sorted(CORE.rglob("*.py"))
    assert files, "coordinator_core has no modules"
    return files


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_is_pure(path: pathlib.Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            assert node.module.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {node.module}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in {"now", "utcnow", "today", "time_ns"}
            and isinstance(node.value, ast.Name)
            and node.value.id in {"datetime", "date", "time"}
        ):
            raise AssertionError(f"{path.name} reads the wall clock: {node.value.id}.{node.attr}")
