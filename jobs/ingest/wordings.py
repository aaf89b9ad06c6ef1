"""A per-process memo of a pure test of a message, keyed by the message's *wording*: the message with
every ASCII digit written as ``0``.

Files of one process repeat their messages' wordings (the mixed benchmark corpus: 346k distinct
messages file by file, 26k distinct wordings over all its files): a heartbeat or a join line differs
from the next one only in its generation, offsets, member id or timestamps. A regex whose result
cannot depend on which digit stands at a place (:func:`digit_invariant`) gives the same answer on a
message and on its wording, so the answer is computed once per wording and remembered for the
next files of the process (:class:`WordingMemo`), instead of an RE2 compile and search per file.

Why a digit-invariant regex cannot tell a message from its wording: RE2's ``\\d``, ``\\w``, ``\\b``,
``.``, a negated class, a class range whose ends are not digits and every literal that is not a
digit treat the ten ASCII digits alike (each matches all ten or none), and the wording keeps every
other character and every length (a counted repeat like ``\\d{4}`` still counts the same
characters). The only ways a regex can single out a digit are a digit in its text (a literal, a
class member or a range end other than the whole range ``0-9``, a backreference ``\\1``, an octal or hex escape, a Unicode class
``\\pN``), which :func:`digit_invariant` rejects, ignoring only the counts of repeats
``{m}``, ``{m,}``, ``{m,n}`` and group names. UTF-8 never has the bytes ``0``-``9`` inside a
multi-byte character, so writing the digits as ``0`` byte by byte keeps every other character.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest.rawbytes import Raw

_DIGITS = frozenset("0123456789")
#: escapes that may name a digit by its code or a class holding some digits only
_CODE_ESCAPES = frozenset("0123456789xuUNpPQ")


def _skip_repeat(pattern: str, i: int) -> int:
    """The position after a counted repeat ``{m}``, ``{m,}``, ``{m,n}`` starting at ``i``, else ``i``."""
    j = i + 1
    while j < len(pattern) and pattern[j] in _DIGITS:
        j += 1
    if j == i + 1:
        return i
    if j < len(pattern) and pattern[j] == ",":
        j += 1
        while j < len(pattern) and pattern[j] in _DIGITS:
            j += 1
    return j + 1 if j < len(pattern) and pattern[j] == "}" else i


#: ``str.translate`` table of a wording (every ASCII digit written as ``0``)
WORDING = str.maketrans("123456789", "000000000")


@cache
def digit_invariant(pattern: str) -> bool:
    """Whether no part of ``pattern`` (RE2 syntax) names a particular digit (see the module
    docstring); conservative: a pattern it cannot read is not invariant."""
    i, in_class, n = 0, False, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= n or pattern[i + 1] in _CODE_ESCAPES:
                return False
            i += 2
            continue
        if in_class and pattern.startswith("0-9", i) and pattern[i - 1] != "-" and pattern[i + 3 : i + 4] != "-":
            i += 3  # (the range of all ten digits, not the end of another range)
            continue
        if ch in _DIGITS:
            return False
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += 1 + (pattern[i + 1 : i + 2] == "^")
            if pattern[i : i + 1] == "]":
                i += 1  # (a "]" first in the class is a member)
            continue
        elif ch == "{":
            j = _skip_repeat(pattern, i)
            if j != i:
                i = j
                continue
        elif pattern.startswith("(?P<", i):
            end = pattern.find(">", i)
            if end < 0:
                return False
            i = end + 1
            continue
        i += 1
    return True


def wordings(arr: pa.Array) -> pa.Array:
    """The string column with every ASCII digit written as ``0`` (nulls stay null): one numpy pass
    over the values' bytes."""
    r = Raw(arr)
    offs = r.offsets - r.offsets[0] if len(arr) else np.zeros(1, np.int64)
    data = r.data[int(r.offsets[0]) : int(r.offsets[-1])].copy() if len(arr) else np.zeros(0, np.uint8)
    data[(data >= 0x30) & (data <= 0x39)] = 0x30
    large = pa.types.is_large_string(arr.type)
    obuf = pa.py_buffer(offs.astype(np.int64 if large else np.int32))
    validity = arr.buffers()[0] if arr.null_count else None
    if validity is not None and arr.offset:
        validity = pc.is_valid(arr).buffers()[1]
    return pa.Array.from_buffers(arr.type, len(arr), [validity, obuf, pa.py_buffer(data)], arr.null_count)


class WordingMemo:
    """``test`` (a mask per message of a string column, null: False; digit-invariant by the caller's
    check) answered once per wording per process: a column's wordings are looked up, the new ones
    tested (on the wordings themselves: the same answer) and remembered. At most ``limit`` wordings
    are kept (the memo starts over when full)."""

    def __init__(self, test: Callable[[pa.Array], np.ndarray], limit: int = 200_000) -> None:
        self.test = test
        self.limit = limit
        self.known: dict[str, bool] = {}

    def __call__(self, messages: pa.Array) -> np.ndarray:
        if not len(messages):
            return np.zeros(0, dtype=bool)
        if not (pa.types.is_string(messages.type) or pa.types.is_large_string(messages.type)):
            return self.test(messages)
        enc = pc.dictionary_encode(wordings(messages))
        keys = enc.dictionary.to_pylist()
        known = self.known
        if len(known) + len(keys) > self.limit:
            known.clear()
        new = [i for i, k in enumerate(keys) if k not in known]
        if new:
            hit = self.test(enc.dictionary.take(pa.array(new, pa.int64())))
            for i, h in zip(new, hit.tolist()):
                known[keys[i]] = h
        answer = np.fromiter((known[k] for k in keys), dtype=bool, count=len(keys))
        codes = enc.indices
        if codes.null_count:
            out = np.zeros(len(messages), dtype=bool)
            valid = np.asarray(pc.is_valid(codes))
            out[valid] = answer[codes.filter(pc.is_valid(codes)).to_numpy()]
            return out
        return answer[codes.to_numpy()]
