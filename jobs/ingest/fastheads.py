"""Head split of Kafka's log4j lines ``[yyyy-MM-dd HH:mm:ss,SSS] LEVEL message (logger)`` from
byte positions (numpy), for the parser's ``log4j`` / ``log4j-nologger`` fast path.

The head of such a line has fixed positions: the timestamp is bytes 1-24, the level starts at
byte 26. The first :data:`WIDTH` bytes of every line (one Arrow slice, reshaped into a matrix)
decide :data:`jobs.ingest.layouts.FAST_LOG4J` exactly (the template of fixed characters and
digits, a level of :data:`jobs.ingest.layouts.LEVELS` followed by spaces and a non-space
character) and give the message start. The last ``" ("`` of the line (a reverse split) gives the
``(logger)`` tail. The columns
are then gathered from zero-copy pieces of the line buffer (:func:`jobs.ingest.rawbytes.pieces`)
with one ``take`` each, and the timestamp is also converted to epoch milliseconds right away (the
digits are at known positions; the rows whose date is not a valid calendar date keep only the
string and go through :func:`jobs.ingest.epoch_ms.parse_timestamps` as before).

:func:`split_log4j` returns ``None`` when a line does not fit the matrix (a run of spaces after
the level reaching past :data:`WIDTH`); the caller then uses its string-kernel path. Otherwise the
result is the same as the split of ``jobs.ingest.parse.fast_log4j``
(``tests/ingest/test_fastheads.py`` checks it against that and against the layout regexes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import epoch_ms as EM
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.rawbytes import Raw, pieces

#: bytes of each line's head looked at (timestamp 26 + level <= 8 + spaces + first message byte)
WIDTH = 40
_PAD = 0x0A  # ("\n" never occurs inside a line: bytes past a line's end read as a line break)

_LEVELS = L.LEVELS.split("|")
LEVEL_NAMES = pa.array(_LEVELS, pa.large_string())
# the fixed head "[dddd-dd-dd dd:dd:dd,ddd] ": per byte the range of allowed values
_TEMPLATE = "[0000-00-00 00:00:00,000] "
_LO = np.array([ord(c) for c in _TEMPLATE], np.uint8)
_SPAN = np.array([9 if c == "0" else 0 for c in _TEMPLATE], np.uint8)
_NOT_S = np.zeros(256, dtype=bool)  # RE2's \s: [\t\n\f\r ] (not \v)
_NOT_S[[9, 10, 12, 13, 32]] = True


@dataclass
class Log4jSplit:
    """Per line of the input: ``ok`` (matches FAST_LOG4J), ``tail`` (ok and has a valid
    ``(logger)`` tail), the level index, message start, last ``" ("`` and naive epoch ms."""

    ok: np.ndarray
    tail: np.ndarray
    raw: Raw
    level: np.ndarray
    m0: np.ndarray
    paren: np.ndarray
    ts_ms: np.ndarray
    ts_valid: np.ndarray

    def columns(self, rows: np.ndarray) -> dict[str, pa.Array]:
        """The fields of the ok lines ``rows`` (sorted): ``ts``, ``level``, ``message`` (without
        the tail when the line has one, else the rest of the line), ``logger`` (``""`` without a
        tail) and ``tsms`` (naive epoch ms of ``ts``, null when not a valid date)."""
        s, e = self.raw.starts[rows], self.raw.ends[rows]
        t = self.tail[rows]
        p = self.paren[rows]
        # pieces per line: ts, (level), message, (" ("), logger, (")" and the gap to the next line)
        bounds = np.empty((len(rows), 6), np.int64)
        bounds[:, 0] = s + 1
        bounds[:, 1] = s + 24
        bounds[:, 2] = s + self.m0[rows]
        bounds[:, 3] = np.where(t, s + p, e)
        bounds[:, 4] = np.where(t, s + p + 2, e)
        bounds[:, 5] = np.where(t, e - 1, e)
        pcs = pieces(self.raw, np.append(bounds.ravel(), e[-1] if len(rows) else 0))
        six = np.arange(len(rows), dtype=np.int64) * 6
        return {
            "ts": pcs.take(pa.array(six, pa.int64())),
            "level": LEVEL_NAMES.take(pa.array(self.level[rows], pa.int64())),
            "message": pcs.take(pa.array(six + 2, pa.int64())),
            "logger": pcs.take(pa.array(six + 4, pa.int64())),
            "tsms": pa.array(self.ts_ms[rows], pa.int64(), mask=~self.ts_valid[rows]),
        }


def _head_matrix(h: pa.Array, rows: np.ndarray) -> np.ndarray:
    """The lines ``rows`` of ``h`` (the lines' first WIDTH bytes) as a matrix padded with _PAD."""
    n = len(rows)
    sub = h if n == len(h) else h.take(pa.array(rows, pa.int64()))
    r = Raw(sub)
    if n and not (r.lengths == WIDTH).all():
        m = np.full((n, WIDTH), _PAD, np.uint8)
        for k in range(WIDTH):
            has = r.lengths > k
            m[has, k] = r.data[r.starts[has] + k]
        return m
    return r.data[int(r.starts[0]) if n else 0 :][: n * WIDTH].reshape(n, WIDTH)


def _word_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per 8-byte word of the head: (mask, value) of the fixed characters and of the digit lanes'
    high nibbles, and the per-lane +6 that carries a digit's low nibble past 9 into the high one."""
    fixed_m, fixed_v, add = bytearray(32), bytearray(32), bytearray(32)
    for i, c in enumerate(_TEMPLATE):
        if c == "0":
            fixed_m[i], fixed_v[i], add[i] = 0xF0, 0x30, 0x06
        else:
            fixed_m[i], fixed_v[i] = 0xFF, ord(c)

    def words(x: bytearray) -> np.ndarray:
        return np.frombuffer(bytes(x), dtype="<u8").astype(np.uint64)

    digit_m = bytearray(0xF0 if c == "0" else 0 for c in _TEMPLATE) + bytearray(32 - len(_TEMPLATE))
    return words(fixed_m), words(fixed_v), words(add), words(digit_m)


_FIXED_M, _FIXED_V, _ADD6, _DIGIT_M = _word_masks()


def _classify(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(ok, level index, message start) of head matrix rows; None if a space run is too long.

    The fixed head is checked 8 bytes at a time: every fixed character equal and every digit
    lane ``0x30-0x39`` (high nibble 3, and still 3 after adding 6 to the lane)."""
    n = len(m)
    w = m.view("<u8")  # (n, WIDTH // 8) words
    ok = np.ones(n, dtype=bool)
    for k in range(4):
        x = w[:, k]
        ok &= (x & _FIXED_M[k]) == _FIXED_V[k]
        if _ADD6[k]:
            ok &= ((x + _ADD6[k]) & _DIGIT_M[k]) == (_DIGIT_M[k] & np.uint64(0x3333333333333333))
    key = (w[:, 3] >> np.uint64(16)) | (w[:, 4] << np.uint64(48))  # bytes 26-33
    level = np.full(n, -1, np.int64)
    for i, lv in enumerate(_LEVELS):
        wd = lv.encode() + b" "
        if len(wd) <= 8:
            hit = (key & np.uint64((1 << (8 * len(wd))) - 1)) == np.uint64(int.from_bytes(wd, "little"))
        else:
            hit = (key == np.uint64(int.from_bytes(wd[:8], "little"))) & (m[:, 34] == wd[8])
        level[hit & ok] = i
    ok &= level >= 0
    lens = np.array([len(lv) for lv in _LEVELS], np.int64)
    cur = np.where(ok, 27 + lens[np.maximum(level, 0)], 0)
    rows = np.nonzero(ok)[0]
    while len(rows):
        if (cur[rows] >= WIDTH).any():
            return None
        sp = m[rows, cur[rows]] == 32
        rows = rows[sp]
        cur[rows] += 1
    okr = np.nonzero(ok)[0]
    if (cur[okr] >= WIDTH).any():
        return None
    ok[okr[_NOT_S[m[okr, cur[okr]]]]] = False
    return ok, level, cur


def _last_paren(text: pa.Array, rows: np.ndarray) -> np.ndarray:
    """Byte position (in the line) of the last ``" ("`` of each line ``rows``, -1 if none."""
    if 2 * len(rows) >= len(text):  # (a split of every line is cheaper than copying most of them)
        return _before_last(text, " (")[rows]
    return _before_last(text.take(pa.array(rows, pa.int64())), " (")


def _before_last(a: pa.Array, sep: str) -> np.ndarray:
    """Length of the part before the last ``sep`` of each string (-1 when there is none)."""
    parts = pc.split_pattern(a, sep, max_splits=1, reverse=True)
    lo = parts.offsets.to_numpy(zero_copy_only=False)
    vo = Raw(parts.values).offsets
    two = (lo[1:] - lo[:-1]) == 2
    first_len = vo[lo[:-1] + 1] - vo[lo[:-1]] if len(vo) > 1 else np.zeros(len(a), np.int64)
    return np.where(two, first_len, -1)


_DAYS_IN_MONTH = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], np.int64)


def _ts_ms(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Naive epoch ms of ``yyyy-MM-dd HH:mm:ss,SSS`` at bytes 1-24 of the head rows and whether it
    is a valid date and time (else the caller leaves it to the string parser). The calendar part
    is computed once per run of equal dates (log lines come in time order)."""

    def num(a: int, b: int) -> np.ndarray:
        v = m[:, a].astype(np.int64) - 48
        for k in range(a + 1, b):
            v = v * 10 + (m[:, k].astype(np.int64) - 48)
        return v

    date = num(1, 5) * 10000 + num(6, 8) * 100 + num(9, 11)
    h, mi, s, ms = num(12, 14), num(15, 17), num(18, 20), num(21, 24)
    n = len(m)
    starts = np.flatnonzero(np.r_[True, date[1:] != date[:-1]]) if n else np.zeros(0, np.int64)
    du = date[starts]
    y, mo, dd = du // 10000, du // 100 % 100, du % 100
    leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    dim = _DAYS_IN_MONTH[np.clip(mo - 1, 0, 11)] + ((mo == 2) & leap)
    dvalid = (y >= 1900) & (y <= 2200) & (mo >= 1) & (mo <= 12) & (dd >= 1) & (dd <= dim)
    days = EM.days_from_civil(y, np.clip(mo, 1, 12), dd)
    reps = np.diff(np.r_[starts, n])
    valid = np.repeat(dvalid, reps) & (h < 24) & (mi < 60) & (s < 60)
    return np.repeat(days * 86_400_000, reps) + ((h * 60 + mi) * 60 + s) * 1000 + ms, valid


def split_log4j(text: pa.Array) -> Log4jSplit | None:
    """The FAST_LOG4J lines of ``text`` (a string column) and their ``(logger)`` tails, or None
    (see the module docstring); :meth:`Log4jSplit.columns` gathers the fields."""
    n = len(text)
    raw = Raw(text)
    b = text.cast(pa.large_binary()) if pa.types.is_large_string(text.type) else text.cast(pa.binary())
    h = pc.binary_slice(b, 0, WIDTH)
    ok = np.zeros(n, dtype=bool)
    level = np.full(n, -1, np.int64)
    m0 = np.zeros(n, np.int64)
    ts_ms = np.zeros(n, np.int64)
    ts_valid = np.zeros(n, dtype=bool)
    long_ = raw.lengths >= WIDTH
    for sel in (long_, ~long_):
        rows = np.nonzero(sel & raw.valid)[0]
        if not len(rows):
            continue
        m = _head_matrix(h, rows)
        c = _classify(m)
        if c is None:
            return None
        ok[rows], level[rows], m0[rows] = c
        keep = ok[rows]
        if keep.any():
            ts_ms[rows[keep]], ts_valid[rows[keep]] = _ts_ms(m[keep] if not keep.all() else m)
    okr = np.nonzero(ok)[0]
    p = np.full(n, -1, np.int64)
    if len(okr):
        p[okr] = _last_paren(text, okr)
    # the tail "(logger)": after the last " (" of the line, which must start inside the message
    # (at or after its first byte), a logger name and ")" to the line end
    s, e = raw.starts, raw.ends
    cand = ok & (p >= m0)
    # an empty message, "INFO  (logger)": the layout's " +" leaves the run's last space to " ("
    short = np.nonzero(ok & (p == m0 - 1) & (m0 >= 2))[0]
    if len(short):
        spaced = raw.data[raw.starts[short] + m0[short] - 2] == ord(" ")
        cand[short[spaced]] = True
    cr = np.nonzero(cand)[0]
    tail = np.zeros(n, dtype=bool)
    if len(cr):
        lb = np.stack([s[cr] + p[cr] + 2, e[cr]], axis=1).ravel()
        logger_raw = pieces(raw, lb).take(pa.array(np.arange(len(cr)) * 2, pa.int64()))
        enc = pc.dictionary_encode(logger_raw)
        good = PR.match(enc.dictionary, L.LOG4J_LOGGER_TAIL).take(enc.indices)
        tail[cr] = np.asarray(good.to_numpy(zero_copy_only=False), dtype=bool)
        m0 = np.where(tail & (p < m0), p, m0)  # (the empty message ends where it starts)
    return Log4jSplit(ok, tail, raw, level, m0, p, ts_ms, ts_valid)
