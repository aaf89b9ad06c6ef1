"""The consumer coordinator's fast paths (:mod:`coordinator_core.consumer.fastpath`) answer exactly as
the reference path: ``heartbeat_stream`` against one ``heartbeat`` call per row on a twin
coordinator with the fast path off (replies, records, logs, transitions, state, timer deadlines)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.protocol import HeartbeatRequest
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig


def setup(version):
    cs = []
    for fast in (True, False):
        c = ConsumerGroupCoordinator(ConsumerCoordinatorConfig(version, session_timeout_ms=10_000), {"t": 6})
        c.use_fast_path = fast
        for g in ("g1", "g2"):
            for m in ("a", "b", "c"):
                c.heartbeat(0, HeartbeatRequest(g, m, 0, rebalance_timeout_ms=5000, subscribed_topic_names=["t"],
                                                topic_partitions=[]))  # fmt: skip
            for _ in range(3):
                for m in ("a", "b", "c"):
                    mm = c.group(g).members[m]
                    c.heartbeat(0, HeartbeatRequest(g, m, mm.member_epoch, topic_partitions=mm.assigned_partitions))
        cs.append(c)
    return cs


row = st.tuples(st.integers(0, 4_000), st.sampled_from(["g1", "g2", "gx"]), st.sampled_from(["a", "b", "c", "z"]),
                st.integers(-1, 5))  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["4.0", "4.1", "4.2"]), st.lists(row, max_size=80))
def test_heartbeat_stream_equals_reference(version, rows):
    fast, ref = setup(version)
    t, ordered = 0, []
    for dt, g, m, e in rows:  # time moves forward; epochs near the real ones
        t += dt
        cur = ref.group(g).members.get(m) if ref.group(g) else None
        ordered.append((t, g, m, (cur.member_epoch if cur and e >= 0 else e) if e != 5 else 4))
    got = fast.heartbeat_stream(ordered)
    for r, res in zip(ordered, got):
        want = ref.heartbeat(r[0], HeartbeatRequest(r[1], r[2], r[3]))
        if res is None:
            assert (want.reply.error, want.reply.member_epoch, want.reply.assignment) == ("NONE", r[3], None)
            assert want.records == [] and want.logs == [] and want.transitions == []
            assert want.reply.request_id == ref._token
        else:
            assert (res.reply, res.records, res.logs, res.transitions) == (
                want.reply, want.records, want.logs, want.transitions)
    assert fast.groups == ref.groups
    assert fast._token == ref._token
    for g in ("g1", "g2"):
        for m in ("a", "b", "c"):
            assert fast.timer_deadline("session", g, m) == ref.timer_deadline("session", g, m)
    assert fast.advance_to(t + 60_000).records == ref.advance_to(t + 60_000).records


def test_stream_takes_the_fast_path_for_steady_members():
    fast, _ = setup("4.0")
    e = fast.group("g1").group_epoch
    got = fast.heartbeat_stream([(100, "g1", m, e) for m in ("a", "b", "c")] * 3)
    assert got == [None] * 9
    assert fast.timer_deadline("session", "g1", "a") == 10_100
