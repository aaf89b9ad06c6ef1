"""Head split of Spring Boot console lines from byte positions, for the parser's ``springboot`` /
``springboot3`` fast path (:func:`jobs.ingest.fastpaths.fast_springboot`).

A line the gate regex :data:`jobs.ingest.layouts.FAST_SPRINGBOOT` accepts is
``<ts> +<LEVEL> +(<pid> +)?--- [`` followed by an optional ``[app] ``, the ``[thread] `` and
``logger : message``. Before the first ``" --- "`` there is no other whitespace than spaces, no
``]`` and no ``" : "``, so the byte positions of each field come from a few literal searches
(``find_substring``, one call over the column each) and a small matrix of each line's first bytes:

* the timestamp ends at the first space, or at the second when byte 10 is a space (Spring Boot 2's
  ``yyyy-MM-dd HH:mm:ss.SSS``); the level is the next run of non-spaces;
* an ``[app] `` is there when the line's first ``]`` is followed by `` [``;
* the thread is what the brackets from there to the next ``"] "`` hold (whitespace trimmed), the
  logger what follows up to the next ``" : "`` (trailing whitespace trimmed), the message the rest.

The columns are gathered from zero-copy pieces of the line buffer (:func:`jobs.ingest.rawbytes.pieces`).
The result is the string-kernel split's (:func:`jobs.ingest.fastpaths.fast_springboot_kernels`,
``tests/ingest/test_fastheads.py`` checks it against that and the layout regexes).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest.rawbytes import Raw, pieces

#: at most this many bytes before ``" --- "`` are looked at (longer heads: the kernel split)
HEAD_MAX = 96


def _empty() -> dict[str, pa.Array]:
    return {k: pa.array([], pa.large_string()) for k in ("ts", "level", "thread", "logger", "message")}


def _finds(col: pa.Array, needle: str, every: int = 1) -> np.ndarray:
    """Byte position of the first ``needle`` in each string of ``col`` (-1 when none; elements
    ``0, every, 2*every, ...`` only)."""
    f = pc.find_substring(col, needle)
    out = np.asarray(pc.fill_null(f, -1).to_numpy(zero_copy_only=False), dtype=np.int64)
    return out[::every] if every > 1 else out


def find_from(raw: Raw, rows: np.ndarray, start: np.ndarray, needle: str) -> np.ndarray:
    """Byte position, counted from ``start``, of the first ``needle`` in each line ``rows`` (increasing)
    from its byte ``start`` (-1 when none): :func:`find_from_plain` with one string per line and no
    gap strings between them. Line ``i``'s string runs on to line ``i + 1``'s start, so the kernel
    stops at a line's own occurrence, and a first occurrence that does not end inside the line means
    the line has none (a later one would start later still)."""
    if not len(rows):
        return np.zeros(0, np.int64)
    begin = raw.starts[rows] + start
    bounds = np.append(begin, raw.ends[rows[-1]])
    found = _finds(pieces(raw, bounds), needle)
    inside = (found >= 0) & (found + len(needle.encode()) <= raw.ends[rows] - begin)
    return np.where(inside, found, -1)


def find_from_plain(raw: Raw, rows: np.ndarray, start: np.ndarray, needle: str) -> np.ndarray:
    """Byte position, counted from ``start``, of the first ``needle`` in each line ``rows`` from its
    byte ``start`` (-1 when none): the kernel on the lines' tails (and the gaps between them)."""
    if not len(rows):
        return np.zeros(0, np.int64)
    return _finds(_tail_pieces(raw, rows, start), needle, 2)


def _tail_pieces(raw: Raw, rows: np.ndarray, start: np.ndarray) -> pa.Array:
    """A zero-copy column whose even elements are the lines ``rows`` from byte ``start`` (in the
    line) to their end; the odd ones are the gaps between them."""
    s, e = raw.starts[rows], raw.ends[rows]
    bounds = np.empty(2 * len(rows), np.int64)
    bounds[0::2] = s + start
    bounds[1::2] = e
    return pieces(raw, bounds)


#: the shortest timestamp FAST_SPRINGBOOT accepts (``yyyy-MM-dd HH:mm:ss.S``): no space before this byte
_TS_MIN = 21


def _head(raw: Raw, rows: np.ndarray, dash: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(spaced, timestamp end, level start, level end) in bytes of each line, from its first
    ``dash`` bytes (the part before ``" --- "``: only digits, ``-:.,TZ+``, spaces, the level). The
    timestamp's first :data:`_TS_MIN` bytes hold no space (the gate regex): only the bytes after
    them are looked at, and byte 10 (a space in Spring Boot 2's ``yyyy-MM-dd HH:mm:ss.SSS``)."""
    width = int(dash.max()) + 1
    lo = min(_TS_MIN, width)
    m = raw.window(rows, lo, width - lo)
    col = np.arange(lo, width)[None, :]
    sp = (m == 32) & (col <= dash[:, None])  # (the first byte of " --- " ends the level)
    spaced = raw.data[raw.starts[rows] + 10] == 32 if width > 10 else np.zeros(len(rows), dtype=bool)
    ts_end = lo + np.argmax(sp, axis=1)
    lv0 = lo + np.argmax(~sp & (col > ts_end[:, None]), axis=1)
    lv1 = lo + np.argmax(sp & (col > lv0[:, None]), axis=1)
    return spaced, ts_end, lv0, lv1


def _head_plain(raw: Raw, rows: np.ndarray, dash: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_head` over every byte before ``" --- "`` (the reference)."""
    width = int(dash.max()) + 1
    m = raw.window(rows, 0, width)
    col = np.arange(width)[None, :]
    sp = (m == 32) & (col <= dash[:, None])
    spaced = sp[:, 10] if width > 10 else np.zeros(len(rows), dtype=bool)
    after = np.where(spaced, 11, 0)[:, None]
    ts_end = np.argmax(sp & (col >= after), axis=1)
    lv0 = np.argmax(~sp & (col > ts_end[:, None]), axis=1)
    lv1 = np.argmax(sp & (col > lv0[:, None]), axis=1)
    return spaced, ts_end, lv0, lv1


def split_springboot(sub: pa.Array, ok: np.ndarray, iso_t: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """The fields of the lines of ``sub`` that ``ok`` marks (they matched FAST_SPRINGBOOT) and whose
    timestamp is of the layout's form (``iso_t``: the ISO ``T`` form of ``springboot3``, else the
    spaced one of ``springboot``) and that have a ``"] "`` and a ``" : "``; returns (mask of the
    lines taken, {ts, level, thread, logger, message}), or None when a head is longer than
    :data:`HEAD_MAX` bytes (the caller splits with the string kernels)."""
    raw = Raw(sub)
    rows = np.nonzero(ok & raw.valid)[0]
    taken = np.zeros(len(sub), dtype=bool)
    if not len(rows):
        return taken, _empty()
    dash = find_from(raw, rows, np.zeros(len(rows), np.int64), " --- ")
    if (dash < 0).any() or dash.max() > HEAD_MAX:
        return None
    spaced, ts_end, lv0, lv1 = _head(raw, rows, dash)
    want = spaced != iso_t
    rows, dash, ts_end, lv0, lv1 = rows[want], dash[want], ts_end[want], lv0[want], lv1[want]
    if not len(rows):
        return taken, _empty()
    bracket = find_from(raw, rows, np.zeros(len(rows), np.int64), "]")
    n_bytes = raw.lengths[rows]
    b1, b2 = np.minimum(bracket + 1, n_bytes - 1), np.minimum(bracket + 2, n_bytes - 1)
    s = raw.starts[rows]
    app = (
        (bracket >= 0) & (bracket + 2 < n_bytes) & (raw.data[s + b1] == ord(" ")) & (raw.data[s + b2] == ord("["))
    )
    t0 = np.where(app, bracket + 2, dash + 5)  # the thread's "["
    close = find_from(raw, rows, t0, "] ")
    rest = t0 + close + 2
    colon = find_from(raw, rows, np.where(close >= 0, rest, n_bytes), " : ")
    good = (close >= 0) & (colon >= 0)
    rows, s, e = rows[good], s[good], raw.ends[rows[good]]
    ts_end, lv0, lv1, t0, rest, colon = ts_end[good], lv0[good], lv1[good], t0[good], rest[good], colon[good]
    taken[rows] = True
    # pieces per line: ts, (gap), level, (gap), thread, ("] "), logger, (" : "), message, (to the next line)
    b = np.empty((len(rows), 10), np.int64)
    b[:, 0], b[:, 1], b[:, 2], b[:, 3] = s, s + ts_end, s + lv0, s + lv1
    b[:, 4], b[:, 5], b[:, 6] = s + t0 + 1, s + rest - 2, s + rest
    b[:, 7], b[:, 8], b[:, 9] = s + rest + colon, s + rest + colon + 3, e
    pcs = pieces(raw, np.append(b.ravel(), e[-1] if len(rows) else 0))
    base = np.arange(len(rows), dtype=np.int64) * 10

    def field(k: int) -> pa.Array:
        return pcs.take(pa.array(base + k, pa.int64()))

    return taken, {
        "ts": field(0),
        "level": field(2),
        "thread": pc.utf8_trim_whitespace(field(4)),
        "logger": pc.utf8_rtrim_whitespace(field(6)),
        "message": field(8),
    }
