"""The module import graph of ``coordinator_core`` and ``jobs`` has no cycles.

Read with ``ast`` (nothing is imported): the imports that run when a module is loaded, i.e. module
level, inside module-level ``if``/``try``/``with`` blocks and class bodies, but not inside
functions and not under ``if TYPE_CHECKING:``. ``import a.b`` and ``from a import b`` count as an
edge to the deepest module named (``a.b`` when it is a module, else the package ``a``, i.e. its
``__init__``); relative imports are resolved against the importing module's package.

What ``coordinator_core`` may import at all (no ``jobs``, Spark, pandas, Arrow, I/O) is checked by
``tests/core/test_purity.py``.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("coordinator_core", "jobs")

#: Known cycles that are left alone for now, as sets of module names. Every entry names its issue.
ALLOWED_CYCLES: list[frozenset[str]] = [
    # issue 13: jobs/simulate/ is being reworked by another change; its cycles are fixed there.
]


def _module_files() -> dict[str, pathlib.Path]:
    mods = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = path
    return mods


MODULES = _module_files()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_imports(body: list[ast.stmt]):
    """Import statements executed when the module loads (not in functions, not TYPE_CHECKING)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _load_time_imports(node.body)
            yield from _load_time_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _load_time_imports(block)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _load_time_imports(node.body)


def _deepest_module(dotted: str) -> str | None:
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in MODULES:
            return name
    return None


def _resolve_from(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> set[str]:
    """Every dotted name the module imports at load time (internal or not)."""
    tree = ast.parse(MODULES[module].read_text(), filename=str(MODULES[module]))
    names: set[str] = set()
    for node in _load_time_imports(tree.body):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        else:
            target = _resolve_from(module, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                names.add(sub if sub in MODULES else target)
    return names


def _graph() -> dict[str, set[str]]:
    graph = {}
    for module in MODULES:
        deps = {_deepest_module(name) for name in _imports(module)}
        graph[module] = {d for d in deps if d is not None and d != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """Each strongly connected component with more than one module, with one cycle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def strongconnect(v: str) -> None:  # Tarjan; the graph is small, recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(comp)

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return [(frozenset(comp), _path_in(graph, comp)) for comp in components]


def _path_in(graph: dict[str, set[str]], comp: set[str]) -> list[str]:
    """A shortest cycle through the component's first module, as ``[a, b, ..., a]``."""
    start = min(comp)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & comp):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"not a cycle: {sorted(comp)}")


def test_modules_found():
    assert "coordinator_core.coordinator" in MODULES and "jobs.pipeline" in MODULES


def test_no_import_cycles():
    found = _cycles(_graph())
    new = [path for comp, path in found if comp not in ALLOWED_CYCLES]
    assert not new, "import cycles: " + "; ".join(" -> ".join(path) for path in new)
    stale = [sorted(a) for a in ALLOWED_CYCLES if a not in {comp for comp, _ in found}]
    assert not stale, f"allow-listed cycles that no longer exist (drop them): {stale}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import coordinator_core.coordinator.join", {"coordinator_core.coordinator.join"}),
        ("from coordinator_core import coordinator", {"coordinator_core.coordinator"}),
        ("from coordinator_core.coordinator import Outcome", {"coordinator_core.coordinator"}),
        ("from . import core", {"coordinator_core.coordinator.core"}),
        ("from .protocol import NONE", {"coordinator_core.coordinator.protocol"}),
        ("from .. import states", {"coordinator_core.states"}),
        ("if TYPE_CHECKING:\n    import jobs.cli\nelse:\n    import jobs.sink", {"jobs.sink"}),
        ("def f():\n    import jobs.cli", set()),
        ("try:\n    import jobs.cli\nexcept ImportError:\n    import jobs.sink", {"jobs.cli", "jobs.sink"}),
    ],
)
def test_resolution(source, expected, monkeypatch, tmp_path):
    """The edge rules, on a fake module inside the ``coordinator_core.coordinator`` package."""
    fake = tmp_path / "fake.py"
    fake.write_text(source)
    monkeypatch.setitem(MODULES, "coordinator_core.coordinator.fake", fake)
    deps = {_deepest_module(n) for n in _imports("coordinator_core.coordinator.fake")}
    assert deps - {None} == expected
