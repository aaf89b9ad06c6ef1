"""Streaming multi-file log writer: per-file text buffers flushed in append mode, bounded memory.

Hundreds of client logs are written at once, so files are not kept open: each file has a list of
pending lines that is appended to disk when it grows past ``file_buffer`` bytes, and every buffer is
flushed when the total pending size passes ``total_buffer``. ``finish(gzip=True)`` compresses every
file (streaming, chunked) to ``<name>.gz`` and removes the plain file.
"""

from __future__ import annotations

import gzip
import os
import shutil


class LogSink:
    """Append-only text sink for many files under one root directory."""

    def __init__(self, root: str, file_buffer: int = 1 << 18, total_buffer: int = 1 << 26) -> None:
        self.root = root
        self.file_buffer = file_buffer
        self.total_buffer = total_buffer
        self._pending: dict[str, list[str]] = {}
        self._sizes: dict[str, int] = {}
        self._total = 0
        self.lines = 0
        self.bytes = 0
        self._created: set[str] = set()

    def write(self, relpath: str, text: str, nlines: int = 1) -> None:
        """Queue ``text`` (one or more complete lines, newline-terminated) for ``relpath``."""
        buf = self._pending.get(relpath)
        if buf is None:
            buf = self._pending[relpath] = []
            self._sizes[relpath] = 0
        buf.append(text)
        n = len(text)
        self.lines += nlines
        size = self._sizes[relpath] + n
        self._sizes[relpath] = size
        self._total += n
        if size >= self.file_buffer:
            self._flush_one(relpath)
        elif self._total >= self.total_buffer:
            self.flush()

    def _flush_one(self, relpath: str) -> None:
        buf = self._pending[relpath]
        if not buf:
            return
        path = os.path.join(self.root, relpath)
        if relpath not in self._created:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            mode = "w"
            self._created.add(relpath)
        else:
            mode = "a"
        data = "".join(buf)
        with open(path, mode, encoding="utf-8", newline="") as fh:
            fh.write(data)
        self.bytes += len(data)
        self._total -= self._sizes[relpath]
        self._sizes[relpath] = 0
        buf.clear()

    def flush(self) -> None:
        for relpath in list(self._pending):
            self._flush_one(relpath)

    def files(self) -> list[str]:
        return sorted(self._created | {p for p, b in self._pending.items() if b})

    def finish(self, gzip_output: bool = False) -> list[str]:
        """Flush everything; with ``gzip_output`` compress each file to ``.gz``. Returns the paths."""
        self.flush()
        out = []
        for relpath in sorted(self._created):
            path = os.path.join(self.root, relpath)
            if gzip_output:
                gz = path + ".gz"
                # mtime=0 keeps the compressed bytes deterministic
                with (
                    open(path, "rb") as src,
                    open(gz, "wb") as raw,
                    gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6) as dst,
                ):
                    shutil.copyfileobj(src, dst, 1 << 20)
                os.remove(path)
                out.append(relpath + ".gz")
            else:
                out.append(relpath)
        return out


class NullSink:
    """A sink that writes nothing and only counts (the what-if re-simulation needs the truth, not
    the log text)."""

    root = None

    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0

    def write(self, relpath: str, text: str, nlines: int = 1) -> None:
        self.lines += nlines

    def flush(self) -> None:
        pass

    def files(self) -> list[str]:
        return []

    def finish(self, gzip_output: bool = False) -> list[str]:
        return []
