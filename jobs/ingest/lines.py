"""A file's bytes as text lines: split at ``\\n`` (1-based ``line_no`` is the index + 1), the lines
that cannot be text quarantined (``line_too_long``, ``binary``: NUL or mostly non-text bytes,
``invalid_utf8``) with empty text, then ``\\r``, ANSI colours and escaped line ends removed."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.accounting import FileLines
from jobs.ingest.arrowops import mask, numpy_of
from jobs.ingest.model import IngestSettings


def split_lines(data: bytes) -> pa.Array:
    buf = pa.py_buffer(data)
    whole = pa.LargeBinaryArray.from_buffers(
        pa.large_binary(), 1, [None, pa.array([0, len(data)], pa.int64()).buffers()[1], buf]
    )
    lines = pc.list_flatten(pc.split_pattern(whole, b"\n"))
    if data.endswith(b"\n"):
        lines = lines.slice(0, len(lines) - 1)
    return lines


def decoded_lines(data: bytes, settings: IngestSettings) -> FileLines:
    """Lines as text; too long, NUL-byte, invalid UTF-8 lines quarantined (their text empty);
    ``\\r`` and ANSI colours removed."""
    lines = split_lines(data)
    n = len(lines)
    f = FileLines(data, lines, lines, np.zeros(n, dtype=bool), np.zeros(n, dtype=np.int8),
              np.full(n, None, dtype=object), np.full(n, None, dtype=object))  # fmt: skip
    lengths = numpy_of(pc.binary_length(lines))
    too_long = lengths > settings.max_line_bytes
    if too_long.any():
        f.bad |= too_long
        f.qreason[too_long] = "line_too_long"
        for i in np.nonzero(too_long)[0]:
            f.qdetail[i] = f"{int(lengths[i])} bytes > {settings.max_line_bytes}"
    if b"\x00" in data:
        nul = mask(pc.match_substring(lines, b"\x00")) & ~f.bad
        f.bad |= nul
        f.qreason[nul] = "binary"
        f.qdetail[nul] = "NUL bytes"
    try:
        text = pc.cast(
            lines if not f.bad.any() else pc.if_else(pa.array(f.bad), pa.scalar(b"", pa.large_binary()), lines),
            pa.large_string(),
        )
    except pa.ArrowInvalid:
        invalid_utf8(f)
        text = pc.cast(pc.if_else(pa.array(f.bad), pa.scalar(b"", pa.large_binary()), lines), pa.large_string())
    f.cls[f.bad] = 3
    if b"\r" in data:
        text = pc.utf8_rtrim(text, characters="\r")
    if b"\x1b" in data and b"\x1b[" in data:  # (memchr first: the 2-byte search is slow)
        text = PR.replace(text, L.ANSI, "")
    if b"&" in data and b"&#" in data:  # (escaped line ends, L.ESCAPED_END)
        text = PR.replace(text, L.ESCAPED_END, "")
    f.text = text
    return f


def invalid_utf8(f: FileLines) -> None:
    """Mark the lines that are not UTF-8: ``binary`` when mostly control/non-text bytes, else
    ``invalid_utf8`` (line by line: only files with such lines come here)."""
    for i, v in enumerate(f.lines.to_pylist()):
        if f.bad[i]:
            continue
        try:
            v.decode("utf-8")
        except UnicodeDecodeError:
            f.bad[i] = True
            ctrl = sum(1 for ch in v if ch < 9 or 13 < ch < 32 or ch == 127)
            nontext = ctrl + sum(1 for ch in v if ch >= 128)
            if ctrl >= 2 or nontext > 0.3 * max(1, len(v)):
                f.qreason[i], f.qdetail[i] = "binary", "non-text bytes"
            else:
                f.qreason[i], f.qdetail[i] = "invalid_utf8", "invalid UTF-8 byte sequence"
