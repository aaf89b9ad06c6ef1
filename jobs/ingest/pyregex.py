"""RE2 kernels of ``pyarrow.compute`` on small columns, answered by Python's ``re`` instead.

``pyarrow.compute.extract_regex`` / ``match_substring_regex`` compile their RE2 pattern on every
call (~0.1-0.2 ms, more than matching a hundred lines). The parser calls them per dialect on the
few distinct messages of a file, so on small inputs the compile is most of the cost of a file.
For columns of at most :data:`SMALL` values the same pattern runs through Python's ``re`` (compiled
once per process), translated to RE2's meaning (:func:`translate`): ASCII ``\\d``/``\\w``/``\\b``,
RE2's whitespace class ``[\\t\\n\\f\\r ]`` for ``\\s`` (no ``\\v``), ``$`` only at the end of the
text. Both engines give leftmost-first (Perl) sub-matches, so the groups are the same; a pattern
with a construct the translator does not know keeps RE2. ``tests/ingest/test_pyregex.py`` checks
every pattern of the layout and dialect tables on both engines.
"""

from __future__ import annotations

import re
from functools import cache

import pyarrow as pa
import pyarrow.compute as pc

#: largest column answered by Python (above it RE2's compile is paid back by its speed); smaller
#: for short patterns (cheap to compile): at most ``len(pattern) // 2`` values
SMALL = 96

_SPACE = "\\t\\n\\f\\r "
# escapes that mean the same in both engines (with re.ASCII)
_SAME = set("dDwWbB") | set("\\.()[]{}|*+?^$-\"'/,:;=<>!@#%&~` ")


class Untranslatable(ValueError):
    """A pattern construct whose Python meaning might differ from RE2's."""


def translate(pattern: str) -> str:
    """The Python ``re`` (flag ``re.ASCII``) spelling of an RE2 pattern."""
    out: list[str] = []
    i, in_class, n = 0, False, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                raise Untranslatable(pattern)
            e = pattern[i + 1]
            if e == "s":
                out.append(_SPACE if in_class else f"[{_SPACE}]")
            elif e == "S":
                if in_class:
                    raise Untranslatable(pattern)
                out.append(f"[^{_SPACE}]")
            elif e == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", pattern[i + 2 : i + 4]):
                out.append(pattern[i : i + 4])
                i += 4
                continue
            elif e in "ntrf" or e in _SAME:
                out.append("\\" + e)
            else:
                raise Untranslatable(pattern)
            i += 2
            continue
        if in_class:
            if c == "[":
                raise Untranslatable(pattern)  # (POSIX classes / nested sets)
            if c == "]":
                in_class = False
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            # a "]" or "^]" right after the opening bracket is a literal in both engines
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):
                out.append("\\]")
                i += 1
        elif c == "$":
            out.append("\\Z")
        elif c == "(" and pattern.startswith("(?", i) and not pattern.startswith(("(?:", "(?P<", "(?s)"), i):
            raise Untranslatable(pattern)  # (look-arounds, other flags)
        else:
            out.append(c)
        i += 1
    if in_class:
        raise Untranslatable(pattern)
    return "".join(out)


def top_level_alternation(rx: str) -> bool:
    """Whether the RE2 pattern ``rx`` has a ``|`` outside every group and character class."""
    depth, i, in_class = 0, 0, False
    while i < len(rx):
        c = rx[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


@cache
def _anchored(pattern: str) -> bool:
    """Whether every match must start at the text's start (``^`` first, no top-level ``|``): then
    Python tries one position per value; an unanchored search is slower than RE2 at any size."""
    body = pattern[4:] if pattern.startswith("(?s)") else pattern
    return body.startswith("^") and not top_level_alternation(body)


#: an unanchored pattern goes to Python when the column holds at most this many bytes
SMALL_SEARCH_BYTES = 2048


def _use_python(arr: pa.Array, pattern: str) -> tuple[re.Pattern[str], list[str]] | None:
    if isinstance(arr, pa.ChunkedArray) or len(arr) > SMALL:
        return None
    if _anchored(pattern):
        return translated(pattern) if len(arr) <= len(pattern) // 2 else None
    return translated(pattern) if arr.nbytes <= SMALL_SEARCH_BYTES else None


@cache
def _compiled(pattern: str) -> tuple[re.Pattern[str], list[str]] | None:
    """The Python form of an anchored pattern (None when it is not anchored or not translatable)."""
    return translated(pattern) if _anchored(pattern) else None  # (anchored: used on more rows)


@cache
def translated(pattern: str) -> tuple[re.Pattern[str], list[str]] | None:
    """(compiled Python pattern, group names in group order), None when not translatable."""
    try:
        rx = re.compile(translate(pattern), re.ASCII)
    except (Untranslatable, re.error):
        return None
    names = [name for name, _ in sorted(rx.groupindex.items(), key=lambda kv: kv[1])]
    if rx.groups != len(names):
        return None  # (Arrow rejects unnamed groups in extract_regex)
    return rx, names


def extract(arr: pa.Array, pattern: str) -> pa.StructArray:
    """``pc.extract_regex(arr, pattern)``."""
    c = _use_python(arr, pattern)
    if c is None or not c[1]:
        return pc.extract_regex(arr, pattern)
    return python_extract(arr, *c)


def python_extract(arr: pa.Array, rx: re.Pattern[str], names: list[str]) -> pa.StructArray:
    """``extract_regex`` of the translated pattern ``rx`` (group ``names``) in Python."""
    cols: list[list[str]] = [[] for _ in names]
    valid: list[bool] = []
    for s in arr.to_pylist():
        m = rx.search(s) if s is not None else None
        valid.append(m is not None)
        g = m.groups() if m is not None else ("",) * len(names)
        for k, v in enumerate(g):
            cols[k].append(v if v is not None else "")
    typ = arr.type
    children = [pa.array(v, typ) for v in cols]
    mask = pa.array([not v for v in valid], pa.bool_())
    return pa.StructArray.from_arrays(children, names=names, mask=mask)


def match(arr: pa.Array, pattern: str) -> pa.Array:
    """``pc.match_substring_regex(arr, pattern)``."""
    c = _use_python(arr, pattern)
    if c is None:
        return pc.match_substring_regex(arr, pattern)
    return python_match(arr, c[0])


def python_match(arr: pa.Array, rx: re.Pattern[str]) -> pa.Array:
    """``match_substring_regex`` of the translated pattern ``rx`` in Python."""
    return pa.array(
        [(rx.search(s) is not None) if s is not None else None for s in arr.to_pylist()], pa.bool_()
    )
