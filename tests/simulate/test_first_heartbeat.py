"""The simulated client's first heartbeat after a join comes one ``heartbeat.interval.ms`` later,
whatever the interval (it was about 3 s whatever the setting, so a what-if of the heartbeat interval
re-simulated the wrong race)."""

from __future__ import annotations

import pytest

from coordinator_core.behaviour import Action, ConsumerBehaviour, GroupBehaviour, GroupSettings
from jobs.simulate.client import Client
from jobs.whatif.resim import resimulate

T0 = 1_715_680_800_000


@pytest.mark.parametrize("interval", [1_000, 3_000, 10_000])
def test_the_first_heartbeat_after_a_join_follows_the_interval(monkeypatch, interval):
    delays: list[int] = []
    original = Client.schedule_hb

    def spy(self, delay):
        delays.append(delay)
        original(self, delay)

    monkeypatch.setattr(Client, "schedule_hb", spy)
    consumers = [ConsumerBehaviour(f"c{i}", f"consumer-g-{i}", actions=[Action(T0 + 1_000 * i, "start")])
                 for i in range(2)]  # fmt: skip
    b = GroupBehaviour("g", T0, T0 + 60_000, {"t": 4}, consumers)
    resimulate(b, GroupSettings(heartbeat_interval_ms=interval, session_timeout_ms=max(45_000, 3 * interval)))
    after_join = [d for d in delays if d > 50]  # the join's schedule (the others are immediate restarts)
    assert after_join and all(interval - interval // 30 <= d <= interval + interval // 30 for d in after_join)
