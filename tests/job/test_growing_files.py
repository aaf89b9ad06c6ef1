"""Nightly runs over a live folder (docs/nightly-runs.md): a file that grows between runs is read from
where the last run stopped, a rotation by rename is recognised by content, a truncated or rewritten
file is read whole with a note. Each sequence of runs is compared with ONE clean run over the final
files: every line in ``events`` exactly once, the same rows but ``run_id``."""

from __future__ import annotations

import gzip
import json
import os
import shutil

import pytest

from jobs.ingest.model import IngestSettings
from jobs.ingest.resume import earlier_reads, parse_file
from jobs.pipeline import run_job
from jobs.sink import read_table
from tests.job.helpers import SAMPLES, job_config, rows

pytestmark = [pytest.mark.spark, pytest.mark.slow]

BROKER_LOG = os.path.join(SAMPLES, "prod-eu", "broker-1", "server.log")
CLUSTER = "prod-eu"
#: the tables compared with one clean run (group_state without its envelope, which names runs)
COMPARED = {"events": ("run_id",), "quarantine": ("run_id",), "group_transitions": (), "rebalances": (),
            "member_sessions": (), "assignments": (), "group_state": ("state_json", "run_id")}  # fmt: skip


def _text() -> bytes:
    with open(BROKER_LOG, "rb") as fh:
        return fh.read()


def _write(folder: str, name: str, data: bytes) -> str:
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def _clean(spark, tmp_path, files: dict[str, bytes]) -> str:
    """One run over the final files (in a folder of the same path, so source_file is the same)."""
    folder = str(tmp_path / "live")
    shutil.rmtree(folder, ignore_errors=True)
    for name, data in files.items():
        _write(folder, name, data)
    lake = str(tmp_path / "clean")
    run_job(spark, job_config(lake), [(folder, CLUSTER)], "batch")
    return lake


def _line_counts(lake: str) -> tuple[int, int]:
    """(events rows, distinct (source_file, line_no) of them)."""
    ev = read_table(None, lake, "events")
    return len(ev), len(ev[["source_file", "line_no"]].drop_duplicates())


def _same_as_clean(lake: str, clean: str, rename: dict[str, str] | None = None) -> None:
    """``rename``: ``"<source_file>:<line_no>"`` -> the name the clean run gives that line."""

    def renamed(name: str, lh: str, drop: tuple[str, ...]) -> list[str]:
        out = []
        for r in rows(lh, name, drop=drop):
            d = json.loads(r)
            if "source_file" in d:
                d["source_file"] = (rename or {}).get(f"{d['source_file']}:{d['line_no']}", d["source_file"])
            out.append(json.dumps(d, sort_keys=True))
        return sorted(out)

    for name, drop in COMPARED.items():
        assert renamed(name, lake, drop) == renamed(name, clean, drop), name


def test_grown_file_read_once(spark, tmp_path):
    """Half of the broker log (its last line cut in the middle), then three quarters, then all of it,
    in batch, incremental and batch mode: every line once (53 events of 55 lines), the tables of
    one clean run over the whole file. The line run 1 read while it was cut is read again whole by
    run 2 (its earlier rows deleted; both audit rows count it)."""
    data = _text()
    folder = str(tmp_path / "live" / "broker-1")
    lake = str(tmp_path / "lake")
    half = len(data) // 2 + 17  # (inside a line)
    three_q = data.index(b"\n", 3 * len(data) // 4) + 1
    assert data[half - 1 : half] != b"\n"
    for cut, mode in ((half, "batch"), (three_q, "incremental"), (len(data), "batch")):
        _write(folder, "server.log", data[:cut])
        run_job(spark, job_config(lake, mode=mode), [(str(tmp_path / "live"), CLUSTER)], mode)
    assert _line_counts(lake) == (53, 53)
    audit = read_table(None, lake, "ingest_audit").sort_values("first_line_no")
    assert list(audit.read_mode) == ["whole", "resumed", "resumed"]
    cut_line = data[:half].count(b"\n") + 1
    assert list(audit.first_line_no) == [1, cut_line, data[:three_q].count(b"\n") + 1]
    assert sum(audit.total_lines) == 55 + 1 and sum(audit.events) == 53
    clean = _clean(spark, tmp_path, {"broker-1/server.log": data})
    _same_as_clean(lake, clean)
    assert rows(lake, "anomalies") == rows(clean, "anomalies")


def test_rotation_by_rename(spark, tmp_path):
    """Run 1 reads half of server.log; it grows to three quarters and is renamed server.log.1 (then
    gzipped), a new server.log holds the rest. Run 2 reads only the new lines of server.log.1.gz
    (numbered on from run 1's) and the new server.log whole, without a note. The lines read before
    the rotation keep the name they were read under."""
    data = _text()
    root = str(tmp_path / "live")
    folder = os.path.join(root, "broker-1")
    lake = str(tmp_path / "lake")
    half = data.index(b"\n", len(data) // 2) + 1
    three_q = data.index(b"\n", 3 * len(data) // 4) + 1
    _write(folder, "server.log", data[:half])
    run_job(spark, job_config(lake), [(root, CLUSTER)], "batch")
    os.remove(os.path.join(folder, "server.log"))
    _write(folder, "server.log.1.gz", gzip.compress(data[:three_q]))
    _write(folder, "server.log", data[three_q:])
    second = run_job(spark, job_config(lake), [(root, CLUSTER)], "batch")
    assert second.files_new == 2
    audit = read_table(None, lake, "ingest_audit")
    last = audit[audit.run_id == second.run_id].set_index("source_file")
    rotated, new = os.path.join(folder, "server.log.1.gz"), os.path.join(folder, "server.log")
    assert last.loc[rotated, "read_mode"] == "resumed" and last.loc[rotated, "resumed_from"] == new
    assert last.loc[rotated, "first_line_no"] == data[:half].count(b"\n") + 1
    assert last.loc[new, "read_mode"] == "whole"
    n_lines = data.count(b"\n")
    assert sum(audit.total_lines) == n_lines and _line_counts(lake)[0] == 53
    clean = _clean(spark, tmp_path, {"broker-1/server.log.1.gz": gzip.compress(data[:three_q]),
                                     "broker-1/server.log": data[three_q:]})  # fmt: skip
    first_lines = data[:half].count(b"\n")
    _same_as_clean(lake, clean, {f"{new}:{n}": rotated for n in range(1, first_lines + 1)})


def test_truncated_file_read_whole_with_a_note(spark, tmp_path):
    """server.log read whole, then truncated and rewritten (the broker's second half only): run 2
    reads it whole as a new file, its audit row says ``truncated``; its rows are those of one
    clean run over the rewritten file."""
    data = _text()
    root = str(tmp_path / "live")
    folder = os.path.join(root, "broker-1")
    lake = str(tmp_path / "lake")
    half = data.index(b"\n", len(data) // 2) + 1
    _write(folder, "server.log", data[:half])
    first = run_job(spark, job_config(lake), [(root, CLUSTER)], "batch")
    _write(folder, "server.log", data[half:])
    second = run_job(spark, job_config(lake), [(root, CLUSTER)], "batch")
    audit = read_table(None, lake, "ingest_audit").set_index("run_id")
    assert audit.loc[second.run_id, "read_mode"] == "truncated"  # (shorter than what run 1 read)
    assert audit.loc[second.run_id, "first_line_no"] == 1
    path = os.path.join(folder, "server.log")
    ev, q, _ = parse_file(data[half:], path, CLUSTER, IngestSettings(), "x")
    for name, want in (("events", ev), ("quarantine", q)):
        mine = [json.loads(r) for r in rows(lake, name) if json.loads(r)["run_id"] == second.run_id]
        assert sorted((r["line_no"], r["message" if name == "events" else "raw"]) for r in mine) == sorted(
            (r["line_no"], r["message" if name == "events" else "raw"]) for r in want.to_pylist()
        ), name
    ev1, _, _ = parse_file(data[:half], path, CLUSTER, IngestSettings(), "x")
    assert _line_counts(lake)[0] == ev1.num_rows + ev.num_rows == 53
    assert first.run_id != second.run_id


def _no_run(r: str) -> str:
    d = json.loads(r)
    d.pop("run_id")
    return json.dumps(d, sort_keys=True)


# ------------------------------------------------------------------------------ the reader alone
STACK_LOG = b"".join(
    b"2024-05-01 10:00:%02d,000 INFO [GroupCoordinator 1]: Preparing to rebalance group g%d in state "
    b"PreparingRebalance with old generation %d (__consumer_offsets-1) (reason: x) "
    b"(kafka.coordinator.group.GroupCoordinator)\n\tat a.b.C.d(C.java:1)\n\tat a.b.C.e(C.java:2)\n"
    b"2024-05-01 10:00:%02d,500 ERROR boom (kafka.server.KafkaApis)\n"
    b"java.lang.IllegalStateException: boom\n\tat a.b.C.d(C.java:1)\n"
    % (i, i % 3, i, i)
    for i in range(20)
)


@pytest.mark.parametrize("gz", [False, True])
def test_every_cut_reads_each_line_once(gz):
    """Cut the text anywhere (inside a line, inside a stack trace): the rows of the earlier read
    (without its replaced line) and of the resumed read are the rows of one read - but for the
    continuation text of an entry cut inside its stack trace, which keeps what it had when first
    read - and the line counts add up."""
    settings = IngestSettings()
    path = "/logs/b/server.log" + (".gz" if gz else "")
    enc = gzip.compress if gz else bytes
    full_ev, _, full = parse_file(enc(STACK_LOG), path, "c", settings, "r")
    assert full_ev.num_rows == 20 and full["continuations"] == 40 and full["unrelated"] == 60

    def key(rs, cont=False):
        drop = ("run_id",) if cont else ("run_id", "continuation")
        return sorted(json.dumps({k: v for k, v in r.items() if k not in drop}, default=str) for r in rs)

    trace = STACK_LOG.index(b"\tat a.b.C.e", len(STACK_LOG) // 2)
    for cut in (1, len(STACK_LOG) // 3, trace, trace + 5, trace + 25, len(STACK_LOG) - 3):
        ev1, q1, a1 = parse_file(enc(STACK_LOG[:cut]), path, "c", settings, "r1")
        a1["run_id"] = "r1"
        ev2, q2, a2 = parse_file(enc(STACK_LOG), path, "c", settings, "r2", earlier_reads([a1])["/logs/b"])
        gone = set((a2["replaced_lines"] or {}).get("lines", []))
        kept1 = [r for r in ev1.to_pylist() if r["line_no"] not in gone]
        both = kept1 + ev2.to_pylist()
        assert a2["read_mode"] == "resumed" and q2.num_rows == 0, cut
        assert key(both) == key(full_ev.to_pylist()), cut
        assert len(set(key(both, True)) - set(key(full_ev.to_pylist(), True))) <= 1, cut
        assert a1["total_lines"] - len(gone) + a2["total_lines"] == full["total_lines"], cut
        counts = ("events", "continuations", "unrelated", "quarantined")
        assert sum(a2[k] for k in counts) == a2["total_lines"], cut
