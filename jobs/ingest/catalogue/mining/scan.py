"""A small source scanner: the log calls of a file (Go, JavaScript, Ruby, Erlang, C#), with their
argument text and string literals, aware of strings, interpolation and comments. Python files are
read with :mod:`ast` (:func:`python_calls`)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Call:
    line: int  # 1-based line of the call's name
    name: str  # the matched call text (e.g. ``Logger.Printf``, ``@logger.info``)
    args: list[str]  # top-level arguments, verbatim (whitespace collapsed)


def _skip_string(src: str, i: int, lang: str) -> int:
    """Index after the string literal starting at ``src[i]`` (a quote)."""
    q = src[i]
    j = i + 1
    cs_prefix = src[max(0, i - 2) : i] if lang == "cs" else ""
    verbatim, interpolated = "@" in cs_prefix, "$" in cs_prefix
    while j < len(src):
        c = src[j]
        if c == "\\" and not (lang == "go" and q == "`") and not verbatim:
            j += 2
            continue
        if verbatim and c == q and src[j + 1 : j + 2] == q:  # C# verbatim string: "" is a quote
            j += 2
            continue
        if c == q:
            return j + 1
        if interpolated and c == "{":  # C# $"... {expr} ...": an expression may hold quotes; {{ is a brace
            j = j + 2 if src[j + 1 : j + 2] == "{" else _skip_balanced(src, j + 1, "{", "}", lang)
            continue
        # interpolation that may hold quotes: Ruby "#{...}", JS `${...}`
        if (lang == "ruby" and q == '"' and src.startswith("#{", j)) or (lang == "js" and q == "`" and src.startswith("${", j)):
            j = _skip_balanced(src, j + 2, "{", "}", lang)
            continue
        j += 1
    return j


def _skip_balanced(src: str, i: int, open_: str, close: str, lang: str) -> int:
    """Index after the ``close`` that balances an ``open_`` just before ``src[i]``."""
    depth = 1
    j = i
    while j < len(src):
        c = src[j]
        if c in "\"'`" and not (lang == "erlang" and c == "`"):
            if lang == "erlang" and c == "'":
                j = _skip_string(src, j, lang)
                continue
            j = _skip_string(src, j, lang)
            continue
        if lang == "erlang" and c == "$":
            j += 2 if src[j + 1 : j + 2] != "\\" else 3
            continue
        if lang in ("go", "js", "cs") and src.startswith("//", j):
            j = src.find("\n", j)
            j = len(src) if j < 0 else j
            continue
        if lang == "ruby" and c == "#" and not src.startswith("#{", j):
            j = src.find("\n", j)
            j = len(src) if j < 0 else j
            continue
        if lang == "erlang" and c == "%":
            j = src.find("\n", j)
            j = len(src) if j < 0 else j
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def split_args(text: str, lang: str) -> list[str]:
    """Top-level comma-separated arguments of ``text`` (verbatim, whitespace collapsed)."""
    out, start, j, depth = [], 0, 0, 0
    while j < len(text):
        c = text[j]
        if c in "\"'`":
            j = _skip_string(text, j, lang)
            continue
        if lang == "erlang" and c == "$":
            j += 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:j])
            start = j + 1
        j += 1
    out.append(text[start:])
    return [" ".join(a.split()) for a in out if a.strip()]


_ESC = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


def literal(arg: str, lang: str) -> str | None:
    """The text of an argument made of string literals (joined by ``+``, ``++`` or juxtaposition),
    escapes decoded, interpolations kept verbatim; None when it holds anything else."""
    parts: list[str] = []
    j = 0
    s = arg.strip()
    while j < len(s):
        c = s[j]
        if c in " \t\n+":
            j += 1
            continue
        if lang == "cs" and c in "$@" and s[j + 1 : j + 3].lstrip("$@")[:1] == '"':  # C# $"…", @"…", $@"…"
            j += 1
            continue
        if c in "\"'`" and not (lang == "erlang" and c == "'"):
            end = _skip_string(s, j, lang)
            body = s[j + 1 : end - 1]
            if lang == "cs" and "@" in s[max(0, j - 2) : j]:
                body = body.replace('""', '"')
            elif not (lang == "go" and c == "`"):
                body = re.sub(r"\\(.)", lambda m: _ESC.get(m.group(1), "\\" + m.group(1)), body)
            parts.append(body)
            j = end
            continue
        return None
    return "".join(parts) if parts else None


def calls(src: str, start: str, lang: str) -> list[Call]:
    """Every call whose name matches the regex ``start`` (ending before its ``(`` or, for a Ruby
    call without parentheses, before its first argument)."""
    out = []
    for m in re.finditer(start, src):
        j = m.end()
        line = src.count("\n", 0, m.start()) + 1
        if src[j : j + 1] == "(":
            end = _skip_balanced(src, j + 1, "(", ")", lang)
            text = src[j + 1 : end - 1]
        elif lang == "ruby" and src[j : j + 1] == " ":
            end = j
            while True:  # to the end of the line, across open strings/brackets and trailing operators
                nl = src.find("\n", end)
                nl = len(src) if nl < 0 else nl
                seg_end = _ruby_line_end(src, end, nl)
                end = seg_end
                tail = src[j:end].rstrip()
                if tail.endswith(("\\", ",", "+")) and end < len(src):
                    end += 1
                    continue
                break
            text = src[j:end]
            text = re.sub(r"\s+(?:if|unless)\s.*$", "", text.strip())
        else:
            continue
        out.append(Call(line, m.group(0), split_args(text.replace("\\\n", " "), lang)))
    return out


def _ruby_line_end(src: str, i: int, nl: int) -> int:
    j = i
    while j < nl:
        c = src[j]
        if c in "\"'":
            j = _skip_string(src, j, "ruby")
            nl = max(nl, src.find("\n", j) if src.find("\n", j) >= 0 else len(src))
            continue
        if c in "([{":
            j = _skip_balanced(src, j + 1, c, ")]}"["([{".index(c)], "ruby")
            nl = max(nl, src.find("\n", j) if src.find("\n", j) >= 0 else len(src))
            continue
        if c == "#" and not src.startswith("#{", j):
            return j
        j += 1
    return nl


def python_calls(src: str, methods: set[str], receivers: re.Pattern[str]) -> list[Call]:
    """Calls ``<receiver>.<method>(...)`` of a Python file (receiver text matching ``receivers``)."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            recv = ast.unparse(node.func.value)
            if receivers.fullmatch(recv):
                args = [ast.unparse(a) for a in node.args]
                out.append(Call(node.lineno, f"{recv}.{node.func.attr}", args))
    return sorted(out, key=lambda c: c.line)


def python_literal(arg: str) -> str | None:
    """The text of a Python string argument (an f-string keeps ``{expr}``)."""
    try:
        node = ast.parse(arg, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):  # (the only other part of an f-string)
                out.append("{" + ast.unparse(v.value) + "}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = python_literal(ast.unparse(node.left)), python_literal(ast.unparse(node.right))
        return a + b if a is not None and b is not None else None
    return None
