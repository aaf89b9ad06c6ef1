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


def _recorded() -> tuple[dict[str, set[str]], set[tuple[str, str, int | None]], set[tuple[str, int | None]]]:
    """pattern -> strings of every regex kernel the parser runs on the fixtures and samples (the
    held-out corpora left out), and the (pattern, replacement, max) of replacements and the
    (pattern, max) of splits."""
    seen: dict[str, set[str]] = {}
    repl: set[tuple[str, str, int | None]] = set()
    splits: set[tuple[str, int | None]] = set()
    real = PR.extract, PR.match, PR.replace, PR.split

    def rec(fn):
        def wrapped(arr, pattern, *args, **kwargs):
            vals = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
            seen.setdefault(pattern, set()).update(v for v in vals.to_pylist() if v is not None)
            if fn is real[2]:
                repl.add((pattern, args[0], kwargs.get("max_replacements")))
            elif fn is real[3]:
                splits.add((pattern, kwargs.get("max_splits")))
            return fn(arr, pattern, *args, **kwargs)

        return wrapped

    PR.extract, PR.match, PR.replace, PR.split = (rec(f) for f in real)
    try:
        files = glob.glob(os.path.join(_ROOT, "jobs/samples/logs/**/*.log"), recursive=True)
        for f in files:
            with open(f, "rb") as fh:
                P.parse_bytes(fh.read(), f)
        for f in glob.glob(os.path.join(_ROOT, "tests/fixtures/**/*.jsonl"), recursive=True):
            if "/holdout" in f:
                continue
            with open(f, encoding="utf-8") as fh:
                rows = [json.loads(x) for x in fh if x.strip()]
            text = "\n".join(r.get("line") or r.get("text") or "" for r in rows) + "\n"
            P.parse_bytes(text.encode(), f)
    finally:
        PR.extract, PR.match, PR.replace, PR.split = real
    return seen, repl, splits


_SEEN, _REPLACED, _SPLIT = _recorded()
#: replacements and splits beyond the recorded ones (empty matches, groups, global replacement)
_EXTRA_REPLACED = {
    (r"\s*", "-", None),
    (r"a*", "<\\0>", 1),
    (r"^(?:Some\((.*)\)|Optional\[(.*)\])$", r"\1\2", None),
    (r"(?P<d>\d)", r"[\1]", None),
    (r"\s+", "_", 2),
}
#: (no empty-matching split: Arrow's kernel does not return on one)
_EXTRA_SPLIT = {(r",\s*", None), (r",\s*", 1), (r"\]:? ", 1)}


_TABLE_PATTERNS = sorted(
    {d.pattern for d in D.DIALECTS}
    | {x for lay in L.LAYOUTS for x in (lay.regex, lay.head, lay.tail) if x}
    | set(L.JSON_KEYS.values())
    | set(L.JSON_NESTED.values())
    | {rx for _, rx in D.BODY_PREFIXES}
    | {D.BODY_PREFIX, D.ERROR_NAME, D.PYTHON_LOGGER, D.RDKAFKA_FACILITY, L.TS_PREFIX, L.JUL_MESSAGE}
    | {L.CONTINUATION, L.JSON_LINE, L.FAST_LOG4J, L.FAST_SPRINGBOOT, L.LOG4J_LOGGER_TAIL}
)
_ALL = sorted(set(_TABLE_PATTERNS) | set(_SEEN) | {r[0] for r in _EXTRA_REPLACED} | {r[0] for r in _EXTRA_SPLIT})
_EXAMPLES = sorted({d.example for d in D.DIALECTS} | {lay.example for lay in L.LAYOUTS})


def _both(pattern: str, values: list[str | None]) -> None:
    """Python's answer (forced, whatever the size) equals RE2's, and so does the chosen engine's."""
    arr = pa.array(values, pa.string())
    form = PR.py_form(pattern)
    assert form is not None, pattern
    want = pc.match_substring_regex(arr, pattern)
    got = PR.python_match(arr, form.rx, form)
    if got is not None:  # (None: a ``(?i)`` form on non-ASCII text, RE2 answers)
        assert got.to_pylist() == want.to_pylist(), pattern
    assert PR.match(arr, pattern).to_pylist() == want.to_pylist(), pattern
    assert PR.any_match([v or "" for v in values], pattern, lambda: arr) == bool(pc.any(want).as_py()), pattern
    for _, rr, rmax in sorted(r for r in _REPLACED | _EXTRA_REPLACED if r[0] == pattern):
        want_r = pc.replace_substring_regex(arr, pattern, rr, max_replacements=rmax)
        parts = PR._rewrite(rr, form.groups)
        got_r = PR.python_replace(arr, form, parts, rmax) if parts is not None else None
        if got_r is not None:
            assert got_r.to_pylist() == want_r.to_pylist(), (pattern, rr, rmax)
        assert PR.replace(arr, pattern, rr, rmax).to_pylist() == want_r.to_pylist(), (pattern, rr, rmax)
    for _, smax in sorted((s for s in _SPLIT | _EXTRA_SPLIT if s[0] == pattern), key=str):
        want_s = pc.split_pattern_regex(arr, pattern, max_splits=smax)
        got_s = PR.python_split(arr, form, smax)
        if got_s is not None:
            assert got_s.type == want_s.type and got_s.to_pylist() == want_s.to_pylist(), (pattern, smax)
        assert PR.split(arr, pattern, smax).to_pylist() == want_s.to_pylist(), (pattern, smax)
    try:
        want_x = pc.extract_regex(arr, pattern)
    except pa.ArrowInvalid:
        return  # (no named groups)
    assert PR.extract(arr, pattern).to_pylist() == want_x.to_pylist(), pattern
    got_x = PR.python_extract(arr, form.rx, form.names, form)
    if got_x is None:
        return
    assert got_x.type == want_x.type, pattern
    assert got_x.is_valid().to_pylist() == want_x.is_valid().to_pylist(), pattern
    ok = want_x.is_valid()
    assert got_x.filter(ok).to_pylist() == want_x.filter(ok).to_pylist(), pattern


def test_the_parser_patterns_are_translated() -> None:
    """Every pattern of the tables and of the recorded calls has a Python form (none falls back
    to RE2 because of an unknown construct), replacements and splits included."""
    assert len(_SEEN) > 30
    assert _REPLACED and _SPLIT
    missing = [p for p in _ALL if PR.py_form(p) is None]
    assert missing == [], missing
    assert all(PR._anchored(d.pattern) for d in D.DIALECTS if d.pattern.startswith("^"))
    assert not PR._anchored(D.GROUP_PREFILTER)


@pytest.mark.parametrize("pattern", _ALL)
def test_same_answers_on_seen_strings(pattern: str) -> None:
    values = sorted(_SEEN.get(pattern, set()) | set(_EXAMPLES))
    for i in range(0, len(values), 96):
        _both(pattern, values[i : i + 96] + [None])


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
    # a large column of a costly pattern goes to RE2, a small one to Python; the answers are equal
    big = pa.array(["x" * 50] * 5000)
    form = PR.py_form("^x+$")
    assert PR.match(big, "^x+$").to_pylist() == [True] * 5000
    assert form is not None and PR._engine(big, "^x+$") is None
    assert PR._choose("^x+$", 2, 100) is form


def test_replacement_texts_and_empty_matches_keep_re2() -> None:
    """A rewrite other than literals and ``\\N`` groups, and an empty match, are RE2's."""
    form = PR.py_form(r"(?P<a>x)")
    assert form is not None
    assert PR._rewrite(r"[\1]", 1) == ["[", 1, "]"]
    assert PR._rewrite(r"\2", 1) is None and PR._rewrite(r"\n", 1) is None
    arr = pa.array(["axb", "", None])
    assert PR.python_replace(arr, PR.py_form(r"\s*"), ["-"], None) is None
    assert PR.python_split(arr, PR.py_form(r"\s*"), None) is None
    assert PR.replace(arr, r"\s*", "-").to_pylist() == pc.replace_substring_regex(arr, r"\s*", "-").to_pylist()


def test_case_insensitive_patterns_only_on_ascii_text() -> None:
    """``(?i)``: RE2 folds Unicode cases (the Kelvin sign is a ``k``), Python's ASCII mode does not."""
    arr = pa.array(["\u212a", "k", "K", None])
    want = pc.match_substring_regex(arr, "(?i)^k$").to_pylist()
    assert want == [True, True, True, None]
    assert PR.match(arr, "(?i)^k$").to_pylist() == want
    form = PR.py_form("(?i)^k$")
    assert form is not None and form.ascii_only and PR.python_match(arr, form.rx, form) is None
