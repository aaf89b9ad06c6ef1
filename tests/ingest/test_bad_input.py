"""Bad input: nothing is lost - every line is an event, a continuation, unrelated or quarantined."""

from __future__ import annotations

import gzip
import os

import pytest

from jobs.ingest import IngestError, IngestSettings
from jobs.ingest.parse import parse_bytes
from tests.ingest.helpers import FIXTURES, check_invariant, parse_text

GOOD = "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Stabilized group g generation 4 (__consumer_offsets-12) with 2 members (kafka.coordinator.group.GroupCoordinator)"


def test_truncated_lines() -> None:
    with open(os.path.join(FIXTURES, "bad", "truncated.log"), "rb") as fh:
        ev, q, audit = parse_bytes(fh.read(), "truncated.log")
    check_invariant(audit)
    assert ev.column("line_no").to_pylist() == [1]
    by_line = {r["line_no"]: r["reason"] for r in q.to_pylist()}
    # cut inside the message: a GroupCoordinator / group line not understood; cut inside the
    # timestamp: no layout
    assert by_line == {
        2: "group_line_not_understood",
        3: "unparsable_layout",
        4: "group_line_not_understood",
        5: "group_line_not_understood",
    }


def test_binary_garbage_and_invalid_utf8() -> None:
    data = (
        (GOOD + "\n").encode()
        + b"\x00\x01\x02\xff\xfe binary\n"
        + b"[2024-05-01 10:00:00,123] INFO caf\xe9 group g (x.Y)\n"
        + bytes(range(128, 256))
        + b"\n"
    )
    ev, q, audit = parse_bytes(data, "bin.log")
    check_invariant(audit)
    assert ev.num_rows == 1
    rows = q.to_pylist()
    assert [(r["line_no"], r["reason"]) for r in rows] == [(2, "binary"), (3, "invalid_utf8"), (4, "binary")]
    assert rows[1]["raw"] == "[2024-05-01 10:00:00,123] INFO caf\\xe9 group g (x.Y)"
    assert audit["quarantined"] == 3


def test_line_too_long_keeps_the_first_4_kib(tmp_path) -> None:
    big = "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: " + "x" * (1 << 20) + " (k.Y)"
    path = tmp_path / "big.log"
    path.write_text(GOOD + "\n" + big + "\n" + GOOD + "\n")
    ev, q, audit = parse_bytes(path.read_bytes(), str(path))
    check_invariant(audit)
    assert ev.column("line_no").to_pylist() == [1, 3]
    row = q.to_pylist()[0]
    assert (row["line_no"], row["reason"], len(row["raw"])) == (2, "line_too_long", 4096)
    assert row["raw"] == big[:4096]


def test_line_limit_is_configurable() -> None:
    ev, q, audit = parse_text(
        GOOD + "\nshort\n", settings=IngestSettings(max_line_bytes=100, raw_keep_bytes=10)
    )
    assert q.to_pylist()[0]["reason"] == "line_too_long"
    assert q.to_pylist()[0]["raw"] == GOOD[:10]
    assert q.to_pylist()[1]["reason"] == "unparsable_layout"
    check_invariant(audit)


def test_empty_file_is_an_audit_row_with_zero_lines() -> None:
    ev, q, audit = parse_bytes(b"", "empty.log")
    assert (ev.num_rows, q.num_rows, audit["total_lines"], audit["error"]) == (0, 0, 0, None)
    ev, q, audit = parse_bytes(gzip.compress(b""), "empty.log.gz")
    assert (ev.num_rows, q.num_rows, audit["total_lines"], audit["compressed"]) == (0, 0, 0, True)


def test_out_of_order_timestamps_are_kept_and_counted() -> None:
    lines = [
        GOOD.replace("10:00:00,123", t).replace("generation 4", f"generation {i}")
        for i, t in enumerate(
            ["10:00:05,000", "10:00:01,000", "10:00:06,000", "10:00:02,000", "10:00:03,000"]
        )
    ]
    ev, q, audit = parse_text("\n".join(lines) + "\n")
    assert ev.column("generation").to_pylist() == [0, 1, 2, 3, 4]
    assert audit["out_of_order_lines"] == 3
    assert str(audit["first_ts"]) == "2024-05-01 10:00:01+00:00"
    assert str(audit["last_ts"]) == "2024-05-01 10:00:06+00:00"


def test_gzip_gives_the_same_result_as_plain_text() -> None:
    data = (GOOD + "\nnoise line\n").encode()
    ev1, q1, a1 = parse_bytes(data, "x.log")
    ev2, q2, a2 = parse_bytes(gzip.compress(data), "x.log")
    assert ev1.drop_columns(["source_file"]).equals(ev2.drop_columns(["source_file"]))
    assert a1["content_sha256"] == a2["content_sha256"]
    assert (a1["compressed"], a2["compressed"], a2["bytes"]) == (False, True, len(gzip.compress(data)))


@pytest.mark.parametrize("data", [gzip.compress(os.urandom(5000))[:2000], b"not gzip at all"])
def test_corrupt_gzip_raises_naming_the_file(data: bytes) -> None:
    with pytest.raises(IngestError, match="broken.log.gz"):
        parse_bytes(data, "/logs/broken.log.gz", settings=IngestSettings(on_corrupt="error"))


def test_corrupt_gzip_quarantined_by_default() -> None:
    """``ingest.on_corrupt`` defaults to ``quarantine`` (README, jobs.ingest.model.IngestSettings)."""
    ev, q, audit = parse_bytes(b"\x1f\x8b\x08\x00garbage", "/logs/broken.log.gz")
    assert ev.num_rows == 0
    assert audit["error"].startswith("corrupt_gzip: /logs/broken.log.gz")
    assert q.to_pylist()[0]["reason"] == "corrupt_gzip"
    assert q.to_pylist()[0]["line_no"] is None
    check_invariant(audit)


def test_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="on_missing"):
        IngestSettings(on_missing="ignore")


def test_a_binary_file_is_one_quarantine_row_not_hundreds() -> None:
    """A Kafka segment or an archive given by mistake: one row for the file, an audit error."""
    import random

    rnd = random.Random(7)
    data = b"\x00\x00\x00\x00\x00\x00\x00\x2a" + bytes(rnd.randrange(256) for _ in range(20000))
    ev, q, audit = parse_bytes(data, "00000000000000000000.log")
    assert ev.num_rows == 0
    assert [(r["line_no"], r["reason"], r["detail"]) for r in q.to_pylist()] == [(None, "binary", "binary file, not read")]
    assert audit["error"].startswith("binary: 00000000000000000000.log")
    assert audit["quarantine_reasons"] == {"binary": 1} and audit["total_lines"] == 0


def test_audit_counts_quarantine_reasons_and_keeps_one_unreadable_example() -> None:
    ev, q, audit = parse_text(GOOD + "\nsome text no layout reads\nmore of it\n")
    check_invariant(audit)
    assert audit["quarantine_reasons"] == {"unparsable_layout": 2}
    assert audit["unreadable_example"] == "some text no layout reads"


def test_run_summary_says_what_was_lost() -> None:
    from jobs.pipeline import RunSummary, _what_was_lost
    from jobs.report.console import summary_text

    s = RunSummary("r1", "batch", "./lakehouse", "delta-rs")
    _what_was_lost(s, [
        {"source_file": "a.log", "error": None, "quarantine_reasons": {"unparsable_layout": 5, "group_unknown": 1},
         "unreadable_example": "12:00 weird line", "dated_from": {"modification_time": 3}},
        {"source_file": "app-2024-05-01.log", "error": None, "dated_from": {"file_name": 2, "modification_time": 1}},
        {"source_file": "b.log.gz", "error": "corrupt_gzip: b.log.gz: bad", "quarantine_reasons": {"corrupt_gzip": 1}},
        {"source_file": "c.bin", "error": "binary: c.bin: not a text log (9 bytes)", "quarantine_reasons": {"binary": 1}},
    ])  # fmt: skip
    assert s.files_not_read == [("b.log.gz", "corrupt_gzip: b.log.gz: bad"), ("c.bin", "binary: c.bin: not a text log (9 bytes)")]
    assert s.quarantine_reasons == {"unparsable_layout": 5, "group_unknown": 1, "corrupt_gzip": 1, "binary": 1}
    text = summary_text(s)
    assert "files not read: 2" in text and "    b.log.gz: corrupt_gzip: b.log.gz: bad" in text
    assert "quarantined by reason: unparsable_layout 5, binary 1, corrupt_gzip 1, group_unknown 1" in text
    assert "a.log: 5 lines, e.g. '12:00 weird line'" in text and "ingest.layouts" in text
    assert s.dated_from == {"modification_time": 4, "file_name": 2}
    assert ("events with a time of day only, dated from the file's name 2, the file's modification time 4 "
            "(ingest.default_date sets the date)") in text


_DUMP_SHAPES = ("inspect", "inspect-multiline", "python-repr", "python-pprint", "ruby-hash", "ruby34-hash", "json-pretty",
                "json-nested", "json-escaped-twice", "docker+inspect", "cri+python-repr", "cri+inspect-multiline",
                "docker+json-pretty")  # fmt: skip


@pytest.mark.parametrize("shape", _DUMP_SHAPES)
def test_records_cut_in_half_fall_back_or_are_quarantined(shape: str) -> None:
    """A structured record of each syntax cut in half (a line cut at its middle, a record over several
    lines cut after half of its lines), among whole ones: nothing raises, both readers agree, the
    audit reconciles line for line, the whole records still read, a cut one is an event of the text it
    holds so far, unrelated, or quarantined with a reason."""
    from tests.ingest import envelope_shapes as S
    from tests.ingest.test_reference_equivalence import assert_same

    its = [S.Item(f"[Consumer clientId=c, groupId=g{k}] (Re-)joining group",
                  "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator", "INFO",
                  {"kind": "join_sent", "group_id": f"g{k}"}) for k in range(4)]  # fmt: skip
    out: list[str] = []
    for k, it in enumerate(its):
        lines, _ = S.SHAPES[shape](it, S.T0)
        if k % 2:  # (cut)
            lines = [lines[0][: len(lines[0]) // 2]] if len(lines) == 1 else lines[: len(lines) // 2]
        out += lines
    data = ("\n".join(out) + "\n").encode()
    assert_same(data, f"{shape}.log", S.SETTINGS)
    ev, q, audit = parse_bytes(data, f"{shape}.log", "c", S.SETTINGS, "r")
    check_invariant(audit)
    assert audit["total_lines"] == len(out)
    groups = [e["group_id"] for e in ev.to_pylist() if e["kind"] == "join_sent"]
    assert {"g0", "g2"} <= set(groups) <= {"g0", "g1", "g2", "g3"}
    assert all(r["reason"] and r["raw"] is not None for r in q.to_pylist())
