"""Values people redact before pasting logs: ``***``, ``xxx``, ``<my_group>``, ``[REDACTED]`` ...

A redacted group id still names *a* group: all lines of one file that show the same redacted value
are one group, but two files' ``***`` are not known to be the same group. So a redacted group or
member id becomes a placeholder that is stable within the file and unique across files,
``redacted-<first 8 hex digits of the file's sha256>-<n>`` (n: order of first appearance in the
file), and the event is marked ``redacted``. Events of redacted groups are never merged across files.
"""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import pyregex as PR

#: a whole value that is a redaction mark, or a value with one inside (``consumer-1-***``)
REDACTED = (
    r"(?i)\*{3,}|^x{3,}$|^<[^<>]+>$|\[redacted\]|^redacted$|^\.{3}$|^…$|^#{3,}$|^\?{3,}$|<redacted>|^masked$"
)
_RX = re.compile(REDACTED)


def is_redacted(value: str | None) -> bool:
    return value is not None and bool(_RX.search(value))


def placeholders(
    columns: dict[str, pa.Array], file_key: str
) -> tuple[dict[str, pa.Array], np.ndarray] | None:
    """``columns`` (``group_id``, ``member_id`` ...) with redacted values replaced by placeholders,
    and the mask of the rows that had one; None when no value is redacted (the common case)."""
    hits = {}
    for name, col in columns.items():
        # (per distinct value: a file names a few groups and members many times)
        enc = pc.dictionary_encode(col)
        dm = pc.fill_null(PR.match(enc.dictionary, REDACTED), False).to_numpy(zero_copy_only=False)
        if not dm.any():
            continue
        idx = pc.fill_null(enc.indices, -1).to_numpy(zero_copy_only=False)
        m = np.where(idx >= 0, dm[np.maximum(idx, 0)], False)
        if m.any():
            hits[name] = m
    if not hits:
        return None
    seen: dict[str, str] = {}
    out = dict(columns)
    any_row = np.zeros(len(next(iter(columns.values()))), dtype=bool)
    for name, m in hits.items():
        vals = columns[name].to_pylist()
        for i in np.nonzero(m)[0]:
            v = vals[i]
            if v not in seen:
                seen[v] = f"redacted-{file_key[:8]}-{len(seen) + 1}"
            vals[i] = seen[v]
        out[name] = pa.array(vals, columns[name].type)
        any_row |= m
    return out, any_row
