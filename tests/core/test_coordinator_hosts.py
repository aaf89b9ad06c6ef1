"""The declared hosts of the coordinators' mixins (``coordinator/host.py``, ``consumer/host.py``)
describe the coordinators they are mixed into, and add nothing at run time."""

from __future__ import annotations

import ast
import inspect
import sys
import types
import typing
from typing import Any

import pytest

from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.host import ConsumerCoordinatorHost
from coordinator_core.coordinator import GroupCoordinator
from coordinator_core.coordinator.host import CoordinatorHost

CASES = [(CoordinatorHost, GroupCoordinator), (ConsumerCoordinatorHost, ConsumerGroupCoordinator)]
IDS = ["classic", "consumer"]


def _declared_methods(host: type) -> set[str]:
    """Names of the methods declared under ``if TYPE_CHECKING:`` in the host's class body."""
    tree = ast.parse(inspect.getsource(sys.modules[host.__module__]))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == host.__name__)
    blocks = [n for n in cls.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    return {f.name for b in blocks for f in b.body if isinstance(f, ast.FunctionDef)}


def _runtime_types(hint: Any) -> tuple[Any, ...]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(t for arg in typing.get_args(hint) for t in _runtime_types(arg))
    if hint is None or hint is type(None):
        return (type(None),)
    origin = typing.get_origin(hint)
    return (origin if origin is not None else hint,)


@pytest.mark.parametrize(("host", "cls"), CASES, ids=IDS)
def test_host_defines_nothing_at_run_time(host: type, cls: type) -> None:
    # annotations only: no stub or value of the host can shadow a mixin's implementation
    assert {k for k in vars(host) if not k.startswith("__")} == set()
    assert host in cls.__mro__


@pytest.mark.parametrize(("host", "cls"), CASES, ids=IDS)
def test_declared_attributes_are_the_coordinators(host: type, cls: type) -> None:
    coordinator = cls()
    hints = typing.get_type_hints(host)
    assert len(hints) >= 12
    wrong = {
        name: type(getattr(coordinator, name, None)).__name__
        for name, hint in hints.items()
        if not isinstance(getattr(coordinator, name, None), _runtime_types(hint))
    }
    assert wrong == {}


@pytest.mark.parametrize(("host", "cls"), CASES, ids=IDS)
def test_declared_methods_are_implemented(host: type, cls: type) -> None:
    declared = _declared_methods(host)
    assert len(declared) >= 15
    owners = {name: next((c.__name__ for c in cls.__mro__ if name in vars(c)), None) for name in declared}
    assert {name for name, owner in owners.items() if owner in (None, host.__name__)} == set()
    assert all(callable(getattr(cls, name)) for name in declared)
