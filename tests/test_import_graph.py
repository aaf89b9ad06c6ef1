"""The module import graph of ``coordinator_core``, ``jobs`` and ``benchmarks`` has no cycles.

Read with ``ast`` (nothing is imported). Every import statement counts: module level, inside
functions and under ``if TYPE_CHECKING:`` alike, so a cycle cannot hide behind a lazy or a
type-checking import. ``import a.b`` and ``from a import b`` count as an edge to the deepest module
named (``a.b`` when it is a module, else the package ``a``, i.e. its ``__init__``); relative imports
are resolved against the importing module's package.

The cycles that remain are listed in :data:`ALLOWED_CYCLES`, each with who breaks it and how; the
list can only shrink (a listed cycle that no longer exists fails the test too).

What ``coordinator_core`` may import at all (no ``jobs``, Spark, pandas, Arrow, I/O) is checked by
``tests/core/test_purity.py``.
"""

from __future__ import annotations

import ast
import functools
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("coordinator_core", "jobs", "benchmarks")

#: Known cycles (counting every import), as sets of module names, each with its reason: who owns the
#: modules and how the cycle is to be broken. Break one, then drop its entry.
ALLOWED_CYCLES: dict[frozenset[str], str] = {
    frozenset({"coordinator_core.replay.fastpath", "coordinator_core.replay.group_replay"}): (
        "owned by concurrent work on coordinator_core/replay/; to break by typing the feed functions' "
        "`rp` with a typing.Protocol of what they call, in a small replay/*_types.py, not GroupReplay"
    ),
    frozenset({"jobs.ingest.reference", "jobs.ingest.reference_events"}): (
        "owned by concurrent work on jobs/ingest/; to break by moving File, Head and rx down into a "
        "lower module both import (reference_events then no longer imports reference)"
    ),
}


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


def _every_import(tree: ast.Module):
    """Every import statement of the module, wherever it is (functions, ``TYPE_CHECKING`` too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


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


@functools.cache
def _parse(path: pathlib.Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _imports(module: str, load_time_only: bool = False) -> set[str]:
    """Every dotted name the module imports (internal or not); ``load_time_only``: only those
    imported when the module loads."""
    tree = _parse(MODULES[module])
    names: set[str] = set()
    for node in _load_time_imports(tree.body) if load_time_only else _every_import(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        else:
            target = _resolve_from(module, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                names.add(sub if sub in MODULES else target)
    return names


def _graph(load_time_only: bool = False) -> dict[str, set[str]]:
    graph = {}
    for module in MODULES:
        deps = {_deepest_module(name) for name in _imports(module, load_time_only)}
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
    """Counting every import; a cycle is broken with a narrow interface (a callable or a
    typing.Protocol passed in, a shared definition moved down), not with a lazy import."""
    found = _cycles(_graph())
    new = [path for comp, path in found if comp not in ALLOWED_CYCLES]
    assert not new, "import cycles: " + "; ".join(" -> ".join(path) for path in new)
    stale = [sorted(a) for a in ALLOWED_CYCLES if a not in {comp for comp, _ in found}]
    assert not stale, f"allow-listed cycles that no longer exist (drop them): {stale}"


def test_allowed_cycles_give_reasons():
    assert all(
        reason.startswith("owned by ") and " to break by " in reason for reason in ALLOWED_CYCLES.values()
    )


BOTH = {"jobs.cli", "jobs.sink"}


@pytest.mark.parametrize(
    ("source", "every", "load_time"),
    [
        ("import coordinator_core.coordinator.join", {"coordinator_core.coordinator.join"}, None),
        ("from coordinator_core import coordinator", {"coordinator_core.coordinator"}, None),
        ("from coordinator_core.coordinator import Outcome", {"coordinator_core.coordinator"}, None),
        ("from . import core", {"coordinator_core.coordinator.core"}, None),
        ("from .protocol import NONE", {"coordinator_core.coordinator.protocol"}, None),
        ("from .. import states", {"coordinator_core.states"}, None),
        ("if TYPE_CHECKING:\n    import jobs.cli\nelse:\n    import jobs.sink", BOTH, {"jobs.sink"}),
        ("def f():\n    import jobs.cli", {"jobs.cli"}, set()),
        ("class C:\n    def f(self):\n        from jobs import cli", {"jobs.cli"}, set()),
        ("try:\n    import jobs.cli\nexcept ImportError:\n    import jobs.sink", BOTH, None),
    ],
)
def test_resolution(source, every, load_time, monkeypatch, tmp_path):
    """The edge rules, on a fake module inside the ``coordinator_core.coordinator`` package: every
    import, and (None: the same) those run at load time."""
    fake = tmp_path / "fake.py"
    fake.write_text(source)
    monkeypatch.setitem(MODULES, "coordinator_core.coordinator.fake", fake)
    for load_time_only, expected in ((False, every), (True, every if load_time is None else load_time)):
        deps = {_deepest_module(n) for n in _imports("coordinator_core.coordinator.fake", load_time_only)}
        assert deps - {None} == expected


def test_every_import_finds_a_lazy_cycle(monkeypatch, tmp_path):
    """Two fake modules importing each other only inside a function and under TYPE_CHECKING: a
    cycle, which the load-time graph alone would not see."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("def f():\n    from jobs import fake_b\n")
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jobs import fake_a\n")
    monkeypatch.setitem(MODULES, "jobs.fake_a", a)
    monkeypatch.setitem(MODULES, "jobs.fake_b", b)
    cycles = {comp for comp, _ in _cycles(_graph())}
    assert frozenset({"jobs.fake_a", "jobs.fake_b"}) in cycles
    assert frozenset({"jobs.fake_a", "jobs.fake_b"}) not in {comp for comp, _ in _cycles(_graph(True))}
