"""Byte-level views of Arrow string columns for the parser's fast paths (numpy over the offsets
and data buffers, no copies).

A ``string``/``large_string`` column is an offsets buffer plus one data buffer. Several checks of
the parser only look at a few bytes at known positions of each line (the first byte, the fixed
``[yyyy-MM-dd HH:mm:ss,SSS] `` head of Kafka's log4j lines) or need the positions of fields
inside each line; numpy answers those with a gather over the data buffer instead of running an
RE2 kernel over every byte of every line. :func:`pieces` turns per-line field boundaries back into
an Arrow string column without copying, whose elements ``take`` gathers into real columns.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa


class Raw:
    """Offsets (int64 numpy), data (uint8 numpy) and validity of a string column."""

    def __init__(self, a: pa.Array | pa.ChunkedArray) -> None:
        if isinstance(a, pa.ChunkedArray):  # (one chunk: as it is, no copy)
            a = a.chunk(0) if a.num_chunks == 1 else a.combine_chunks()
        self.array = a
        n = len(a)
        large = pa.types.is_large_string(a.type) or pa.types.is_large_binary(a.type)
        bufs = a.buffers()
        odt = np.int64 if large else np.int32
        if bufs[1] is None:
            offs = np.zeros(n + 1, np.int64)
        else:
            offs = np.frombuffer(bufs[1], dtype=odt, count=n + 1, offset=a.offset * np.dtype(odt).itemsize)
        self.offsets = offs.astype(np.int64, copy=False)
        self.data_buffer = bufs[2]
        raw = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
        end = int(self.offsets[-1]) if n else 0
        self.data = raw[:end] if end else np.zeros(1, np.uint8)
        self.starts = self.offsets[:-1]
        self.ends = self.offsets[1:]
        self.lengths = self.ends - self.starts
        if a.null_count:
            self.valid = np.unpackbits(
                np.frombuffer(bufs[0], np.uint8), count=a.offset + n, bitorder="little"
            )[a.offset :].astype(bool)
        else:
            self.valid = np.ones(n, dtype=bool)

    def first_bytes(self) -> np.ndarray:
        """First byte of each string (int16), 256 for empty and null strings."""
        codes = np.full(len(self.starts), 256, np.int16)
        nz = (self.lengths > 0) & self.valid
        codes[nz] = self.data[self.starts[nz]]
        return codes

    def window(self, rows: np.ndarray, start: int, width: int) -> np.ndarray:
        """The ``width`` bytes from byte ``start`` of each line ``rows`` (a rows x width uint8
        matrix; bytes past a line's end are whatever follows it: check lengths first)."""
        first = self.starts[rows] + start
        lim = len(self.data) - width
        if lim < 0:
            return _window_plain(self.data, first, width)
        # (rows of a no-copy view of every ``width`` bytes: one contiguous copy per line instead of
        # a gather through a rows x width index matrix; the last lines of the buffer as before)
        out = np.lib.stride_tricks.sliding_window_view(self.data, width)[np.minimum(first, lim)]
        over = np.nonzero(first > lim)[0]
        if len(over):
            out[over] = _window_plain(self.data, first[over], width)
        return out


def _window_plain(data: np.ndarray, first: np.ndarray, width: int) -> np.ndarray:
    """:meth:`Raw.window` by a gather through an index matrix (positions past the data: its last byte)."""
    idx = first[:, None] + np.arange(width)[None, :]
    np.minimum(idx, len(data) - 1, out=idx)
    return data[idx]


def may_contain(a: pa.Array | pa.ChunkedArray, needle: bytes) -> bool:
    """False only when no string of ``a`` contains ``needle``: one search of the bytes its strings
    span in the data buffer (a hit may straddle two strings, or lie under a null: then the caller
    runs the exact kernel). The plain check: ``pc.any(pc.match_substring(a, needle))``."""
    if not len(a) or not needle:
        return bool(len(a)) and not needle
    raw = Raw(a)
    d = raw.data[int(raw.offsets[0]) : int(raw.offsets[-1])]
    k = len(needle)
    if len(d) < k:
        return False
    # (numpy, not ``bytes.__contains__``: that stops at every first byte of the needle, slow when
    # it is common in the text - ``{`` in Kafka's ``Generation{...}`` - and it needs a copy)
    hit = np.flatnonzero(d[: len(d) - k + 1] == needle[0])
    for j in range(1, k):
        hit = hit[d[hit + j] == needle[j]]
    return bool(len(hit))


def single_digit(a: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Mask of the strings of ``a`` that are one ASCII digit (null: False), from the offsets and
    one byte per string. The plain check: ``mask(pc.match_substring_regex(a, r"^\\d$"))``."""
    raw = Raw(a)
    one = (raw.lengths == 1) & raw.valid
    out = np.zeros(len(one), dtype=bool)
    if one.any():
        b = raw.data[raw.starts[one]]
        out[one] = (b >= 0x30) & (b <= 0x39)
    return out


def pieces(raw: Raw, bounds: np.ndarray) -> pa.Array:
    """A zero-copy string column over ``raw``'s data whose consecutive elements are the spans
    between the consecutive entries of ``bounds`` (a non-decreasing int64 vector of byte
    positions); row ``r`` of a ``rows x k`` boundary matrix gives pieces ``r*k .. r*k+k-2`` (piece
    ``r*k+k-1`` spans to the next row's first boundary). Every piece must start and end on UTF-8
    character boundaries (the callers cut at ASCII bytes)."""
    typ = pa.large_string()
    offs = pa.py_buffer(np.ascontiguousarray(bounds, dtype=np.int64))
    return pa.Array.from_buffers(typ, len(bounds) - 1, [None, offs, raw.data_buffer])


def take_pieces(p: pa.Array, idx: np.ndarray) -> pa.Array:
    """Elements ``idx`` of a :func:`pieces` column (a real, compact large_string column)."""
    return p.take(pa.array(idx, pa.int64()))
