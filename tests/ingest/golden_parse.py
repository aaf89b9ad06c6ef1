"""Golden outputs of ``parse_bytes`` for speed work (a tool, not collected by pytest).

``save`` writes the events/quarantine tables (Arrow IPC) and the audit dict (pickle) of every
corpus, sample and fixture file (and of every fixture line as a one-line file) under a golden
directory; ``check`` parses them again and compares (``Table.equals``, schema, audit ``==``),
printing the files that differ and the total CPU of ``parse_bytes``::

    PYTHONPATH=. .venv/bin/python tests/ingest/golden_parse.py save  /tmp/golden    # before a change
    PYTHONPATH=. .venv/bin/python tests/ingest/golden_parse.py check /tmp/golden    # after it
    PYTHONPATH=. .venv/bin/python tests/ingest/golden_parse.py check /tmp/golden 1M  # a subset

The corpora (``benchmarks/corpus/5000000``, ``1M``, ``1000000``, ``20k``, ``job-200000``) are
read when present.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import pickle
import sys
import time
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.ipc as ipc

from jobs.ingest.parse import parse_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATTERNS = [
    "benchmarks/corpus/5000000/*",
    "benchmarks/corpus/1M/**/*",
    "benchmarks/corpus/1000000/*",
    "benchmarks/corpus/20k/**/*",
    "benchmarks/corpus/job-200000/**/*",
    "jobs/samples/**/*",
    "tests/fixtures/**/*",
]


def _files() -> list[str]:
    out = []
    for pat in PATTERNS:
        for f in sorted(glob.glob(os.path.join(ROOT, pat), recursive=True)):
            if os.path.isdir(f) or f.endswith(("_COMPLETE", ".py", ".md")) or "/truth/" in f:
                continue
            out.append(f)
    return out


def _fixture_lines() -> dict[str, bytes]:
    blobs = {}
    for f in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/**/*.jsonl"), recursive=True)):
        with open(f, encoding="utf-8") as fh:
            rows = [json.loads(x) for x in fh if x.strip()]
        lines = [r.get("line", r.get("text")) for r in rows]
        lines = [x for x in lines if isinstance(x, str)]
        blobs[f + "#all"] = ("\n".join(lines) + "\n").encode()
        for i, x in enumerate(lines):
            blobs[f"{f}#{i}"] = (x + "\n").encode()
    return blobs


def _items(sel: str) -> Iterator[tuple[str, bytes]]:
    for f in _files():
        if sel in f:
            with open(f, "rb") as fh:
                yield f, fh.read()
    if not sel or "fixture" in sel:
        yield from _fixture_lines().items()


def _key(name: str) -> str:
    return hashlib.md5(
        os.path.relpath(name.split("#")[0], ROOT).encode() + name.partition("#")[2].encode()
    ).hexdigest()


def _write(t: pa.Table, path: str) -> None:
    with ipc.new_file(path, t.schema) as w:
        w.write_table(t)


def main(mode: str, golden: str, sel: str = "") -> int:
    os.makedirs(golden, exist_ok=True)
    bad = n = 0
    cpu = 0.0
    for f, data in _items(sel):
        t0 = time.process_time()
        ev, q, audit = parse_bytes(data, f)
        cpu += time.process_time() - t0
        k = os.path.join(golden, _key(f))
        n += 1
        if mode == "save":
            _write(ev, k + ".ev")
            _write(q, k + ".q")
            with open(k + ".a", "wb") as fh:
                pickle.dump(audit, fh)
            continue
        gev = ipc.open_file(k + ".ev").read_all()
        gq = ipc.open_file(k + ".q").read_all()
        with open(k + ".a", "rb") as fh:
            ga = pickle.load(fh)
        same = ev.schema.equals(gev.schema) and ev.equals(gev) and q.schema.equals(gq.schema) and q.equals(gq)
        if not (same and audit == ga):
            bad += 1
            print("DIFF", f, len(ev), len(gev), len(q), len(gq), audit == ga)
    print(mode, n, "files", "diffs", bad, "parse_bytes cpu", round(cpu, 2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
