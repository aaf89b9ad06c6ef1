"""The batched parse of a task's small files (jobs/ingest/batch_parse.py) gives every file exactly
what the per-file parse (jobs.ingest.resume.parse_file, the reference) gives it: events, quarantine
rows and audit, on the sample logs, the fixture corpora and random mixes of layouts, kinds and
encodings in one batch; the batched layout orders equal each file's own."""

from __future__ import annotations

import glob
import gzip
import os
from dataclasses import replace

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs.ingest import batch_parse as BP
from jobs.ingest import spark_ingest as SI
from jobs.ingest.file_heads import head_lines
from jobs.ingest.heads import layout_order
from jobs.ingest.lines import decoded_lines
from jobs.ingest.model import IngestSettings
from jobs.ingest.resume import parse_file
from jobs.ingest.task_files import TaskWriters

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
QUIET = replace(IngestSettings(), on_corrupt="quarantine")
MTIME = 1_700_000_000_000


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _files(folder: str, every: int = 1) -> list[str]:
    fs = sorted(p for p in glob.glob(os.path.join(ROOT, folder, "**", "*"), recursive=True)
                if os.path.isfile(p) and not p.endswith((".yaml", ".md", ".py")))  # fmt: skip
    return fs[::every]


#: every sample log, the small fixture folders whole, every 10th file of the two big ones
#: (the whole of them and the mixed benchmark corpus, per plan_bins task, are checked the same way
#: by hand: see docs/benchmarks.md)
CORPUS = (_files("jobs/samples/logs") + _files("tests/fixtures/layouts") + _files("tests/fixtures/dialects")
          + _files("tests/fixtures/kip848") + _files("tests/fixtures/bad") + _files("tests/fixtures/real", 10)
          + _files("tests/fixtures/clients", 10))  # fmt: skip


@pytest.fixture
def batch_everything(monkeypatch):
    """Every file batched (whatever its size), all in one batch."""
    monkeypatch.setattr(BP, "SMALL_FILE_BYTES", 1 << 40)
    monkeypatch.setattr(BP, "BATCH_BYTES", 1 << 40)


def _assert_same(items, batched) -> None:
    assert [it[1] for it, _ in batched] == [it[1] for it in items]  # (input order)
    for (data, path, cluster, mtime), res in batched:
        if data is None:
            assert res is None
            continue
        ev, q, audit = res
        ev0, q0, audit0 = parse_file(data, path, cluster, QUIET, "r", None, mtime)
        assert ev.equals(ev0), path
        assert q.equals(q0), path
        assert audit == audit0, path


def test_the_corpus_in_one_batch_equals_each_file_alone(batch_everything) -> None:
    items = [(_read(p), p, "c", MTIME) for p in CORPUS]
    assert len(items) > 50
    batched = list(BP.parse_items(items, QUIET, "r"))
    _assert_same(items, batched)
    assert sum(res[0].num_rows for _, res in batched if res) > 100  # (events were found)


def test_layout_orders_equal_each_files_own() -> None:
    samples = [head_lines(decoded_lines(_read(p), QUIET)) for p in CORPUS if not p.endswith(".gz")]
    got = BP.layout_orders([(hl.sub, hl.fb) for hl in samples])
    assert [[lay.id for lay in o] for o in got] == [[lay.id for lay in layout_order(hl.sub, hl.fb)] for hl in samples]


_POOL = [p for p in CORPUS if os.path.getsize(p) < 64 << 10][:40]


def _variant(data: bytes, how: str) -> tuple[bytes, str]:
    if how == "gzip":
        return gzip.compress(data, mtime=0), ".gz"
    if how == "utf16":
        return data.decode("utf-8", "replace").encode("utf-16"), ""
    if how == "empty":
        return b"", ""
    if how == "binary":
        return bytes(range(256)) * 4, ""
    if how == "corrupt_gzip":
        return data[:50], ".gz"
    if how == "no_newline":
        return data.rstrip(b"\n"), ""
    if how == "crlf":
        return data.replace(b"\n", b"\r\n"), ""
    return data, ""


_HOW = st.sampled_from(["plain", "plain", "plain", "gzip", "utf16", "empty", "binary", "corrupt_gzip", "no_newline",
                        "crlf", "missing"])  # fmt: skip


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_POOL) - 1), _HOW), min_size=1, max_size=7),
       st.sampled_from([1 << 40, 4 << 10]), st.sampled_from([1 << 40, 20 << 10]))  # fmt: skip
def test_a_random_mix_batched_equals_each_file_alone(picks, small, bound) -> None:
    items = []
    for i, (k, how) in enumerate(picks):
        path = _POOL[k]
        data, ext = _variant(_read(path), how)
        name = f"/logs/mix-{i}-{os.path.basename(path)}{ext}"
        items.append((None if how == "missing" else data, name, f"c{i % 2}", MTIME + i))
    old = BP.SMALL_FILE_BYTES, BP.BATCH_BYTES
    BP.SMALL_FILE_BYTES, BP.BATCH_BYTES = small, bound
    try:
        batched = list(BP.parse_items(items, QUIET, "r"))
    finally:
        BP.SMALL_FILE_BYTES, BP.BATCH_BYTES = old
    _assert_same(items, batched)


def test_a_task_writes_the_same_files_batched_or_not(tmp_path, monkeypatch) -> None:
    """The worker path (``_write_parsed``): the same audits in the same order, the same Parquet
    files with the same rows in the same order (results come back in input order)."""
    items = [(_read(p), p, "c", MTIME) for p in _POOL[:12]]
    items.insert(3, (None, "/logs/vanished.log", "c", None))
    out = {}
    for enabled in (False, True):
        monkeypatch.setattr(BP, "ENABLED", enabled)
        d = tmp_path / str(enabled)
        audits = SI._write_parsed(iter(items), QUIET, "r", TaskWriters(str(d), "f00000", 4))
        files = sorted(glob.glob(str(d / "_rt=*" / "*.parquet")))
        out[enabled] = audits, {os.path.relpath(f, d): pq.read_table(f) for f in files}
    assert out[True][0] == out[False][0]
    assert out[True][0][3]["source_file"] == "/logs/vanished.log"
    assert sorted(out[True][1]) == sorted(out[False][1])
    assert any(name.startswith("_rt=e") for name in out[True][1])
    for name, t in out[False][1].items():
        assert out[True][1][name].equals(t), name
