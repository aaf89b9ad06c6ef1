"""The one place that decides which engine runs each regex kernel of the parse: RE2 (the
``pyarrow.compute`` kernel, the reference) or Python's ``re`` (the same pattern, translated).

An Arrow regex kernel compiles its RE2 pattern on every call: 0.05-3 ms by the pattern's size, more
than matching a few hundred lines. The parser runs its kernels on columns of every size (a file of
ten lines, the few distinct messages of a dialect), so on small columns the compile is the whole
cost. :func:`match`, :func:`extract`, :func:`replace` and :func:`split` take the arguments of the
kernels (``match_substring_regex``, ``extract_regex``, ``replace_substring_regex``,
``split_pattern_regex``) and give their results; each call goes to the engine that is cheaper for
its column (:func:`_engine`). A per-process cache keeps each pattern's compiled Python form and two
measured costs: RE2's fixed cost of a call (a one-value call, timed once per pattern) and Python's
cost per value (anchored patterns: one position per value) or per byte (searches), updated by every
Python call; Python answers when its estimate is below RE2's fixed cost.

The choice changes only the speed. A pattern runs in Python only with RE2's meaning
(:func:`translate`): ASCII ``\\d``/``\\w``/``\\b``, RE2's whitespace class ``[\\t\\n\\f\\r ]`` for
``\\s`` (no ``\\v``), ``$`` only at the end of the text; a leading ``(?i)`` only on ASCII text (RE2
folds Unicode cases); both engines give leftmost-first (Perl) sub-matches, so the groups are the
same. RE2 answers instead for a pattern with a construct the translator does not know, a
replacement text other than literals and ``\\N`` groups, and a replacement or split whose pattern
matches an empty string in one of the values (the engines step over empty matches differently).
``tests/ingest/test_pyregex.py`` checks every pattern of the parser on both engines.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

import pyarrow as pa
import pyarrow.compute as pc

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


def syntax(regex: str) -> Iterator[tuple[int, str, int]]:
    """(position, character, group depth after it) of each character of ``regex`` that is neither
    escaped nor inside a character class (nor one of the class's brackets)."""
    depth, i, in_class = 0, 0, False
    while i < len(regex):
        ch = regex[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if regex[i + 1 : i + 2] == "^":
                i += 1
            if regex[i + 1 : i + 2] == "]":
                i += 1  # (a "]" first in the class is a member)
        else:
            depth += (ch == "(") - (ch == ")")
            yield i, ch, depth
        i += 1


def top_level_alternation(rx: str) -> bool:
    """Whether the RE2 pattern ``rx`` has a ``|`` outside every group and character class."""
    return any(ch == "|" and depth == 0 for _, ch, depth in syntax(rx))


@cache
def _anchored(pattern: str) -> bool:
    """Whether every match must start at the text's start (``^`` first, no top-level ``|``): then
    Python tries one position per value; an unanchored search is slower than RE2 at any size."""
    body = pattern[4:] if pattern.startswith("(?s)") else pattern
    return body.startswith("^") and not top_level_alternation(body)




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


# ------------------------------------------------------------------------------------ engine choice
@dataclass(slots=True)
class PyForm:
    """A pattern's Python form and the measured costs of both engines (this process)."""

    rx: re.Pattern[str]
    names: list[str]
    groups: int
    anchored: bool  # (one position per value: cost per value; else a search: cost per byte)
    ascii_only: bool  # (a ``(?i)`` pattern: Python's case folding equals RE2's on ASCII text only)
    re2_s: float | None = None  # seconds of an RE2 call on one value (its compile, mostly)
    py_s: float | None = None  # seconds per value (anchored) or per byte in Python
    calls: list[int] = field(default_factory=lambda: [0, 0])  # (Python, RE2) calls
    declined: int = 0  # (columns sent to RE2 though Python could answer: every REPROBE-th goes to Python)


#: a column this small goes to Python before anything is measured (the first Python call measures it)
PROBE = 8
#: a column of more bytes keeps RE2 (linear time on any text; Python's backtracking is not)
MAX_BYTES = 1 << 14
#: Python answers when its estimate is below this share of RE2's fixed cost (the estimate comes from
#: other columns: their values may be cheaper)
MARGIN = 0.5
#: seconds of a Python call whatever its size (the column to Python strings and back)
PY_FIXED_S = 15e-6
#: one column of every this many that the estimate sends to RE2 goes to Python when Python's estimate
#: is within :data:`REPROBE_WITHIN` times RE2's cost: a measurement that a busy machine inflated
#: (the estimate only learns from Python's calls) is measured again instead of sticking
REPROBE = 16
REPROBE_WITHIN = 8.0
#: the clock of both engines' measurements: this process's CPU time (another process's turn on the
#: core is not counted, as wall time would)
_clock = time.process_time
#: Python's estimate below this goes to Python without timing RE2
_CHEAP_S = 40e-6
_FORMS: dict[str, PyForm | None] = {}


def py_form(pattern: str) -> PyForm | None:
    """The cached Python form of ``pattern`` (None: RE2 only)."""
    if pattern in _FORMS:
        return _FORMS[pattern]
    ascii_only = pattern.startswith("(?i)")
    try:
        rx = re.compile(translate(pattern[4:] if ascii_only else pattern), re.ASCII | (re.I if ascii_only else 0))
    except (Untranslatable, re.error):
        rx = None
    form = None
    if rx is not None:
        names = [name for name, _ in sorted(rx.groupindex.items(), key=lambda kv: kv[1])]
        form = PyForm(rx, names, rx.groups, _anchored(pattern), ascii_only)
    _FORMS[pattern] = form
    return form


def _units(arr: pa.Array, form: PyForm) -> int:
    return len(arr) if form.anchored else max(1, arr.nbytes)


def _whole(arr: pa.Array | pa.ChunkedArray) -> pa.Array:
    if not isinstance(arr, pa.ChunkedArray):
        return arr
    return arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()


def _engine(arr: pa.Array, pattern: str) -> PyForm | None:
    """The Python form when Python is expected to answer faster than RE2, else None (RE2)."""
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    return _choose(pattern, len(arr), arr.nbytes, arr)


def _choose(pattern: str, n: int, nbytes: int, arr: pa.Array | None = None) -> PyForm | None:
    """The engine for ``n`` values of ``nbytes`` bytes (``arr``: the column, probed when Python's
    cost is not known yet; without it such a column goes to Python only when it is small)."""
    form = py_form(pattern)
    if form is None or nbytes > MAX_BYTES:
        return None
    if form.py_s is None:
        if n <= PROBE or arr is None:
            return form if n <= PROBE else None
        python_match(arr.slice(0, PROBE), form.rx, form)
        if form.py_s is None:
            return None  # (not ASCII text for a ``(?i)`` form)
    estimate = PY_FIXED_S + form.py_s * (n if form.anchored else max(1, nbytes))
    if estimate <= _CHEAP_S:
        return form
    if form.re2_s is None:
        t = _clock()
        pc.match_substring_regex(pa.array([""]), pattern)
        form.re2_s = _clock() - t
    if estimate < MARGIN * form.re2_s:
        return form
    form.declined += 1
    return form if form.declined % REPROBE == 0 and estimate < REPROBE_WITHIN * form.re2_s else None


def any_match(values: list[str], pattern: str, arr: Callable[[], pa.Array]) -> bool:
    """Whether ``pattern`` matches one of ``values`` (strings; ``arr()``: them as a column, for
    RE2). Python stops at the first hit; a search through every value teaches the estimate
    Python's cost. While that cost is not known, Python answers the first :data:`PROBE` values
    (measured) before the rest is given to an engine (the same answer: a hit among the first or
    among the rest)."""
    nbytes = sum(map(len, values))
    form = _choose(pattern, len(values), nbytes)
    if form is None and len(values) > PROBE and (probe := py_form(pattern)) is not None and probe.py_s is None \
            and not probe.ascii_only:  # fmt: skip
        if _python_any(probe, values[:PROBE]):
            return True
        rest = values[PROBE:]
        return any_match(rest, pattern, lambda: pa.array(rest, pa.string()))
    if form is None or form.ascii_only:
        return bool(pc.any(_re2(form, pc.match_substring_regex, arr(), pattern)).as_py())
    return _python_any(form, values, nbytes)


def _python_any(form: PyForm, values: list[str], nbytes: int | None = None) -> bool:
    """Python's search of ``values``, stopping at the first hit; measured when it read them all."""
    t0 = _clock()
    search = form.rx.search
    hit = any(search(s) is not None for s in values)
    if not hit and values:
        _learn(form, len(values) if form.anchored else max(1, sum(map(len, values)) if nbytes is None else nbytes),
               t0)  # fmt: skip
    else:
        form.calls[0] += 1
    return hit


def _measured(form: PyForm | None, arr: pa.Array, t0: float) -> None:
    if form is None or not len(arr):
        return
    _learn(form, _units(arr, form), t0)


def _learn(form: PyForm, units: int, t0: float) -> None:
    """Python's cost per unit from a call that started at ``t0`` over ``units`` values (anchored) or bytes."""
    per = max(0.0, _clock() - t0 - PY_FIXED_S) / units
    old = form.py_s
    # (damped; a lower cost is believed faster: a busy machine only ever adds time)
    form.py_s = per if old is None else 0.5 * (old + per) if per < old else 0.75 * old + 0.25 * min(per, 4 * old)
    form.calls[0] += 1


def _values(arr: pa.Array, form: PyForm | None) -> list[str | None] | None:
    """The column as Python strings; None when the form needs ASCII text and the column is not."""
    vals = arr.to_pylist()
    if form is not None and form.ascii_only and not all(s is None or s.isascii() for s in vals):
        return None
    return vals


# ------------------------------------------------------------------------------------ the kernels
def match(arr: pa.Array | pa.ChunkedArray, pattern: str) -> pa.Array:
    """``pc.match_substring_regex(arr, pattern)``."""
    arr = _whole(arr)
    form = _engine(arr, pattern)
    out = python_match(arr, form.rx, form) if form is not None else None
    return out if out is not None else _re2(form, pc.match_substring_regex, arr, pattern)


def extract(arr: pa.Array | pa.ChunkedArray, pattern: str) -> pa.StructArray:
    """``pc.extract_regex(arr, pattern)``."""
    arr = _whole(arr)
    form = _engine(arr, pattern)
    ok = form is not None and form.names and form.groups == len(form.names)
    out = python_extract(arr, form.rx, form.names, form) if ok and form is not None else None
    return out if out is not None else _re2(form, pc.extract_regex, arr, pattern)


def replace(arr: pa.Array | pa.ChunkedArray, pattern: str, replacement: str, max_replacements: int | None = None) -> pa.Array:
    """``pc.replace_substring_regex(arr, pattern, replacement, max_replacements=...)``."""
    arr = _whole(arr)
    form = _engine(arr, pattern)
    parts = _rewrite(replacement, form.groups) if form is not None else None
    out = python_replace(arr, form, parts, max_replacements) if form is not None and parts is not None else None
    if out is not None:
        return out
    return _re2(form, pc.replace_substring_regex, arr, pattern, replacement, max_replacements=max_replacements)


def split(arr: pa.Array | pa.ChunkedArray, pattern: str, max_splits: int | None = None) -> pa.Array:
    """``pc.split_pattern_regex(arr, pattern, max_splits=...)``."""
    arr = _whole(arr)
    form = _engine(arr, pattern)
    out = python_split(arr, form, max_splits) if form is not None and not form.groups else None
    return out if out is not None else _re2(form, pc.split_pattern_regex, arr, pattern, max_splits=max_splits)


def _re2(form: PyForm | None, kernel: Callable[..., pa.Array], *args, **kwargs) -> pa.Array:
    if form is not None:
        form.calls[1] += 1
    return kernel(*args, **kwargs)


# ------------------------------------------------------------------------------------ Python forms
def python_match(arr: pa.Array, rx: re.Pattern[str], form: PyForm | None = None) -> pa.Array | None:
    """``match_substring_regex`` of the translated pattern ``rx`` in Python (None: not ASCII text
    for a ``(?i)`` form)."""
    t0 = _clock()
    vals = _values(arr, form)
    if vals is None:
        return None
    search = rx.search
    out = pa.array([(search(s) is not None) if s is not None else None for s in vals], pa.bool_())
    _measured(form, arr, t0)
    return out


def python_extract(
    arr: pa.Array, rx: re.Pattern[str], names: list[str], form: PyForm | None = None
) -> pa.StructArray | None:
    """``extract_regex`` of the translated pattern ``rx`` (group ``names``) in Python."""
    t0 = _clock()
    vals = _values(arr, form)
    if vals is None:
        return None
    cols: list[list[str]] = [[] for _ in names]
    valid: list[bool] = []
    empty = ("",) * len(names)
    for s in vals:
        m = rx.search(s) if s is not None else None
        valid.append(m is not None)
        g = m.groups("") if m is not None else empty
        for k, v in enumerate(g):
            cols[k].append(v)
    typ = arr.type
    children = [pa.array(v, typ) for v in cols]
    mask = pa.array([not v for v in valid], pa.bool_())
    out = pa.StructArray.from_arrays(children, names=names, mask=mask)
    _measured(form, arr, t0)
    return out


def _rewrite(replacement: str, groups: int) -> list[str | int] | None:
    """RE2's rewrite text as literal pieces and group numbers (None: a form not handled here)."""
    parts: list[str | int] = []
    lit: list[str] = []
    i = 0
    while i < len(replacement):
        c = replacement[i]
        if c == "\\":
            e = replacement[i + 1 : i + 2]
            if e == "\\":
                lit.append("\\")
            elif e.isdigit() and e.isascii() and int(e) <= groups:
                parts.append("".join(lit))
                lit = []
                parts.append(int(e))
            else:
                return None
            i += 2
            continue
        lit.append(c)
        i += 1
    parts.append("".join(lit))
    return parts


class _EmptyMatch(Exception):
    """The pattern matched an empty string: RE2 answers (empty matches are stepped over differently)."""


def python_replace(
    arr: pa.Array, form: PyForm, parts: list[str | int], max_replacements: int | None
) -> pa.Array | None:
    """``replace_substring_regex`` in Python; None when a match is empty or the text is not ASCII
    for a ``(?i)`` form."""
    t0 = _clock()
    vals = _values(arr, form)
    if vals is None:
        return None

    def rewrite(m: re.Match[str]) -> str:
        if m.end() == m.start():
            raise _EmptyMatch
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)

    if max_replacements == 0:
        return arr
    count = 0 if max_replacements is None or max_replacements < 0 else max_replacements  # (0: all)
    sub = form.rx.sub
    try:
        out = [sub(rewrite, s, count) if s is not None else None for s in vals]
    except _EmptyMatch:
        return None
    res = pa.array(out, arr.type)
    _measured(form, arr, t0)
    return res


def python_split(arr: pa.Array, form: PyForm, max_splits: int | None) -> pa.Array | None:
    """``split_pattern_regex`` (a pattern without groups) in Python; None when a match is empty or
    the text is not ASCII for a ``(?i)`` form."""
    t0 = _clock()
    vals = _values(arr, form)
    if vals is None:
        return None
    limit = -1 if max_splits is None or max_splits < 0 else max_splits
    out: list[list[str] | None] = []
    for s in vals:
        if s is None:
            out.append(None)
            continue
        pieces, pos, k = [], 0, 0
        for m in form.rx.finditer(s):
            if k == limit:
                break
            if m.end() == m.start():
                return None
            pieces.append(s[pos : m.start()])
            pos, k = m.end(), k + 1
        pieces.append(s[pos:])
        out.append(pieces)
    res = pa.array(out, pa.list_(arr.type))
    _measured(form, arr, t0)
    return res
