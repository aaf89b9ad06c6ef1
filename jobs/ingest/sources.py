"""Resolve :class:`~jobs.ingest.model.InputSpec` paths (files, directories, globs) on the driver.

Local paths are expanded here (directories recursively, globs with ``**``), so a missing path is
known before Spark runs and a file named twice is read once. Paths with a URI scheme
(``s3://``, ``abfss://``, ``dbfs:/`` ...) are handed to Spark's ``binaryFile`` reader unchanged
(``recursiveFileLookup``); Spark reports them missing at read time.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from urllib.parse import urlparse

from jobs.ingest.model import InputSpec

_GLOB_CHARS = set("*?[")


@dataclass(frozen=True)
class ResolvedInputs:
    """``files``: (path for Spark, cluster) in input order, each file once; ``remote``: unexpanded
    (path, cluster) for other file systems; ``missing``: (path, cluster) that match nothing."""

    files: tuple[tuple[str, str], ...]
    remote: tuple[tuple[str, str], ...]
    missing: tuple[tuple[str, str], ...]
    #: zero-byte local files (Spark's file sources skip them; their audit rows are made on the driver)
    empty: tuple[tuple[str, str], ...] = ()


def is_remote(path: str) -> bool:
    scheme = urlparse(path).scheme
    return bool(scheme) and scheme != "file" and len(scheme) > 1  # "C:" is a drive letter


def _local(path: str) -> str:
    return path[len("file://") :] if path.startswith("file://") else path


def _expand(path: str) -> list[str]:
    p = _local(path)
    if any(c in p for c in _GLOB_CHARS):
        out: list[str] = []
        for m in sorted(glob.glob(p, recursive=True)):
            out.extend(_expand(m) if os.path.isdir(m) else [m])
        return out
    if os.path.isdir(p):
        out = []
        for root, dirs, files in os.walk(p):
            # like Spark's file sources: skip hidden and underscore files/directories (_SUCCESS ...)
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
            out.extend(os.path.join(root, f) for f in sorted(files) if not f.startswith((".", "_")))
        return out
    if os.path.isfile(p):
        return [p]
    return []


def resolve(inputs: list[InputSpec]) -> ResolvedInputs:
    files: list[tuple[str, str]] = []
    remote: list[tuple[str, str]] = []
    missing: list[tuple[str, str]] = []
    empty: list[tuple[str, str]] = []
    seen: set[str] = set()
    for spec in inputs:
        if is_remote(spec.path):
            remote.append((spec.path, spec.cluster))
            continue
        found = _expand(spec.path)
        if not found:
            missing.append((spec.path, spec.cluster))
        for f in found:
            key = os.path.realpath(f)
            if key in seen:
                continue
            seen.add(key)
            target = empty if os.path.getsize(f) == 0 else files
            target.append((os.path.abspath(f), spec.cluster))
    return ResolvedInputs(tuple(files), tuple(remote), tuple(missing), tuple(empty))


def as_specs(inputs) -> list[InputSpec]:
    """Accept InputSpec, plain path strings or (path, cluster) tuples."""
    if isinstance(inputs, (str, InputSpec)):
        inputs = [inputs]
    out = []
    for x in inputs:
        if isinstance(x, InputSpec):
            out.append(x)
        elif isinstance(x, str):
            out.append(InputSpec(x))
        else:
            out.append(InputSpec(*x))
    return out
