"""Log statements of Python source (kafka-python, aiokafka): ``log.info("fmt %s", a)`` calls on a
module logger, found with :mod:`ast`."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

LEVELS = {"debug": "DEBUG", "info": "INFO", "warning": "WARNING", "warn": "WARNING", "error": "ERROR",
          "exception": "ERROR", "critical": "CRITICAL"}  # fmt: skip
_PCT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


@dataclass(frozen=True)
class Found:
    format: str
    level: str
    line: int
    args: tuple[str, ...]  # the source text of each argument of a placeholder
    logger: str
    facility: str = ""


def _logger_names(tree: ast.Module, module: str) -> dict[str, str]:
    """name -> logger name for ``name = logging.getLogger(...)`` at module level."""
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        fn = node.value.func
        if not (isinstance(fn, ast.Attribute) and fn.attr == "getLogger"):
            continue
        arg = node.value.args[0] if node.value.args else None
        name = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else module
        for t in node.targets:
            if isinstance(t, ast.Name):
                out[t.id] = name
    return out


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _text(node.left), _text(node.right)
        return a + b if a is not None and b is not None else None
    return None


def placeholders(fmt: str) -> list[str]:
    """The conversion characters of a %-format (``%%`` excluded)."""
    return [m.group(1) for m in _PCT.finditer(fmt) if m.group(1) != "%"]


def extract(source: str, module: str) -> list[Found]:
    tree = ast.parse(source)
    loggers = _logger_names(tree, module)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        level = LEVELS.get(node.func.attr)
        owner = node.func.value
        if level is None or not isinstance(owner, ast.Name) or owner.id not in loggers or not node.args:
            continue
        fmt = _text(node.args[0])
        if fmt is None:
            continue
        args = tuple(ast.unparse(a) for a in node.args[1:])
        out.append(Found(fmt, level, node.lineno, args, loggers[owner.id]))
    return out
