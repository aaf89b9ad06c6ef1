"""Python's ``re`` on small columns (:mod:`jobs.ingest.pyregex`) answers exactly like RE2 for every
pattern the parser runs: the layout and dialect tables and every pattern recorded while parsing
the fixtures and samples, on the strings it saw and on mutated strings (RE2's whitespace class,
ASCII digits and word characters, ``$`` at the very end)."""

from __future__ import annotations

import glob
import json
import os

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import dialects as D
from jobs.ingest import layouts as L
from jobs.ingest import parse as P
from jobs.ingest import pyregex as PR

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
_TRICKY = [
    " ",
    "\t",
    "\x0b",
    "\x0c",
    "\r",
    "\n",
    "\u00a0",
    "\u2028",
    "\u0663",
    "\u00e9",
    "_",
    "]",
    "$",
    "a",
    "9",
]


def _recorded() -> dict[str, set[str]]:
    """pattern -> strings of every extract / match the parser runs on the fixtures and samples."""
    seen: dict[str, set[str]] = {}
    real_extract, real_match = PR.extract, PR.match

    def rec(fn):
        def wrapped(arr, pattern):
            vals = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
            seen.setdefault(pattern, set()).update(v for v in vals.to_pylist() if v is not None)
            return fn(arr, pattern)

        return wrapped

    PR.extract, PR.match = rec(real_extract), rec(real_match)
    try:
        files = glob.glob(os.path.join(_ROOT, "jobs/samples/logs/**/*.log"), recursive=True)
        for f in files:
            with open(f, "rb") as fh:
                P.parse_bytes(fh.read(), f)
        for f in glob.glob(os.path.join(_ROOT, "tests/fixtures/**/*.jsonl"), recursive=True):
            with open(f, encoding="utf-8") as fh:
                rows = [json.loads(x) for x in fh if x.strip()]
            text = "\n".join(r.get("line") or r.get("text") or "" for r in rows) + "\n"
            P.parse_bytes(text.encode(), f)
    finally:
        PR.extract, PR.match = real_extract, real_match
    return seen


_SEEN = _recorded()
_TABLE_PATTERNS = sorted(
    {d.pattern for d in D.DIALECTS}
    | {x for lay in L.LAYOUTS for x in (lay.regex, lay.head, lay.tail) if x}
    | set(L.JSON_KEYS.values())
    | set(L.JSON_NESTED.values())
    | {rx for _, rx in D.BODY_PREFIXES}
    | {D.BODY_PREFIX, D.ERROR_NAME, D.PYTHON_LOGGER, D.RDKAFKA_FACILITY, L.TS_PREFIX, L.JUL_MESSAGE}
    | {L.CONTINUATION, L.JSON_LINE, L.FAST_LOG4J, L.FAST_SPRINGBOOT, L.LOG4J_LOGGER_TAIL}
)
_ALL = sorted(set(_TABLE_PATTERNS) | set(_SEEN))
_EXAMPLES = sorted({d.example for d in D.DIALECTS} | {lay.example for lay in L.LAYOUTS})


def _both(pattern: str, values: list[str | None]) -> None:
    """Python's answer (forced, whatever the size and anchoring) equals RE2's."""
    arr = pa.array(values, pa.string())
    rx, names = PR.translated(pattern)
    want = pc.match_substring_regex(arr, pattern)
    got = PR.python_match(arr, rx)
    assert got.to_pylist() == want.to_pylist(), pattern
    assert PR.match(arr, pattern).to_pylist() == want.to_pylist(), pattern
    try:
        want_x = pc.extract_regex(arr, pattern)
    except pa.ArrowInvalid:
        return  # (no named groups)
    assert PR.extract(arr, pattern).to_pylist() == want_x.to_pylist(), pattern
    got_x = PR.python_extract(arr, rx, names)
    assert got_x.type == want_x.type, pattern
    assert got_x.is_valid().to_pylist() == want_x.is_valid().to_pylist(), pattern
    ok = want_x.is_valid()
    assert got_x.filter(ok).to_pylist() == want_x.filter(ok).to_pylist(), pattern


def test_the_parser_patterns_are_translated() -> None:
    """Every pattern of the tables and of the recorded calls has a Python form (none falls back
    to RE2 because of an unknown construct); the anchored ones are used on small columns."""
    assert len(_SEEN) > 30
    missing = [p for p in _ALL if PR.translated(p) is None]
    assert missing == [], missing
    assert all(PR._compiled(d.pattern) is not None for d in D.DIALECTS)
    assert PR._compiled(D.GROUP_PREFILTER) is None  # (unanchored: RE2 is faster at any size)


@pytest.mark.parametrize("pattern", _ALL)
def test_same_answers_on_seen_strings(pattern: str) -> None:
    values = sorted(_SEEN.get(pattern, set()) | set(_EXAMPLES))
    for i in range(0, len(values), PR.SMALL):
        _both(pattern, values[i : i + PR.SMALL] + [None])


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from(_EXAMPLES + sorted(set().union(*_SEEN.values()))[:400]))
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(base)))
        op = draw(st.integers(0, 2))
        ch = draw(st.sampled_from(_TRICKY))
        base = base[:i] + ch + base[i + (op == 1) :] if op < 2 else base[:i]
    return base


@settings(max_examples=150, deadline=None)
@given(st.lists(_mutated(), min_size=1, max_size=12), st.sampled_from(_ALL))
def test_same_answers_on_mutated_strings(values: list[str], pattern: str) -> None:
    _both(pattern, values)


def test_translation_of_re2_specifics() -> None:
    assert PR.translate(r"^a\sb$") == "^a[\\t\\n\\f\\r ]b\\Z"
    assert PR.translate(r"[^\s,]\S") == "[^\\t\\n\\f\\r ,][^\\t\\n\\f\\r ]"
    assert PR.translate(r"[]a]") == r"[\]a]"
    with pytest.raises(PR.Untranslatable):
        PR.translate(r"(?=x)")
    with pytest.raises(PR.Untranslatable):
        PR.translate(r"\pL")
    # vertical tab: not whitespace for RE2
    _both(r"^a\sb$", ["a\x0bb", "a b", "a\tb", "a\nb", "ab\n"])
    _both(r"^(?P<d>\d+)$", ["12", "\u0663", "1\n"])
    # a large column keeps RE2
    big = pa.array(["x"] * (PR.SMALL + 1))
    assert PR.match(big, "^x$").to_pylist() == [True] * (PR.SMALL + 1)
