"""The bundled sample (``jobs/samples/logs``) replayed without Spark against ``jobs/samples/EXPECTED.md``.

Each file is parsed with ``jobs.ingest.parse.parse_bytes`` (Arrow, no Spark); the events of a group are
sorted in the replay's total order and fed as rows, as the Spark job does per group.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coordinator_core.events import EVENT_FIELDS, order_key
from coordinator_core.replay import GroupReplay, ReplayOutput

LOGS = Path(__file__).resolve().parents[2] / "jobs" / "samples" / "logs"
DAY = 1715644800000  # 2024-05-14T00:00:00Z


def _ms(hms: str) -> int:
    h, m, s = hms.split(":")
    return DAY + (int(h) * 3600 + int(m) * 60) * 1000 + round(float(s) * 1000)


@pytest.fixture(scope="module")
def sample() -> dict[str, ReplayOutput]:
    parse = pytest.importorskip("jobs.ingest.parse")
    rows = []
    for p in sorted(LOGS.rglob("*")):
        if p.is_file():
            cluster = p.relative_to(LOGS).parts[0]
            events, _, _ = parse.parse_bytes(p.read_bytes(), str(p.relative_to(LOGS)), cluster)
            for r in events.to_pylist():
                r["ts"] = r["ts_ms"]
                rows.append(r)
    rows.sort(
        key=lambda r: order_key(r["ts"], r["side"], r["source_file"], r["line_no"])
    )
    by_group: dict[str, list[tuple]] = {}
    for r in rows:
        if r["group_id"]:
            by_group.setdefault(r["group_id"], []).append(tuple(r.get(f) for f in EVENT_FIELDS))
    out = {}
    for g, grows in by_group.items():
        rp = GroupReplay(g)
        rp.feed_rows(grows)
        out[g] = rp.flush(final=True)
    return out


def _short(mid: str | None) -> str | None:
    """consumer-orders-2-5efaf5c0-... -> consumer-orders-2-5efaf5c0"""
    return None if mid is None else "-".join(mid.split("-")[:-4])


def test_rebalances_match_expected(sample):
    got = {
        g: [
            (r.old_generation, r.new_generation, r.cause, r.members_before, r.members_after,
             r.coordinator_broker, r.outcome)
            for r in o.rebalances
        ]
        for g, o in sample.items()
    }  # fmt: skip
    c = "completed"
    assert got == {
        "orders": [
            (0, 1, "new_member", 0, 3, 1, c), (1, 2, "member_leave", 3, 2, 1, c),
            (2, 3, "new_member", 2, 3, 1, c), (3, 4, "member_leave", 3, 2, 1, c),
            (4, 5, "new_member", 2, 3, 1, c), (5, 6, "member_leave", 3, 2, 1, c),
            (6, 7, "new_member", 2, 3, 1, c),
        ],
        "payments": [
            (0, 1, "new_member", 0, 2, 1, c), (1, 2, "poll_timeout_leave", 2, 1, 1, c),
            (2, 3, "new_member", 1, 2, 1, c),
        ],
        "inventory": [(0, 1, "new_member", 0, 3, 1, c), (1, 2, "session_timeout", 3, 2, 1, c)],
        "shipping": [(0, 1, "new_member", 0, 3, 2, c), (1, 2, "new_member", 3, 4, 2, c)],
        "billing": [(0, 1, "new_member", 0, 2, 2, c), (1, 2, "new_member", 2, 3, 3, c)],
    }  # fmt: skip
    assert [a for o in sample.values() for a in o.anomalies] == []
    starts = [r.start_ts for r in sample["orders"].rebalances[1:]]
    assert starts == [_ms(t) for t in ("10:00:00.007", "10:00:35.214", "10:01:30.007", "10:02:05.214",
                                       "10:03:00.007", "10:03:35.214")]  # fmt: skip


def test_culprits_match_expected(sample):
    got = {
        g: [(_short(r.culprit_member_id), r.culprit_group_instance_id) for r in o.rebalances]
        for g, o in sample.items()
    }
    assert got["orders"] == [
        ("consumer-orders-1-8dfcf2fb", None), ("consumer-orders-1-8dfcf2fb", None),
        ("consumer-orders-1-7604744b", None), ("consumer-orders-2-5efaf5c0", None),
        ("consumer-orders-2-ccac78b2", None), ("consumer-orders-3-10674af9", None),
        ("consumer-orders-3-5c1e7cb0", None),
    ]  # fmt: skip
    assert got["payments"] == [
        ("consumer-payments-1-b63c361e", None), ("consumer-payments-1-b63c361e", None),
        ("consumer-payments-1-8bc9b929", None),
    ]  # fmt: skip
    assert got["inventory"] == [
        ("consumer-inventory-1-c52b6a85", None),
        ("consumer-inventory-2-f1c64d81", None),
    ]
    assert got["shipping"] == [
        ("shipping-0-5e887549", "shipping-0"),
        ("shipping-3-d8b07fe1", "shipping-3"),
    ]
    assert got["billing"] == [("consumer-billing-1-938e67e8", None), ("consumer-billing-3-404eb82a", None)]
    # dynamic culprits: the client id is the member id's prefix; static ones have no client lines
    assert [r.culprit_client_id for r in sample["orders"].rebalances[:2]] == ["consumer-orders-1"] * 2
    assert [r.culprit_client_id for r in sample["shipping"].rebalances] == [None, None]


def test_sessions_match_expected(sample):
    got = {
        (g, _short(s.member_id)): (s.end_reason, s.joined_ts, s.left_ts, s.first_generation, s.last_generation,
                                   s.client_id, s.inferred)
        for g, o in sample.items()
        for s in o.sessions
    }  # fmt: skip
    assert all(s.joined_ts is not None for o in sample.values() for s in o.sessions)
    t = _ms
    assert got[("orders", "consumer-orders-1-8dfcf2fb")] == (
        "leave",
        t("09:00:00.108"),
        t("10:00:00.006"),
        1,
        1,
        "consumer-orders-1",
        False,
    )
    assert got[("orders", "consumer-orders-2-5efaf5c0")] == (
        "leave",
        t("09:00:00.511"),
        t("10:01:30.006"),
        1,
        3,
        "consumer-orders-2",
        True,
    )
    assert got[("orders", "consumer-orders-3-10674af9")] == (
        "leave",
        t("09:00:01.204"),
        t("10:03:00.006"),
        1,
        5,
        "consumer-orders-3",
        True,
    )
    assert got[("payments", "consumer-payments-1-b63c361e")][:3] == (
        "poll_timeout_leave",
        t("09:05:00.305"),
        t("11:20:00.420"),
    )
    assert got[("payments", "consumer-payments-2-310872ae")] == (
        "open",
        t("09:05:00.900"),
        None,
        1,
        3,
        "consumer-payments-2",
        True,
    )
    assert got[("inventory", "consumer-inventory-2-f1c64d81")] == (
        "session_timeout",
        t("09:10:00.400"),
        t("13:00:45.003"),
        1,
        1,
        "consumer-inventory-2",
        True,
    )
    assert got[("inventory", "consumer-inventory-3-9d7c4bb2")] == (
        "open",
        t("09:10:00.800"),
        None,
        1,
        2,
        "consumer-inventory-3",
        True,
    )
    shipping = {k[1]: v for k, v in got.items() if k[0] == "shipping"}
    assert shipping["shipping-1-815fd3ba"][:3] == (
        "replaced",
        t("09:00:00.650"),
        t("12:00:20.110"),
    )
    # the static member with client lines gets its client id; the others have no client evidence
    assert {k: v[5] for k, v in shipping.items()} == {
        "shipping-0-5e887549": None,
        "shipping-1-815fd3ba": "consumer-shipping-shipping-1",
        "shipping-1-0973d9ce": "consumer-shipping-shipping-1",
        "shipping-2-d74e61fa": None,
        "shipping-3-d8b07fe1": None,
    }
    assert sum(1 for k in got if k[0] == "orders") == 6
    assert sum(1 for k in got if k[0] == "inventory") == 3
