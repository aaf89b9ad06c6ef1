"""The module import graph of ``coordinator_core``, ``jobs`` and ``benchmarks``: no cycles, straight layers.

Read with ``ast`` (nothing is imported). Every import statement counts: module level, inside
functions and under ``if TYPE_CHECKING:`` alike, so a cycle cannot hide behind a lazy or a
type-checking import. ``import a.b`` and ``from a import b`` count as an edge to the deepest module
named (``a.b`` when it is a module, else the package ``a``, i.e. its ``__init__``); relative imports
are resolved against the importing module's package.

The cycles that remain are listed in :data:`ALLOWED_CYCLES`, each with who breaks it and how; the
list can only shrink (a listed cycle that no longer exists fails the test too).

The same file checks the layers, with the same kind of shrinking lists: the entry points that must
load no Spark (:data:`SPARK_FREE`; load-time imports only, since a subcommand may import Spark
inside the function that needs it), imports against the layers (:data:`FORBIDDEN`) and private
names (``_x``) imported from another module.

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
ALLOWED_CYCLES: dict[frozenset[str], str] = {}


#: Entry points that load no Spark: the CLI dispatches lazily per subcommand, the simulator runs
#: without it, and so does the core.
SPARK_FREE = ("jobs.__main__", "jobs.cli", "jobs.report.__main__", "jobs.simulate.__main__", "jobs.simulate",
              "coordinator_core")
#: Entry points of :data:`SPARK_FREE` that still load Spark, with their reason.
ALLOWED_SPARK_AT_LOAD: dict[str, str] = {}

#: ``(importer, imported)`` module prefixes that must not meet (counting every import): why.
FORBIDDEN: dict[tuple[str, str], str] = {
    ("jobs.pipeline", "jobs.report"): "the run does not format; the console formats the summary it is given",
    ("jobs", "benchmarks"): "benchmarks measure the job, the job does not depend on them",
    ("jobs.simulate", "jobs.pipeline"): "the simulator writes logs; it runs no job",
    ("jobs.simulate", "jobs.ingest"): "the simulator writes logs; it does not read them",
}
#: Imports against :data:`FORBIDDEN` that remain, as ``(importer, imported)`` modules, with their reason.
ALLOWED_LAYER_VIOLATIONS: dict[tuple[str, str], str] = {}

#: Modules that import another module's private names (``from m import _x``), with their reason.
ALLOWED_PRIVATE_IMPORTS: dict[str, str] = {}


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


def test_allowed_lists_give_reasons():
    """Every entry of a shrinking list says who owns it and how it is to be broken."""
    for allowed in (ALLOWED_CYCLES, ALLOWED_SPARK_AT_LOAD, ALLOWED_LAYER_VIOLATIONS, ALLOWED_PRIVATE_IMPORTS):
        assert all(r.startswith("owned by ") and " to break by " in r for r in allowed.values())


def _load_chain(entry: str) -> dict[str, str | None]:
    """Every module loaded with ``entry`` (load-time imports and the parent packages), each with the
    module that loaded it on a shortest chain from ``entry``."""
    graph = _graph(load_time_only=True)
    came_from: dict[str, str | None] = {entry: None}
    todo = [entry]
    while todo:
        v = todo.pop(0)
        parts = v.split(".")
        parents = {".".join(parts[:n]) for n in range(1, len(parts))} & MODULES.keys()
        for w in sorted(graph[v] | parents):
            if w not in came_from:
                came_from[w] = v
                todo.append(w)
    return came_from


def _spark_path(entry: str) -> list[str] | None:
    """``[entry, ..., module that imports pyspark]``, or None when ``entry`` loads no Spark."""
    came_from = _load_chain(entry)
    paths = []
    for module in sorted(came_from):
        if any(n.split(".")[0] == "pyspark" for n in _imports(module, load_time_only=True)):
            path = [module]
            while (up := came_from[path[-1]]) is not None:
                path.append(up)
            paths.append(path[::-1])
    return min(paths, key=len, default=None)


def test_spark_free_entry_points():
    loading = {entry: _spark_path(entry) for entry in SPARK_FREE}
    new = [" -> ".join(p) for e, p in loading.items() if p is not None and e not in ALLOWED_SPARK_AT_LOAD]
    assert not new, "these load pyspark: " + "; ".join(new)
    stale = [e for e in ALLOWED_SPARK_AT_LOAD if loading[e] is None]
    assert not stale, f"allow-listed entry points that load no Spark any more (drop them): {stale}"


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_layers():
    graph = _graph()
    found = {
        (a, b): why
        for a, deps in graph.items()
        for b in deps
        for (lo, hi), why in FORBIDDEN.items()
        if _under(a, lo) and _under(b, hi)
    }
    new = [
        f"{a} -> {b} ({why})"
        for (a, b), why in sorted(found.items())
        if (a, b) not in ALLOWED_LAYER_VIOLATIONS
    ]
    assert not new, "imports against the layers: " + "; ".join(new)
    stale = [edge for edge in ALLOWED_LAYER_VIOLATIONS if edge not in found]
    assert not stale, f"allow-listed layer violations that no longer exist (drop them): {stale}"


def _private_imports(module: str) -> list[str]:
    """``m._x`` for each private name the module imports from another internal module."""
    found = []
    for node in _every_import(_parse(MODULES[module])):
        if isinstance(node, ast.ImportFrom):
            target = _resolve_from(module, node)
            if _deepest_module(target) not in (None, module):
                found += [
                    f"{target}.{a.name}" for a in node.names if a.name.startswith("_") and a.name[1:2] != "_"
                ]
    return found


def test_no_private_imports():
    found = {m: names for m in MODULES if (names := _private_imports(m))}
    new = [
        f"{m}: {', '.join(names)}" for m, names in sorted(found.items()) if m not in ALLOWED_PRIVATE_IMPORTS
    ]
    assert not new, "private names imported from another module: " + "; ".join(new)
    stale = [m for m in ALLOWED_PRIVATE_IMPORTS if m not in found]
    assert not stale, f"allow-listed modules that import no private name any more (drop them): {stale}"


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
