"""Hypothesis properties of the evidence replay.

* it never raises and never records a ``replay_error`` for well-formed events;
* generations never decrease in the output (within one incarnation of the group);
* durations are never negative; every rebalance is completed, ended empty, or open;
* cut-and-resume (flush, snapshot, resume at any k) equals one replay;
* no member session has a null ``joined_ts`` (it is part of the session key);
* duplicated, shuffled or dropped evidence yields anomalies, never exceptions.
"""

from __future__ import annotations

import dataclasses
import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coordinator_core.events import EVENT_TYPES, Event
from coordinator_core.records import OUTCOMES
from coordinator_core.replay import GroupReplay, ReplayOutput

G = "g"
MEMBERS = ("m1", "m2", "m3")
SETTINGS = settings(
    max_examples=int(os.environ.get("REPLAY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

BROKER_KINDS = (
    "rebalance_prepared", "join_completed", "group_empty", "assignment_received", "member_added",
    "member_left", "member_session_expired", "member_id_required", "pending_member_expired",
    "sync_expired", "members_removed_not_joined", "static_member_replaced", "static_member_fenced",
    "leader_reelected", "group_loaded", "group_unloaded", "group_dead", "group_stable",
)  # fmt: skip
CLIENT_KINDS = (
    "joined", "synced", "leader_assigned", "assignment_notified", "partitions_assigned", "join_sent",
    "rejoin_requested", "leave_sent", "poll_timeout", "heartbeat_failed", "heartbeat_sent",
    "partitions_revoked", "coordinator_discovered", "generation_reset",
)  # fmt: skip
REASONS = (
    None, "removing member m1 on heartbeat expiration", "Adding new member m3 with group instance id None",
    "Removing member m2 on LeaveGroup; client reason: consumer poll timeout has expired.",
    "Leader m1 re-joining group during Stable", "group is already rebalancing", "the consumer is being closed",
)  # fmt: skip


@st.composite
def evidence(draw, kinds=BROKER_KINDS + CLIENT_KINDS, max_size=40) -> list[Event]:
    n = draw(st.integers(0, max_size))
    ts = draw(st.integers(0, 10_000))
    out = []
    for i in range(n):
        ts += draw(st.integers(0, 3000))
        kind = draw(st.sampled_from(kinds))
        cls = EVENT_TYPES[kind]
        mid = draw(st.sampled_from(MEMBERS))
        kw = {
            "ts": ts, "group_id": G, "member_id": mid, "generation": draw(st.integers(0, 6)),
            "source_file": "server.log" if kind in BROKER_KINDS else f"{mid}.log", "line_no": i + 1,
        }  # fmt: skip
        names = cls.__dataclass_fields__
        if "reason" in names:
            kw["reason"] = draw(st.sampled_from(REASONS))
        if "member_count" in names:
            kw["member_count"] = draw(st.one_of(st.none(), st.integers(0, 3)))
        if "members" in names:
            kw["members"] = tuple(draw(st.lists(st.sampled_from(MEMBERS), max_size=2)))
        if "old_member_id" in names:
            kw["old_member_id"] = draw(st.sampled_from(MEMBERS))
        if "partitions" in names:
            kw["partitions"] = tuple(draw(st.lists(st.sampled_from(("t-0", "t-1", "u-0")), max_size=3)))
        if "assignment" in names:
            kw["assignment"] = tuple(
                (m, (f"t-{j}",))
                for j, m in enumerate(draw(st.lists(st.sampled_from(MEMBERS), max_size=3, unique=True)))
            )
        if "error" in names:
            kw["error"] = draw(st.sampled_from(("REBALANCE_IN_PROGRESS", "UNKNOWN_MEMBER_ID", None)))
        if "client_id" in names and kind not in BROKER_KINDS:
            kw["client_id"] = f"c-{mid}"
        if kind in BROKER_KINDS:
            kw["coordinator"] = draw(st.sampled_from((1, 2)))
        out.append(cls(**kw))
    return out


def run(events, final=True) -> ReplayOutput:
    r = GroupReplay(G)
    for e in events:
        r.feed(e)
    return r.flush(final=final)


def merged(outputs: list[ReplayOutput]) -> dict:
    """What a sink holds after writing each flush: append-only tables concatenated, rebalances and
    sessions merged on their keys (later rows replace earlier ones)."""
    res = {
        "transitions": [],
        "anomalies": [],
        "assignments": [],
        "skew": [],
        "rebalances": {},
        "sessions": {},
    }
    for o in outputs:
        res["transitions"] += o.transitions
        res["anomalies"] += o.anomalies
        res["assignments"] += o.assignments
        res["skew"] += o.skew
        for r in o.rebalances:
            res["rebalances"][r.rebalance_id] = r
        for s in o.sessions:
            res["sessions"][(s.member_id, s.joined_ts)] = s
    return res


def _incarnations(transitions):
    """Split at a new incarnation of the group (it left Dead after it was removed)."""
    cur = []
    for t in transitions:
        if t.from_state == "Dead" and t.generation == 0:
            yield cur
            cur = []
        cur.append(t)
    yield cur


def _broker_then_older_prepare(signal: str, broker: str) -> list:
    """A client ``signal`` begins a client-inferred rebalance and a ``broker`` line (``Stabilized group``,
    the group's load) states generation 1; a later broker line with the older generation 0 must not
    re-open the rebalance as clock skew and set the generation back. When the second line is the
    client's own sync at generation 1 (the rebalance still inferred), the broker's older line re-opens
    it, and the group's transitions must not go from generation 1 back to 0."""
    t = EVENT_TYPES
    return [
        t[signal](ts=0, group_id=G, member_id="m1", generation=0, source_file="m1.log", line_no=1, client_id="c-m1"),
        t[broker](ts=0, group_id=G, member_id="m1", generation=1, source_file="server.log", line_no=2, coordinator=1),
        t["rebalance_prepared"](ts=0, group_id=G, member_id="m1", generation=0, source_file="server.log", line_no=3,
                                coordinator=1, reason=None),
    ]  # fmt: skip


@SETTINGS
@given(evidence())
@example(_broker_then_older_prepare("join_sent", "group_stable"))
@example(_broker_then_older_prepare("poll_timeout", "group_loaded"))
@example(_broker_then_older_prepare("join_sent", "synced"))
def test_replay_invariants(events):
    out = run(events)
    assert "replay_error" not in [a.kind for a in out.anomalies], [a.detail for a in out.anomalies]
    for part in _incarnations(out.transitions):
        gens = [t.generation for t in part if t.generation >= 0]
        assert gens == sorted(gens)
    for r in out.rebalances:
        assert r.outcome in OUTCOMES
        assert r.duration_ms is None or r.duration_ms >= 0
        assert (r.end_ts is None) is (r.outcome == "open")
        assert r.join_rounds >= 0
        if r.old_generation is not None and r.new_generation is not None and r.outcome != "open":
            assert r.new_generation >= r.old_generation or r.new_generation == 0
    assert len({r.rebalance_id for r in out.rebalances}) == len(out.rebalances)


@SETTINGS
@given(evidence(), st.data())
def test_cut_and_resume_equals_one_replay(events, data):
    k = data.draw(st.integers(0, len(events)))
    whole = merged([run(events)])
    r = GroupReplay(G)
    for e in events[:k]:
        r.feed(e)
    first = r.flush()
    r2 = GroupReplay.resume(G, r.snapshot())
    for e in events[k:]:
        r2.feed(e)
    second = r2.flush(final=True)
    assert merged([first, second]) == whole


@SETTINGS
@given(evidence(), st.data())
def test_no_session_has_a_null_joined_ts(events, data):
    """joined_ts is part of the session key (group_id, member_id, joined_ts) the sink merges on: it
    is never None, in one replay or in a cut-and-resume one."""
    k = data.draw(st.integers(0, len(events)))
    r = GroupReplay(G)
    for e in events[:k]:
        r.feed(e)
    first = r.flush()
    r2 = GroupReplay.resume(G, r.snapshot())
    for e in events[k:]:
        r2.feed(e)
    sessions = first.sessions + r2.flush(final=True).sessions + run(events).sessions
    assert [s for s in sessions if s.joined_ts is None] == []
    for s in sessions:
        assert s.left_ts is None or s.joined_ts <= s.left_ts or s.inferred


@SETTINGS
@given(evidence(max_size=25), st.data())
def test_snapshot_without_flush_keeps_pending_records(events, data):
    k = data.draw(st.integers(0, len(events)))
    r = GroupReplay(G)
    for e in events[:k]:
        r.feed(e)
    r2 = GroupReplay.resume(G, r.snapshot())
    for e in events[k:]:
        r2.feed(e)
    assert merged([r2.flush(final=True)]) == merged([run(events)])


def _valid_rounds(n_rounds: int, gap: int) -> list[Event]:
    evs = []
    for gen in range(n_rounds):
        ts = 1000 + gen * gap
        evs.append(EVENT_TYPES["rebalance_prepared"](ts=ts, group_id=G, generation=gen))
        evs.append(EVENT_TYPES["join_completed"](ts=ts + 10, group_id=G, generation=gen + 1))
        evs.append(EVENT_TYPES["assignment_received"](ts=ts + 20, group_id=G, generation=gen + 1))
    return [dataclasses.replace(e, source_file="server.log", line_no=i + 1) for i, e in enumerate(evs)]


def test_valid_rounds_have_no_anomalies():
    out = run(_valid_rounds(4, 1000))
    assert out.anomalies == [] and [r.join_rounds for r in out.rebalances] == [1, 1, 1, 1]


@SETTINGS
@given(st.integers(1, 5), st.data())
def test_duplicated_evidence_is_flagged(n, data):
    evs = _valid_rounds(n, 1000)
    i = data.draw(st.integers(0, len(evs) - 1))
    dup = dataclasses.replace(evs[i], source_file="server.log.1")
    out = run(sorted(evs + [dup], key=lambda e: e.sort_key()))
    assert [a.kind for a in out.anomalies] == ["duplicate_line"]
    assert len(out.rebalances) == n


@SETTINGS
@given(st.integers(1, 5), st.data())
def test_shuffled_evidence_is_flagged(n, data):
    evs = _valid_rounds(n, 1000)
    shuffled = data.draw(st.permutations(evs))
    out = run(shuffled)
    kinds = {a.kind for a in out.anomalies}
    if list(shuffled) != evs:
        assert "out_of_order" in kinds
    else:
        assert not kinds


@SETTINGS
@given(st.integers(1, 5), st.data())
def test_dropped_state_lines_are_flagged(n, data):
    evs = _valid_rounds(n, 1000)
    candidates = [i for i, e in enumerate(evs) if e.kind in ("rebalance_prepared", "join_completed")]
    i = data.draw(st.sampled_from(candidates))
    out = run(evs[:i] + evs[i + 1 :])
    assert out.anomalies, f"dropping {evs[i].kind} went unnoticed"
    assert "replay_error" not in {a.kind for a in out.anomalies}
