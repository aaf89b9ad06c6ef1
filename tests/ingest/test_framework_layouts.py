"""Catalogue statements in their own ecosystems' logging layouts (tests/ingest/framework_layouts.py) read
right by both readers: kind, group, generation, member id and the application's time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobs.ingest import timestamps as T
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F

#: (ecosystem, layout) that read every statement of the sample right (time included)
WHOLE = [
    ("python", "logging-default"), ("python", "basic-asctime"), ("python", "us-ampm"), ("python", "dd-mon-yy"),
    ("python", "iso-zone"), ("python", "relative-created"), ("python", "svlogd-tai64n+logging-default"),
    ("python", "journalctl-short-precise+basic-asctime"), ("erlang", "otp-multi-line"), ("erlang", "lager"),
    ("erlang", "otp-legacy-report"), ("go", "log-std"), ("go", "log-prefix"), ("go", "log-shortfile"),
    ("node", "kafkajs-logcreator"), ("node", "pino"), ("dotnet", "mel-console"), ("dotnet", "serilog-compact-json"),
    ("ruby", "logger-default"), ("ruby", "syslog-docker-tag+logger-default"), ("ruby", "rails-tagged"),
    # (a statement's arguments as keys: logfmt, zap console's JSON tail, zerolog console, JSON after NestJS' text)
    ("go", "logrus-text"), ("go", "zap-console"), ("go", "zerolog-console"), ("go", "slog-json"), ("node", "nestjs"),
    ("dotnet", "nlog-default"),
]  # fmt: skip
SAMPLE = 12  # statements per ecosystem (spread over its sources)


def _case(eco: str, layout: str) -> tuple[list[F.Msg], F.Layout]:
    for e, name, msgs, lay in F.cases():
        if (e, name) == (eco, layout):
            step = max(1, len(msgs) // SAMPLE)
            return msgs[::step][:SAMPLE], lay
    raise KeyError((eco, layout))


@pytest.mark.parametrize(("eco", "layout"), WHOLE)
def test_each_ecosystem_layout_reads_its_statements(eco: str, layout: str) -> None:
    msgs, lay = _case(eco, layout)
    ok, bad = F.score(msgs, lay, parse_bytes, f"{eco}-{layout}")
    assert ok == len(msgs), bad


@pytest.mark.parametrize(("eco", "layout"), [("erlang", "elixir-default"), ("erlang", "lager"),
                                             ("python", "us-ampm"), ("go", "zerolog-console"),
                                             ("python", "svlogd-tai64n+logging-default"), ("go", "zap-console"),
                                             ("node", "nestjs"), ("node", "pino-pretty")])  # fmt: skip
def test_the_reference_reader_reads_them_the_same(eco: str, layout: str) -> None:
    msgs, lay = _case(eco, layout)
    data, _ = F.render(msgs, lay)
    fast = parse_bytes(data, "f.log", "c", F.SETTINGS, "r")
    ref = read_bytes(data, "f.log", "c", F.SETTINGS, "r")
    assert fast[0].to_pylist() == ref[0].to_pylist()
    assert fast[2] == ref[2]


def test_pino_pretty_keys_on_indented_lines_give_the_facts() -> None:
    """pino-pretty writes kafkajs' keys on indented lines after the message: kind, group, member and
    generation are read (its time of day is not checked here)."""
    msgs, lay = _case("node", "pino-pretty")
    ok, bad = F.score(msgs, lay, parse_bytes, "node-pino-pretty", fields_only=True)
    assert ok == len(msgs), bad


def test_an_erlang_term_over_indented_lines_joins_its_message() -> None:
    """brod's ``"…):~n"`` header and a ``~p`` term over indented lines: one event, the rest continuations;
    Elixir's time of day takes the date of the file's previous dated line."""
    text = (
        "2024-05-01 13:00:00.123 [info] warm-up\n"
        "13:00:01.124 [info] group coordinator (groupId=g,memberId=m-1,generation=7,pid=<0.5.0>):\n"
        "  leaving group, reason {shutdown,\n"
        "      {failed_to_join,\n"
        "          [{error_code,rebalance_in_progress}]}}\n"
    )
    ev, q, audit = parse_bytes(text.encode(), "e.log", "c", F.SETTINGS, "r")
    rows = [r for r in ev.to_pylist() if r["kind"] == "leave_sent"]
    assert [(r["line_no"], r["group_id"], r["member_id"], r["generation"]) for r in rows] == [(2, "g", "m-1", 7)]
    assert rows[0]["ts_ms"] == int(datetime(2024, 5, 1, 13, 0, 1, 124000, tzinfo=UTC).timestamp() * 1000)
    assert audit["continuations"] == 3 and q.num_rows == 0


def test_tai64n_labels_are_the_supervisors_time() -> None:
    label = F.tai64n(F.T0)
    assert T.to_iso(label) == "2024-05-01T13:00:00.123000000Z"


#: layouts that print the time of day alone
TIME_ONLY = [("erlang", "elixir-default"), ("erlang", "elixir-metadata"), ("dotnet", "serilog-console")]


@pytest.mark.parametrize("dating", F.DATINGS)
@pytest.mark.parametrize(("eco", "layout"), TIME_ONLY)
def test_a_time_of_day_layout_reads_whole_timestamps_across_midnight(eco: str, layout: str, dating: str) -> None:
    """Each statement's whole timestamp, its date from the file's name, modification time or a dated line,
    in a file that runs past midnight (the day rolls forward), in both readers alike."""
    msgs, lay = _case(eco, layout)
    start = datetime(2024, 5, 1, 23, 59, 50, 500000, tzinfo=UTC)
    for reader in (parse_bytes, read_bytes):
        ok, bad = F.score(msgs, lay, reader, f"{eco}-{layout}", dating=dating, start=start)
        assert ok == len(msgs), bad


def test_pino_pretty_failed_responses_read_their_error_key_in_both_readers() -> None:
    """A kafkajs response whose ``error`` key pino-pretty wrote on an indented line after it is read as the
    failure it is (a failed JoinGroup is no join), the same in both readers."""
    (msgs, lay), = [(m, lay) for e, n, m, lay in F.cases() if (e, n) == ("node", "pino-pretty")]
    failed = [m for m in msgs if m.lines[0].startswith("[Connection] Response ") and "error" in m.fields]
    assert {m.expected["kind"] for m in failed} >= {"join_failed", "sync_failed", "heartbeat_failed", "other"}
    for reader in (parse_bytes, read_bytes):
        ok, bad = F.score(failed, lay, reader, "node-pino-pretty", fields_only=True)
        assert ok == len(failed), bad


def test_a_response_block_without_an_error_or_a_message_that_is_no_response_stays_as_it_is() -> None:
    """The rule of both readers: only a kafkajs response line with a non-empty ``error`` key in its block
    gets the error; an empty key, a block without one, or another message are left alone."""
    from jobs.ingest.layouts import block_response_error

    resp = "(4242): [Connection] Response JoinGroup(key: 11, version: 5)"
    assert block_response_error(resp, ['    error: "The coordinator is not aware of this member"', "    size: 55"]) == (
        resp + " error: The coordinator is not aware of this member"
    )
    assert block_response_error(resp, ['    error: ""', "    size: 55"]) == resp
    assert block_response_error(resp, ["    size: 55", ""]) == resp
    assert block_response_error("[Runner] Consumer has joined the group", ['    error: "x"']) == (
        "[Runner] Consumer has joined the group"
    )
