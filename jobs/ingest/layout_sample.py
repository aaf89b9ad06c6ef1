"""Layout detection on a file's first lines: the first byte of each line (:class:`FirstBytes`, which
layouts a line can start at all) and the layout order (:func:`layout_order`: the layouts that match
one of the first lines first), with the plain reference :func:`layout_order_plain` beside the
wordings' shortcut (tested equal in ``tests/ingest/test_parse_speed_equivalence.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.rawbytes import Raw
from jobs.ingest.wordings import digit_invariant, wordings

#: the first lines of a file that decide the layout order
ORDER_SAMPLE = 400
#: the sample lines a layout's first look reads (a hit among them settles it)
FIRST_LOOK = 8


class FirstBytes:
    """The first byte of each string of a column (256: empty or null): every layout regex is
    anchored and can only start with a few characters (:data:`L.FIRST_CHARS`), so a cheap lookup
    tells which lines a layout could match at all."""

    def __init__(self, a: pa.Array | None, codes: np.ndarray | None = None) -> None:
        if a is not None:
            codes = Raw(a).first_bytes()
        self.codes: np.ndarray = codes if codes is not None else np.zeros(0, np.int16)
        self._cache: dict[str, np.ndarray] = {}

    def possible(self, chars: str) -> np.ndarray:
        """Mask of the strings whose first character is one of ``chars`` (ASCII)."""
        m = self._cache.get(chars)
        if m is None:
            m = self._cache[chars] = _first_char_table(chars)[self.codes]
        return m

    def take(self, idx: np.ndarray | slice) -> FirstBytes:
        return FirstBytes(None, self.codes[idx])


@cache
def _first_char_table(chars: str) -> np.ndarray:
    """Lookup table of :meth:`FirstBytes.possible`: per first-byte code (256: none), whether it is one of ``chars``."""
    lut = np.zeros(257, dtype=bool)
    lut[[ord(c) for c in chars if ord(c) < 256]] = True
    lut.flags.writeable = False
    return lut


def layout_order(text: pa.Array, fb: FirstBytes | None = None) -> list[L.Layout]:
    """The layout table with the layouts that match none of the file's first lines moved to the end
    (table order otherwise: specific layouts before general ones). A layout none of whose sample
    lines starts with one of its first characters cannot hit: its regex is not run. A layout whose
    regex cannot tell digits apart (:func:`digit_invariant`) is tried on the distinct *wordings* of
    the sample lines only (:class:`_SampleWordings`: a file's lines differ mostly in their digits)."""
    sample = text.slice(0, ORDER_SAMPLE)
    sfb = (fb or FirstBytes(sample)).take(slice(0, ORDER_SAMPLE))
    sw = _SampleWordings(sample)

    values: list[str] | None = None

    def hits(lay: L.Layout) -> bool:
        nonlocal values
        possible = np.nonzero(sfb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS)))[0]
        if not len(possible):
            return False
        if digit_invariant(lay.regex):
            return sw.any_match(possible, lay.regex)
        if values is None:
            values = [v or "" for v in sample.to_pylist()]
        return _any_hit(values, possible, lay.regex, lambda idx: ao.take(sample, idx))

    hit = [hits(lay) for lay in L.LAYOUTS]
    return [lay for lay, h in zip(L.LAYOUTS, hit) if h] + [lay for lay, h in zip(L.LAYOUTS, hit) if not h]


def _any_hit(values: list[str], possible: np.ndarray, regex: str, column: Callable[[np.ndarray], pa.Array]) -> bool:
    """Whether ``regex`` matches one of the lines ``possible`` (``values``: every line as a string;
    ``column(rows)``: those lines as a column, for RE2). A hit among the first possible lines settles
    it (Python's ``re`` on a few lines)."""
    first, rest = possible[:FIRST_LOOK], possible[FIRST_LOOK:]
    if PR.any_match([values[i] for i in first], regex, lambda: column(first)):
        return True
    return len(rest) > 0 and PR.any_match([values[i] for i in rest], regex, lambda: column(rest))


class _SampleWordings:
    """The distinct wordings (:func:`wordings`: every digit written as ``0``; null as ``""``) of a
    sample of lines, for the layouts whose regex gives a line and its wording the same answer: a
    layout is tried once per distinct wording of the lines it can start (the same answer as on every
    line, with a few dozen values instead of hundreds)."""

    def __init__(self, sample: pa.Array) -> None:
        self.sample = sample
        self._codes: np.ndarray | None = None
        self._values: list[str] = []
        self._distinct: dict[bytes, tuple[list[str], np.ndarray]] = {}

    def _encode(self) -> np.ndarray:
        if self._codes is None:
            s = self.sample
            s = pc.fill_null(s, "") if s.null_count else s
            enc = pc.dictionary_encode(wordings(s))
            self._codes = ao.numpy_of(enc.indices).astype(np.int64)
            self._values = enc.dictionary.to_pylist()
        return self._codes

    def any_match(self, rows: np.ndarray, regex: str) -> bool:
        """Whether ``regex`` (digit-invariant) matches one of the sample lines ``rows``."""
        key = rows.tobytes()
        got = self._distinct.get(key)
        if got is None:
            codes = self._encode()[rows]
            # (distinct codes in the order of their first line: the early answer comes from the first lines)
            _, first = np.unique(codes, return_index=True)
            distinct = codes[np.sort(first)]
            got = self._distinct[key] = ([self._values[c] for c in distinct.tolist()], distinct)
        values, _ = got
        return _any_hit(values, np.arange(len(values)), regex, lambda idx: pa.array([values[i] for i in idx], pa.string()))


def layout_order_plain(text: pa.Array, fb: FirstBytes | None = None) -> list[L.Layout]:
    """:func:`layout_order` with every layout tried on each of its possible sample lines (the
    reference of the wordings' shortcut)."""
    sample = text.slice(0, ORDER_SAMPLE)
    sfb = (fb or FirstBytes(sample)).take(slice(0, ORDER_SAMPLE))
    values = [v or "" for v in sample.to_pylist()]

    def hits(lay: L.Layout) -> bool:
        possible = np.nonzero(sfb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS)))[0]
        return len(possible) > 0 and _any_hit(values, possible, lay.regex, lambda idx: ao.take(sample, idx))

    hit = [hits(lay) for lay in L.LAYOUTS]
    return [lay for lay, h in zip(L.LAYOUTS, hit) if h] + [lay for lay, h in zip(L.LAYOUTS, hit) if not h]
