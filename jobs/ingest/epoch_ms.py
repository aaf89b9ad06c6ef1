"""Layout timestamps to epoch milliseconds, vectorised: the text a layout's ``ts`` group captured
(ISO 8601 with ``T`` or space and ``,`` ``.`` ``:`` fractions, ``yyyy/MM/dd``, JUL's ``May 01, 2024
10:00:00 AM``, epoch seconds or millis) in one pass of Arrow kernels, a zone-less time in the
settings' default zone. The values left are read with the date-time grammar
(:func:`jobs.ingest.date_grammar.iso_texts`: per distinct value, the ambiguous day/month orders
decided for the whole column, which is one file's); a year-less date and a time of day go through
:func:`jobs.ingest.timestamps.to_iso` with their file's context."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import date_grammar as DG
from jobs.ingest import pyregex as PR

_ISO_PARTS = (
    r"^(?P<y>\d{4})[-/](?P<mo>\d{2})[-/](?P<d>\d{2})[ T](?P<h>\d{2}):(?P<mi>\d{2}):(?P<s>\d{2})"
    r"(?:[.,:](?P<f>\d{1,9}))?\s*(?P<z>Z|[+-]\d{2}:?\d{2})?$"
)
_JUL_PARTS = r"^(?P<mon>[A-Z][a-z]{2}) (?P<d>\d{1,2}), (?P<y>\d{4}) (?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2}) (?P<ap>AM|PM)$"
_EPOCH = r"^(?P<sec>\d{9,10})(?:\.(?P<f>\d{1,9}))?$|^(?P<ms>\d{13})$"
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    )
}


def days_from_civil(y: np.ndarray, m: np.ndarray, d: np.ndarray) -> np.ndarray:
    y = y - (m <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _blank_null(a: pa.Array) -> pa.Array:
    return pc.if_else(pc.equal(a, ""), pa.scalar(None, a.type), a)


def _ints(struct: pa.StructArray, name: str, default: int = 0) -> np.ndarray:
    col = struct.field(name)
    col = pc.if_else(pc.equal(col, ""), None, col)
    return pc.fill_null(pc.cast(col, pa.int64()), default).to_numpy(zero_copy_only=False)


def _frac_ms(struct: pa.StructArray) -> np.ndarray:
    f = struct.field("f")
    f = pc.utf8_rpad(pc.utf8_slice_codeunits(f, 0, 3), 3, "0")
    return pc.cast(f, pa.int64()).to_numpy(zero_copy_only=False)


def apply_zone(naive_ms: np.ndarray, zone_less: np.ndarray, default_tz: str) -> np.ndarray:
    if default_tz in ("UTC", "Z", "Etc/UTC", "GMT") or not zone_less.any():
        return naive_ms
    sub = pa.array(naive_ms[zone_less], pa.timestamp("ms"))
    local = pc.assume_timezone(sub, default_tz, ambiguous="earliest", nonexistent="earliest")
    out = naive_ms.copy()
    out[zone_less] = pc.cast(local, pa.int64()).to_numpy(zero_copy_only=False)
    return out


_FAST = r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[.,]\d{3}(?P<z>Z|[+-]\d{2}:\d{2})?$"


def _fast_timestamps(ts: pa.Array, default_tz: str) -> tuple[np.ndarray, np.ndarray]:
    """The common millisecond formats through Arrow's ISO-8601 cast (no sub-match extraction)."""
    n = len(ts)
    out = np.zeros(n, dtype=np.int64)
    fast = pc.fill_null(PR.match(ts, _FAST), False).to_numpy(zero_copy_only=False)
    if not fast.any():
        return out, fast
    sub = ts if fast.all() else ts.filter(pa.array(fast))
    sub = pc.replace_substring(sub, ",", ".")
    # a _FAST timestamp is 23 ASCII characters without its zone (``Z`` or ``+hh:mm``), longer with it
    zoned = pc.greater(pc.binary_length(sub), 23).to_numpy(zero_copy_only=False)
    ms = np.zeros(len(sub), dtype=np.int64)
    if (~zoned).any():
        naive = sub if not zoned.any() else sub.filter(pa.array(~zoned))
        v = pc.cast(pc.cast(naive, pa.timestamp("ms")), pa.int64()).to_numpy(zero_copy_only=False)
        ms[~zoned] = apply_zone(v, np.ones(len(v), dtype=bool), default_tz)
    if zoned.any():
        z = sub.filter(pa.array(zoned))
        ms[zoned] = pc.cast(pc.cast(z, pa.timestamp("ms", tz="UTC")), pa.int64()).to_numpy(
            zero_copy_only=False
        )
    out[fast] = ms
    return out, fast


def parse_timestamps(ts: pa.Array, default_tz: str = "UTC") -> pa.Array:
    """Epoch milliseconds (int64, null when unparsable) of a column of timestamp strings."""
    n = len(ts)
    if n == 0:
        return pa.array(np.zeros(0, dtype=np.int64), pa.int64())
    out, ok = _fast_timestamps(ts, default_tz)
    if ok.all():
        return pa.array(out, pa.int64())
    rest_idx = np.nonzero(~ok)[0]
    slow = _slow_timestamps(ts.take(pa.array(rest_idx)), default_tz)
    sv = pc.is_valid(slow).to_numpy(zero_copy_only=False)
    out[rest_idx[sv]] = pc.fill_null(slow, 0).to_numpy(zero_copy_only=False)[sv]
    ok[rest_idx[sv]] = True
    if not sv.all():
        left = rest_idx[~sv]
        left = left[pc.is_valid(ts.take(pa.array(left))).to_numpy(zero_copy_only=False)]
        if len(left):
            _grammar_timestamps(ts, left, out, ok, default_tz)
    return pa.array(out, pa.int64(), mask=~ok)


def _grammar_timestamps(ts: pa.Array, idx: np.ndarray, out: np.ndarray, ok: np.ndarray, default_tz: str) -> None:
    """The values at ``idx`` that a dated form of the grammar reads, into ``out``/``ok``."""
    sub = ts.take(pa.array(idx))
    dated = pc.fill_null(PR.match(sub, DG.IS_DATED), False).to_numpy(zero_copy_only=False)
    if not dated.any():
        return
    idx = idx[dated]
    isos = DG.iso_texts(sub.filter(pa.array(dated)).to_pylist())
    conv = _slow_timestamps(pa.array(isos, pa.string()), default_tz)
    cv = pc.is_valid(conv).to_numpy(zero_copy_only=False)
    out[idx[cv]] = pc.fill_null(conv, 0).to_numpy(zero_copy_only=False)[cv]
    ok[idx[cv]] = True


def _slow_timestamps(ts: pa.Array, default_tz: str = "UTC") -> pa.Array:
    n = len(ts)
    out = np.zeros(n, dtype=np.int64)
    ok = np.zeros(n, dtype=bool)
    iso = PR.extract(ts, _ISO_PARTS)
    valid = pc.fill_null(iso.is_valid(), False).to_numpy(zero_copy_only=False)
    if valid.any():
        y, mo, d = _ints(iso, "y"), _ints(iso, "mo", 1), _ints(iso, "d", 1)
        h, mi, s = _ints(iso, "h"), _ints(iso, "mi"), _ints(iso, "s")
        ms = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + s
        ms = ms * 1000 + _frac_ms(iso)
        z = iso.field("z")
        zone_less = valid & pc.equal(z, "").to_numpy(zero_copy_only=False)
        utc = pc.equal(z, "Z").to_numpy(zero_copy_only=False)
        offs = valid & ~zone_less & ~utc
        if offs.any():
            zz = pc.replace_substring(z, ":", "")
            sign = np.where(pc.starts_with(zz, "-").to_numpy(zero_copy_only=False), -1, 1)
            zh = pc.cast(_blank_null(pc.utf8_slice_codeunits(zz, 1, 3)), pa.int64(), safe=False)
            zm = pc.cast(_blank_null(pc.utf8_slice_codeunits(zz, 3, 5)), pa.int64(), safe=False)
            zh = pc.fill_null(zh, 0).to_numpy(zero_copy_only=False)
            zm = pc.fill_null(zm, 0).to_numpy(zero_copy_only=False)
            ms = np.where(offs, ms - sign * (zh * 3600 + zm * 60) * 1000, ms)
        ms = apply_zone(ms, zone_less, default_tz)
        out = np.where(valid, ms, out)
        ok |= valid
    rest = ~ok & pc.fill_null(pc.is_valid(ts), False).to_numpy(zero_copy_only=False)
    if rest.any():
        idx = np.nonzero(rest)[0]
        sub = ts.take(pa.array(idx))
        jul = PR.extract(sub, _JUL_PARTS)
        jv = pc.fill_null(jul.is_valid(), False).to_numpy(zero_copy_only=False)
        if jv.any():
            mon = np.array([_MONTHS.get(m or "", 1) for m in jul.field("mon").to_pylist()], dtype=np.int64)
            h = _ints(jul, "h") % 12 + np.where(
                pc.equal(jul.field("ap"), "PM").to_numpy(zero_copy_only=False), 12, 0
            )
            ms = (
                (days_from_civil(_ints(jul, "y"), mon, _ints(jul, "d", 1)) * 24 + h) * 60 + _ints(jul, "mi")
            ) * 60
            ms = (ms + _ints(jul, "s")) * 1000
            ms = apply_zone(ms, jv, default_tz)
            out[idx[jv]] = ms[jv]
            ok[idx[jv]] = True
        ep = PR.extract(sub, _EPOCH)
        ev = pc.fill_null(ep.is_valid(), False).to_numpy(zero_copy_only=False) & ~jv
        if ev.any():
            sec = _ints(ep, "sec")
            frac = pc.utf8_rpad(pc.utf8_slice_codeunits(ep.field("f"), 0, 3), 3, "0")
            frac = pc.fill_null(pc.cast(_blank_null(frac), pa.int64(), safe=False), 0).to_numpy(
                zero_copy_only=False
            )
            whole_ms = _ints(ep, "ms")
            ms = np.where(whole_ms > 0, whole_ms, sec * 1000 + frac)
            out[idx[ev]] = ms[ev]
            ok[idx[ev]] = True
    return pa.array(out, pa.int64(), mask=~ok)
