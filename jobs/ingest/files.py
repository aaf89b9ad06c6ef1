"""A file's bytes before its lines: gunzip, content hash, and whether it can be read at all.

Shared by the fast reader (:func:`jobs.ingest.parse.parse_bytes`) and the reference reader
(:func:`jobs.ingest.reference.read_bytes`): what happens to a whole file is one rule, whichever
reader then reads its lines.

* a ``.gz`` name or gzip magic bytes: decompressed; a corrupt or fake gzip is ``corrupt_gzip``
  (an :class:`~jobs.ingest.model.IngestError` naming the file when ``ingest.on_corrupt`` is
  ``error``);
* the content's sha256 (the same content given twice is read once);
* a binary file (control bytes, NUL included, are at least 5 % of its first 8 KiB: a Kafka segment,
  an archive, an image; the ESC of an ANSI colour sequence is not counted) is ``binary``: one quarantine
  row for the file, not one per "line".
"""

from __future__ import annotations

import gzip
import hashlib
import zlib
from dataclasses import dataclass

from jobs.ingest.model import IngestError

#: how much of a file the binary test reads
BINARY_SNIFF = 8192
_CONTROL = frozenset((*range(0, 9), *range(14, 32), 127))
_CONTROL_BYTES = bytes(sorted(_CONTROL))


@dataclass(frozen=True)
class OpenedFile:
    """The text bytes of a file (``data``), or why it is not read (``reason``: ``corrupt_gzip`` or
    ``binary``, with the quarantine row's ``detail`` and the audit's ``error``)."""

    data: bytes
    compressed: bool
    sha256: str | None
    reason: str | None = None
    detail: str | None = None
    error: str | None = None


def _sniffed(data: bytes) -> bytes:
    """The first :data:`BINARY_SNIFF` bytes, the ESC of each ANSI colour sequence (``ESC[``: a
    terminal's coloured log lines) not counted as a control byte."""
    return data[:BINARY_SNIFF].replace(b"\x1b[", b"[")


def is_binary(data: bytes) -> bool:
    """Control bytes are at least 5 % of the first :data:`BINARY_SNIFF` bytes (counted by deleting
    them: ``bytes.translate``; :func:`is_binary_plain` counts them one by one)."""
    head = _sniffed(data)
    return len(head) - len(head.translate(None, _CONTROL_BYTES)) >= 0.05 * len(head)


def is_binary_plain(data: bytes) -> bool:
    """:func:`is_binary` byte by byte (the reference it is tested equal to)."""
    head = _sniffed(data)
    return sum(1 for b in head if b in _CONTROL) >= 0.05 * len(head)


def open_file(data: bytes, source_file: str, on_corrupt: str) -> OpenedFile:
    magic = data[:2] == b"\x1f\x8b"
    compressed = magic or source_file.endswith(".gz")
    if compressed:
        try:
            if not magic:
                raise OSError("not a gzip file (no gzip magic bytes)")
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            msg = f"corrupt_gzip: {source_file}: {e}"
            if on_corrupt == "error":
                raise IngestError(msg) from e
            return OpenedFile(b"", True, None, "corrupt_gzip", str(e), msg)
    sha = hashlib.sha256(data).hexdigest()
    if data and is_binary(data):
        error = f"binary: {source_file}: not a text log ({len(data):,} bytes)"
        return OpenedFile(b"", compressed, sha, "binary", "binary file, not read", error)
    return OpenedFile(data, compressed, sha)
