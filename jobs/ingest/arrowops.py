"""Small vectorised helpers over Arrow columns shared by the ingestion modules (numpy views, masks,
takes, regex extraction, list splitting, integer casts, coalescing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import pyregex as PR
from jobs.ingest.rawbytes import Raw


# ------------------------------------------------------------------------------------ helpers
def whole(a: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The column as one array: its only chunk as it is (``ChunkedArray.combine_chunks`` copies
    even one chunk: for a table's wide list or string columns that copy cost more than the work on
    them), the chunks concatenated when there are several."""
    if isinstance(a, pa.ChunkedArray):
        return a.chunk(0) if a.num_chunks == 1 else a.combine_chunks()
    return a


def numpy_of(a: pa.Array | pa.ChunkedArray) -> np.ndarray:
    return whole(a).to_numpy(zero_copy_only=False)


def mask(a: pa.Array) -> np.ndarray:
    """Boolean Arrow array → numpy bool (null = False)."""
    return numpy_of(pc.fill_null(a, False) if a.null_count else a).astype(bool)


def nullify_empty(a: pa.Array) -> pa.Array:
    """``a`` with empty strings as null (``a`` itself when it holds none: the offsets tell)."""
    if isinstance(a, pa.Array) and (pa.types.is_string(a.type) or pa.types.is_large_string(a.type)):
        r = Raw(a)
        if not ((r.lengths == 0) & r.valid).any():
            return a
    return pc.if_else(pc.equal(a, ""), pa.scalar(None, a.type), a)


#: a take of at least this many consecutive positions is a slice (no copy)
SLICE_MIN = 256


def codes(a: pa.Array) -> np.ndarray:
    """Dictionary codes of ``a`` as int64, in order of first appearance (null: a code of its own)."""
    return numpy_of(pc.dictionary_encode(a, null_encoding="encode").indices).astype(np.int64)


def distinct_rows(*keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct combinations of the code columns ``keys`` (non-negative ints, one per row, at
    least one row): each row's combination (``inv``, numbered in order of first appearance) and one
    row of each combination (``rep``)."""
    key = keys[0].astype(np.int64)
    for c in keys[1:]:
        key = key * (int(c.max()) + 1) + c
    inv = codes(pa.array(key, pa.int64()))
    rep = np.empty(int(inv.max()) + 1, dtype=np.int64)
    rep[inv] = np.arange(len(inv))
    return inv, rep


def take(a: pa.Array, idx: np.ndarray) -> pa.Array:
    """``a.take(idx)``; a run of at least :data:`SLICE_MIN` consecutive positions is the zero-copy
    slice with the same values."""
    n = len(idx)
    if n >= SLICE_MIN and not isinstance(a, pa.ChunkedArray) and _consecutive(idx, len(a)):
        return a.slice(int(idx[0]), n)
    return a.take(pa.array(idx, pa.int64()))


def _consecutive(idx: np.ndarray, size: int) -> bool:
    """Whether ``idx`` is ``k, k+1, ...`` inside ``range(size)``."""
    n = len(idx)
    return bool(idx[n - 1] - idx[0] == n - 1 and idx[0] >= 0 and idx[n - 1] < size and (np.diff(idx) == 1).all())


def extract(a: pa.Array, regex: str) -> pa.StructArray:
    """``pc.extract_regex`` (small columns through Python's ``re``, see :mod:`jobs.ingest.pyregex`)."""
    return PR.extract(a, regex)


def split_list(raw: pa.Array, strip: str) -> pa.Array:
    """``"[a, b]"``/``"Set(a, b)"``/``"a, b"`` → list<string> (null stays null, ``[]`` → empty)."""
    s = PR.replace(raw, strip, "")
    parts = PR.split(s, r",\s*")
    flat = pc.utf8_trim_whitespace(pc.list_flatten(parts))
    parents = numpy_of(pc.list_parent_indices(parts))
    keep = mask(pc.not_equal(flat, ""))
    flat = flat.filter(pa.array(keep))
    parents = parents[keep]
    offsets = np.searchsorted(parents, np.arange(len(raw) + 1)).astype(np.int32)
    lst = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), flat.cast(pa.string()))
    valid = mask(pc.is_valid(raw))
    if valid.all():
        return lst
    return pc.if_else(pa.array(valid), lst, pa.scalar(None, lst.type))


def int_of(a: pa.Array, typ: pa.DataType | None = None) -> pa.Array:
    return pc.cast(nullify_empty(a), typ or pa.int32(), safe=False) if a is not None else None


def coalesce(*arrs: pa.Array | None) -> pa.Array:
    present = [a for a in arrs if a is not None]
    return present[0] if len(present) == 1 else pc.coalesce(*present)


def repeat(value: str | None, n: int) -> pa.Array:
    """A string column of ``n`` times ``value``."""
    return pa.repeat(pa.scalar(value, pa.string()), n)


def decode_lossy(b: bytes | None, keep: int) -> str:
    if b is None:
        return ""
    return b[:keep].decode("utf-8", errors="backslashreplace")


def elem(lists: pa.Array, i: int) -> pa.Array:
    """Element ``i`` of each list; null where the list is shorter (or null).

    A ``take`` from the flat values at ``offsets + i`` (several times cheaper than
    ``list_element`` on the split results of whole columns)."""
    lists = whole(lists)
    offs = lists.offsets.to_numpy(zero_copy_only=False)
    starts = offs[:-1]
    ok = (offs[1:] - starts) > i
    if lists.null_count:
        ok &= mask(pc.is_valid(lists))
    idx = (starts + i).astype(np.int64)
    if ok.all():
        return lists.values.take(pa.array(idx, pa.int64()))
    return lists.values.take(pa.array(idx, pa.int64(), mask=~ok))


def dict_apply(a: pa.Array, fn: Any) -> pa.Array:
    """``fn`` (an element-wise kernel) of the distinct values of ``a`` only, spread back to every
    row (for columns with few distinct values, e.g. logger names)."""
    enc = pc.dictionary_encode(a)
    return fn(enc.dictionary).take(enc.indices)


def column(t: pa.Table, name: str) -> pa.Array | None:
    return whole(t[name]) if name in t.column_names else None

