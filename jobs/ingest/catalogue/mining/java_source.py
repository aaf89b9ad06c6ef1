"""Log statements of a Java or Scala source file: level, line, the verbatim format and its arguments.

Java: ``log.info("text {} more", a, b)`` (slf4j; also ``LOG``/``logger``), a format built by ``+``
concatenation (``"a " + x + " b"``: each non-literal operand is an argument) and ``String.format``.
Scala (Kafka's ``Logging`` trait): ``info(s"text ${group.groupId} more")``, ``"..%s..".format(x)`` and
``+`` concatenation. A statement's *wording* is its text with every argument as ``{}``; the miner merges
statements with the same class and wording across tags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_JAVA_CALL = re.compile(r"\b(?:log|LOG|logger|LOGGER|log\(\))\.(trace|debug|info|warn|warning|error)\s*\(")
_SCALA_CALL = re.compile(r"(?<![\w.])(trace|debug|info|warn|error)\s*\(")
_SCALA_DEF = re.compile(r"def\s+$")


@dataclass(frozen=True, slots=True)
class LogCall:
    level: str  # TRACE, DEBUG, INFO, WARN, ERROR
    line: int
    format: str  # the format verbatim: a literal's text, else the source expression (whitespace collapsed)
    wording: str  # the text with every argument as {}
    args: tuple[str, ...]  # the source expression of each {} in order


def _skip_string(src: str, i: int) -> int:
    """Index after the string literal starting at ``src[i]`` (``"``, ``'`` or ``\"\"\"``); a Scala
    interpolated literal (``s"..."``) may hold quotes inside ``${...}``."""
    if src.startswith('"""', i):
        j = src.find('"""', i + 3)
        return len(src) if j < 0 else j + 3
    interp = i > 0 and src[i - 1] == "s" and src[i] == '"'
    q = src[i]
    j = i + 1
    while j < len(src):
        if src[j] == "\\":
            j += 2
            continue
        if interp and src.startswith("${", j):
            depth, j = 1, j + 2
            while j < len(src) and depth:
                if src[j] == '"':
                    j = _skip_string(src, j)
                    continue
                depth += {"{": 1, "}": -1}.get(src[j], 0)
                j += 1
            continue
        if src[j] == q or src[j] == "\n":
            return j + 1
        j += 1
    return j


def _call_args(src: str, start: int) -> tuple[list[str], int] | None:
    """The top-level arguments of the call whose ``(`` is at ``start``, and the index after ``)``."""
    depth, i, cur, out = 0, start, start + 1, []
    while i < len(src):
        c = src[i]
        if c in "\"'":
            if c == "'" and not re.match(r"'(?:\\.|[^'\\])'", src[i : i + 4]):
                i += 1  # a Scala symbol or an apostrophe in a comment-free context
                continue
            i = _skip_string(src, i)
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = len(src) if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = len(src) if j < 0 else j + 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(src[cur:i])
                return [a.strip() for a in out], i + 1
        elif c == "," and depth == 1:
            out.append(src[cur:i])
            cur = i + 1
        i += 1
    return None


def _split_plus(expr: str) -> list[str]:
    """Operands of a top-level ``+`` concatenation."""
    parts, depth, i, cur = [], 0, 0, 0
    while i < len(expr):
        c = expr[i]
        if c in "\"'":
            if c == "'" and not re.match(r"'(?:\\.|[^'\\])'", expr[i : i + 4]):
                i += 1
                continue
            start = i
            i = _skip_string(expr, i)
            if start > 0 and expr[start - 1] == "s":  # s"..." in Scala
                pass
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "+" and depth == 0:
            parts.append(expr[cur:i].strip())
            cur = i + 1
        i += 1
    parts.append(expr[cur:].strip())
    return [p for p in parts if p]


_JAVA_ESC = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "r": "\r"}


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _JAVA_ESC.get(m.group(1), m.group(1)), body)


def _literal(op: str) -> str | None:
    """The text of a plain string literal operand, else None."""
    m = re.fullmatch(r'"((?:\\.|[^"\\])*)"', op, re.S) or re.fullmatch(r'"""(.*)"""', op, re.S)
    return _unescape(m.group(1)) if m else None


def _interpolated(op: str) -> tuple[str, list[str]] | None:
    """A Scala ``s"..."`` literal: its text with ``{}`` per ``$x`` / ``${expr}``, and the exprs."""
    if op.startswith('s"""') and op.endswith('"""'):
        body = op[4:-3]
    elif op.startswith('s"') and len(op) > 2 and _skip_string(op, 1) == len(op):
        body = op[2:-1]
    else:
        return None
    out, args, i = [], [], 0
    while i < len(body):
        if body.startswith("$$", i):
            out.append("$")
            i += 2
        elif body.startswith("${", i):
            depth, j = 0, i + 1
            while j < len(body):
                if body[j] == '"':
                    j = _skip_string(body, j)
                    continue
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                if depth == 0:
                    break
                j += 1
            args.append(body[i + 2 : j].strip())
            out.append("{}")
            i = j + 1
        elif body[i] == "$":
            mm = re.match(r"\$([A-Za-z_][A-Za-z0-9_]*)", body[i:])
            if mm:
                args.append(mm.group(1))
                out.append("{}")
                i += len(mm.group(0))
            else:
                out.append("$")
                i += 1
        else:
            out.append(body[i])
            i += 1
    return _unescape("".join(out)), args


def _percent(text: str, args: list[str]) -> tuple[str, list[str]]:
    return re.sub(r"%[-0-9.]*[sdfx]", "{}", text), args


def format_expr(expr: str, rest: list[str]) -> tuple[str, list[str]] | None:
    """(wording, args) of a format expression and the call's remaining arguments."""
    expr = expr.strip()
    m = re.fullmatch(r"String\.format\((.*)\)", expr, re.S)
    if m:
        inner = _call_args("(" + m.group(1) + ")", 0)
        if inner and inner[0]:
            got = format_expr(inner[0][0], [])
            if got:
                return _percent(got[0], got[1] + inner[0][1:])
        return None
    m = re.fullmatch(r'(s?"(?:\\.|[^"\\])*")\s*\.format\((.*)\)', expr, re.S)
    if m:
        inner = _call_args("(" + m.group(2) + ")", 0)
        got = format_expr(m.group(1), [])
        if got and inner:
            return _percent(got[0], got[1] + inner[0])
    text, args = [], []
    any_literal = False
    for op in _split_plus(expr):
        lit = _literal(op)
        if lit is not None:
            n = lit.count("{}")
            args.extend(rest[:n])
            rest = rest[n:]
            text.append(lit)
            any_literal = True
            continue
        interp = _interpolated(op)
        if interp is not None:
            text.append(interp[0])
            args.extend(interp[1])
            any_literal = True
            continue
        text.append("{}")
        args.append(op)
    if not any_literal:
        return None
    return "".join(text), args


def _collapse(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def log_calls(src: str, language: str) -> list[LogCall]:
    """Every log statement of one source file (``language``: ``java`` or ``scala``)."""
    call = _JAVA_CALL if language == "java" else _SCALA_CALL
    out: list[LogCall] = []
    for m in call.finditer(src):
        if language == "scala" and _SCALA_DEF.search(src[max(0, m.start() - 8) : m.start()]):
            continue
        line_start = src.rfind("\n", 0, m.start()) + 1
        if src[line_start : m.start()].lstrip().startswith(("//", "*", "/*")):
            continue
        got = _call_args(src, m.end() - 1)
        if not got or not got[0] or not got[0][0]:
            continue
        args = got[0]
        # Spring's LogAccessor: logger.error(throwable, "text" | () -> text)
        if len(args) > 1 and re.fullmatch(r"[a-z][A-Za-z0-9_]*", args[0]) and re.match(r'\(\)\s*->|s?"', args[1]):
            args = args[1:]
        args = [re.sub(r"^\(\)\s*->\s*", "", args[0]), *args[1:]]
        fmt = format_expr(args[0], args[1:])
        if fmt is None:
            continue
        wording, fargs = fmt
        verbatim = _literal(args[0].strip())
        out.append(
            LogCall(
                level=m.group(1).upper(),
                line=src.count("\n", 0, m.start()) + 1,
                format=verbatim if verbatim is not None else _collapse(args[0]),
                wording=_collapse(wording),
                args=tuple(_collapse(a) for a in fargs),
            )
        )
    return out
