"""A crashed consumer restarted at once: the crash is dated before the new process's start, so the
re-simulation keeps the consumer (the start is never swallowed by a later crash)."""

from __future__ import annotations

from coordinator_core.behaviour import JOIN_LATENCY_MS, GroupSettings, infer_behaviour
from coordinator_core.records import MemberSession

S = GroupSettings()  # 45 s session, 3 s heartbeat


def sess(m, joined, left, why, host="h1", client="consumer-g-1"):
    return MemberSession("g", m, None, client, host, joined, left, 1, 1, why, False)


def test_a_crash_restarted_within_a_heartbeat_is_dated_before_the_restart():
    # the old member expired at 100 s: it stopped about 55 s + half a heartbeat = 56.5 s; the new
    # process joined at 55.5 s, i.e. within 1.5 s of the crash: the crash must come first
    b = infer_behaviour("g", [sess("a", None, 100_000, "session_timeout"), sess("b", 55_500, None, "open")], [],
                        settings=S, start_ts=0, end_ts=200_000)  # fmt: skip
    actions = [(a.kind, a.ts) for a in b.consumers[0].actions]
    assert [k for k, _ in actions] == ["start", "crash", "start"]
    restart = 55_500 - JOIN_LATENCY_MS
    assert actions[1][1] == restart - 1 < actions[2][1] == restart
    # a restart long after the crash keeps the mid-heartbeat estimate
    b = infer_behaviour("g", [sess("a", None, 100_000, "session_timeout"), sess("b", 90_000, None, "open")], [],
                        settings=S, start_ts=0, end_ts=200_000)  # fmt: skip
    assert [(a.kind, a.ts) for a in b.consumers[0].actions][1] == ("crash", 100_000 - 45_000 + 1_500)


def test_an_all_at_once_deploy_re_simulates_with_every_consumer_back():
    """Three consumers killed and restarted within ~1 s (the behaviour that exposed the bug): the
    re-simulation keeps every consumer, so static membership leaves no rebalance (a restart within the
    session timeout), and the dynamic group rebalances for the restarts and ends with three members."""
    from jobs.whatif.resim import resimulate

    t0 = 1_715_680_800_000
    sessions = []
    for i in range(3):
        host = f"h{i}"
        crash = t0 + 100_000 + 50 * i  # 100 ms after the member's last heartbeat; it expires 45 s after that
        client = f"consumer-g-{i + 1}"
        sessions += [sess(f"old{i}", None, crash - 100 + 45_000, "session_timeout", host=host, client=client),
                     sess(f"new{i}", crash + 700, None, "open", host=host, client=client)]  # fmt: skip
    b = infer_behaviour("g", sessions, [], settings=S, start_ts=t0, end_ts=t0 + 200_000)
    for c in b.consumers:
        kinds = [a.kind for a in c.actions]
        assert kinds == ["start", "crash", "start"], (c.consumer, c.actions)
        assert c.actions[1].ts < c.actions[2].ts
    static = resimulate(b, S.with_changes(static_consumers=frozenset({"*"})))
    assert static.rebalance_count == 0
