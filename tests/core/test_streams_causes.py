"""A rebalance that Kafka Streams requested itself gets its own cause: a Streams application's log, built
from the catalogue's statements (kafka-streams, kafka-consumer-classic), read by the parser and replayed
from this client-only evidence, gives ``followup_rebalance`` for the immediate follow-up the assignor
scheduled (tasks changing owner) and ``probing_rebalance`` for the KIP-441 probing rebalance; the stream
thread's and the client's state transitions and the assignor's decisions become events."""

from __future__ import annotations

import dataclasses

import pytest

from coordinator_core.causes import classify_client_reason, classify_reason
from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import GroupReplay
from jobs.ingest.catalogue import SAMPLE_VALUES, load, render_line
from jobs.ingest.parse import parse_bytes

GROUP = SAMPLE_VALUES["group_id"]
MEMBER = SAMPLE_VALUES["member_id"]
_SOURCES = {s.name: s for s in load()}
_TS = "2024-05-01 10:00:00,123"


def _line(source: str, sid: str, clock: str, **values) -> str:
    """The catalogue statement ``sid`` rendered as its program writes it, at ``clock``."""
    src = _SOURCES[source]
    st = next(s for s in src.statements if s.id == sid)
    st = dataclasses.replace(st, values={**st.values, **values})
    return render_line(src, st).replace(_TS, f"2024-05-01 {clock}", 1)


def _stable(clock: str, gen: int) -> list[str]:
    return [
        _line("kafka-consumer-classic", "abstract-coordinator.rejoining", clock),
        _line("kafka-consumer-classic", "abstract-coordinator.join-success", clock, generation=gen),
        _line("kafka-consumer-classic", "abstract-coordinator.successfully-synced-group-in-generation", clock, generation=gen),
        _line("kafka-streams", "stream-thread.state-transition-from-to", clock, from_state="PARTITIONS_ASSIGNED", state="RUNNING"),
    ]  # fmt: skip


def _trigger(clock: str, scheduled: str, requested: str) -> list[str]:
    return [
        _line("kafka-streams", "stream-thread.triggering-the-followup-rebalance-scheduled-for-2", clock,
              _utils_tologdatetimeforma=scheduled),
        _line("kafka-consumer-classic", "abstract-coordinator.request-joining-group-due-to", clock,
              _fullreason=f"triggered followup rebalance scheduled for {requested}"),
    ]  # fmt: skip


def _streams_log() -> str:
    lines = _stable("10:00:00,100", 1)
    # the leader's assignor: tasks change owner -> an immediate follow-up rebalance
    lines += [_line("kafka-streams", "streams-partition-assignor.requested-to-schedule-immediate-rebalance-for", "10:00:00,200")]
    lines += _trigger("10:00:00,300", "1970-01-01 00:00:00,000 Z", "0")
    lines += _stable("10:00:00,900", 2)
    # warm-up replicas are catching up: a probing rebalance in 10 minutes (KIP-441)
    lines += [
        _line("kafka-streams", "streams-partition-assignor.requested-to-schedule-next-probing-rebalance", "10:00:01,000",
              _utils_tologdatetimeforma="2024-05-01 10:10:01,000 Z"),
        _line("kafka-streams", "high-availability-task-assignor.decided-on-assignment-with-followup-probing", "10:00:01,000"),
    ]  # fmt: skip
    lines += _trigger("10:10:01,050", "2024-05-01 10:10:01,000 Z", "1714558201000")
    lines += [_line("kafka-streams", "kafka-streams.state-transition-from-to-2", "10:10:01,060")]
    lines += _stable("10:10:01,700", 3)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def parsed() -> list[dict]:
    events, quarantine, _ = parse_bytes(_streams_log().encode(), "streams-app.log")
    assert quarantine.num_rows == 0, quarantine.to_pylist()
    rows = events.to_pylist()
    for r in rows:
        r["ts"] = r["ts_ms"]
    return rows


def test_streams_lines_become_events(parsed):
    kinds = [r["kind"] for r in parsed]
    assert kinds.count("streams_rebalance_scheduled") == 3
    assert kinds.count("streams_state_changed") == 4
    client = next(r for r in parsed if r["kind"] == "streams_state_changed" and r["reason"] == "stream-client")
    assert (client["from_state"], client["state"], client["group_id"]) == ("RUNNING", "REBALANCING", GROUP)
    assert {r["group_id"] for r in parsed} == {GROUP}


def test_followup_and_probing_rebalances_get_their_causes(parsed):
    r = GroupReplay(GROUP)
    r.feed_rows(tuple(row.get(f) for f in EVENT_FIELDS) for row in parsed)
    out = r.flush(final=True)
    got = [(x.old_generation, x.new_generation, x.cause, x.outcome) for x in out.rebalances]
    assert got[-2:] == [(1, 2, "followup_rebalance", "completed"), (2, 3, "probing_rebalance", "completed")]


def test_broker_reason_with_a_streams_client_reason():
    base = "Updating metadata for member m1 during Stable; client reason: triggered followup rebalance scheduled for "
    assert classify_reason(base + "0").cause == "followup_rebalance"
    assert classify_reason(base + "1714558201000").cause == "probing_rebalance"
    assert classify_client_reason("Version probing detected. Triggering new rebalance.").cause == "followup_rebalance"
    assert classify_client_reason("the consumer is being closed").cause == "member_leave"
