"""Context attribution: recognised broker lines that name no group take it from their context.

Kafka logs these lines while handling one group's request, next to a line that names the group
(same broker file; for the Java coordinator, same ``partition=P`` prefix). Golden cases for every
group-less broker wording: attributed by member / instance id, by the 1000 ms window, and the
unattributable case (quarantine ``group_unknown``).
"""

from __future__ import annotations

import pytest

from jobs.ingest.model import QUARANTINE_REASONS
from tests.ingest.helpers import check_invariant, parse_text

GC = "kafka.coordinator.group.GroupCoordinator"
GM = "kafka.coordinator.group.GroupMetadata"
JGMM = "org.apache.kafka.coordinator.group.GroupMetadataManager"
JCG = "org.apache.kafka.coordinator.group.classic.ClassicGroup"
S = "[GroupCoordinator 1]: "


def J(p: int) -> str:
    return f"[GroupCoordinator id=2 topic=__consumer_offsets partition={p}] "


def line(ts: str, msg: str, logger: str, level: str = "INFO") -> str:
    return f"[2024-05-14 {ts}] {level} {msg} ({logger})"


# group-less wordings (message after any prefix) and the fields they keep
NO_REBALANCE_J = "Static member which joins during Stable stage and doesn't affect the selected protocol will not trigger a rebalance."
NO_REBALANCE_27 = "Static member which joins during Stable stage and doesn't affect selectProtocol will not trigger rebalance."
NO_REBALANCE_23 = "Static member joins during Stable stage will not trigger rebalance."
FENCED_J = "Request memberId=m5 for static member with groupInstanceId=i1 is fenced by existing memberId=m6 during operation heartbeat"
FENCED_30 = "Request memberId=m5 for static member with groupInstanceId=i1 is fenced by current memberId=m6 during operation sync-group"
FENCED_25 = "given member.id m5 is identified as a known static member i1, but not matching the expected member.id m6 during heartbeat, will respond with instance fenced error"
FENCED_23 = (
    "given member.id m5 is identified as a known static member i1,but not matching the expected member.id m6"
)
META = (
    "MemberMetadata(memberId=m2, groupInstanceId=None, clientId=c2, clientHost=/10.0.0.2, sessionTimeoutMs=45000, "
    "rebalanceTimeoutMs=300000, supportedProtocols=List(range))"
)
LEADER_23 = f"Group leader [member.id: m1, group.instance.id: None] failed to join before rebalance timeout, while new leader {META} was elected."
LEADER_J = "Group leader [memberId: m1, groupInstanceId: null] failed to join before the rebalance timeout. Member m2 was elected as the new leader."
LEADER_GONE = "Group leader [member.id: m1, group.instance.id: Some(i1)] failed to join before rebalance timeout, and the group couldn't proceed to next generationbecause no member joined."
REPLACED_23 = "Static member Some(i1) with unknown member id rejoins, assigning new member id m6, while old member m5 will be removed."


def _parse(lines: list[str]):
    events, quarantine, audit = parse_text("\n".join(lines) + "\n", "server.log")
    check_invariant(audit)
    ev = {e["line_no"]: e for e in events.to_pylist()}
    q = {r["line_no"]: r for r in quarantine.to_pylist()}
    return ev, q, audit


def test_sample_shipping_line_is_attributed() -> None:
    """The bundled prod-us broker-2 sequence: the static line 1 ms after the replacement line."""
    ev, q, audit = _parse([
        line("12:00:20,110", J(8) + "Static member with groupInstanceId=shipping-1 and unknown member id joins group shipping in "
             "Stable state. Replacing previously mapped member consumer-shipping-1-aaa with this groupInstanceId.", JGMM),
        line("12:00:20,111", J(8) + NO_REBALANCE_J, JGMM),
    ])  # fmt: skip
    assert q == {}
    e = ev[2]
    assert (e["kind"], e["group_id"], e["dialect"], e["state"]) == (
        "static_member_no_rebalance", "shipping", "broker.static_no_rebalance", "Stable",
    )  # fmt: skip
    assert (e["coordinator"], e["offsets_partition"]) == (2, 8)
    assert audit["events"] == 2 and audit["quarantined"] == 0


# (wording, logger, prefix, expected fields) of every group-less broker dialect
CASES = [
    ("4.x", NO_REBALANCE_J, JGMM, "java", {"kind": "static_member_no_rebalance"}),
    ("2.7", NO_REBALANCE_27, GC, "scala", {"kind": "static_member_no_rebalance"}),
    ("2.3", NO_REBALANCE_23, GC, "scala", {"kind": "static_member_no_rebalance", "state": "Stable"}),
    ("4.x", FENCED_J, JCG, "java", {"kind": "static_member_fenced", "member_id": "m5", "old_member_id": "m6",
                                    "group_instance_id": "i1", "operation": "heartbeat"}),
    ("3.0", FENCED_30, GC, "scala", {"kind": "static_member_fenced", "member_id": "m5", "old_member_id": "m6",
                                     "operation": "sync-group"}),
    ("2.5", FENCED_25, GM, "none", {"kind": "static_member_fenced", "member_id": "m5", "old_member_id": "m6",
                                    "group_instance_id": "i1", "operation": "heartbeat"}),
    ("2.3", FENCED_23, GM, "none", {"kind": "static_member_fenced", "member_id": "m5", "old_member_id": "m6"}),
    ("2.3", LEADER_23, GM, "none", {"kind": "leader_reelected", "member_id": "m2", "old_member_id": "m1"}),
    ("4.x", LEADER_J, JCG, "java", {"kind": "leader_reelected", "member_id": "m2", "old_member_id": "m1"}),
    ("2.3", LEADER_GONE, GM, "none", {"kind": "no_member_rejoined", "old_member_id": "m1", "group_instance_id": "i1"}),
    ("2.3", REPLACED_23, GC, "scala", {"kind": "static_member_replaced", "member_id": "m6", "old_member_id": "m5",
                                       "group_instance_id": "i1"}),
]  # fmt: skip
IDS = [f"{c[4]['kind']}-{c[0]}-{i}" for i, c in enumerate(CASES)]


def _pfx(style: str) -> str:
    return {"java": J(8), "scala": S, "none": ""}[style]


def _group_line(style: str, ts: str, group: str, partition: int = 8) -> str:
    pfx = {"java": J(partition), "scala": S, "none": S}[style]
    return line(ts, pfx + f"Preparing to rebalance group {group} in state PreparingRebalance with old generation 3 "
                f"(reason: Leader x re-joining group during Stable)", GC if style != "java" else JGMM)  # fmt: skip


@pytest.mark.parametrize(("version", "msg", "logger", "style", "want"), CASES, ids=IDS)
def test_attributed_by_time_window(version: str, msg: str, logger: str, style: str, want: dict) -> None:
    """A group line 400 ms before (no id in common) gives the group."""
    ev, q, _ = _parse([
        _group_line(style, "10:00:00,000", "other"),
        _group_line(style, "10:00:05,000", "orders"),
        line("10:00:05,400", _pfx(style) + msg, logger),
    ])  # fmt: skip
    assert q == {}
    e = ev[3]
    assert e["group_id"] == "orders"
    for k, v in want.items():
        assert e[k] == v, k


@pytest.mark.parametrize(("version", "msg", "logger", "style", "want"), CASES, ids=IDS)
def test_unattributable_is_group_unknown(version: str, msg: str, logger: str, style: str, want: dict) -> None:
    """The nearest group line is 1001 ms before and names none of its ids; a later line never counts."""
    ev, q, audit = _parse([
        _group_line(style, "10:00:05,000", "orders"),
        line("10:00:06,001", _pfx(style) + msg, logger),
        _group_line(style, "10:00:06,002", "payments"),
    ])  # fmt: skip
    assert sorted(ev) == [1, 3]
    r = q[2]
    assert r["reason"] == "group_unknown"
    assert r["group_id"] is None
    assert r["detail"].startswith("recognised (broker.")
    assert r["raw"].endswith(f"({logger})")
    assert audit["quarantined"] == 1


def test_group_unknown_is_a_documented_reason() -> None:
    import jobs.ingest.parse as P

    assert "group_unknown" in QUARANTINE_REASONS
    assert "``group_unknown``" in (P.__doc__ or "")


def test_first_line_of_file_is_group_unknown() -> None:
    _, q, _ = _parse([line("10:00:00,000", S + NO_REBALANCE_23, GC)])
    assert q[1]["reason"] == "group_unknown"


@pytest.mark.parametrize("msg", [FENCED_30, FENCED_25, FENCED_23], ids=["3.0", "2.5", "2.3"])
def test_fenced_attributed_by_member_id_over_nearer_group_line(msg: str) -> None:
    """m6 joined group ``orders`` a minute ago; ``payments`` logged 10 ms before: the id wins."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Static member with groupInstanceId=i1 and unknown member id joins group orders in Stable "
             "state. Replacing previously mapped member m5 with this groupInstanceId.", GC),
        line("10:00:00,000", S + "Static member which joins during Stable stage and doesn't affect selectProtocol will not "
             "trigger rebalance.", GC),
        _group_line("scala", "10:01:00,000", "payments"),
        line("10:01:00,010", msg, GM if "given" in msg else GC, "ERROR" if "given" in msg else "INFO"),
    ])  # fmt: skip
    assert q == {}
    assert [ev[i]["group_id"] for i in (1, 2, 3, 4)] == ["orders", "orders", "payments", "orders"]


def test_member_id_preferred_over_instance_id() -> None:
    """Instance id ``i1`` is also used by a consumer of ``payments`` (same pod name); member id m5
    belongs to ``orders``."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Member m5 in group orders has failed, removing it from the group", GC),
        line("10:00:30,000", S + "Static member with groupInstanceId=i1 and unknown member id joins group payments in Stable "
             "state. Created a new member id p9 for this member and add to the group.", GC),
        line("10:01:00,000", FENCED_25, GM, "ERROR"),
    ])  # fmt: skip
    assert q == {}
    assert ev[3]["group_id"] == "orders"


def test_instance_id_attribution() -> None:
    """No line names m5/m6, one names instance i1 (two minutes before)."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Static member with groupInstanceId=i1 and unknown member id joins group orders in Empty "
             "state. Created a new member id m1 for this member and add to the group.", GC),
        _group_line("scala", "10:02:00,000", "payments"),
        line("10:02:05,000", FENCED_25, GM, "ERROR"),
    ])  # fmt: skip
    assert q == {}
    assert ev[3]["group_id"] == "orders"


def test_member_id_mentioned_in_message_text() -> None:
    """The 2.3 replacement line: old member m5 is only mentioned in an earlier rebalance reason."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Preparing to rebalance group orders in state PreparingRebalance with old generation 0 "
             "(__consumer_offsets-3) (reason: Adding new member m5 with group instanceid Some(i1))", GC),
        _group_line("scala", "10:05:00,000", "payments"),
        line("10:05:03,000", S + REPLACED_23, GC),
    ])  # fmt: skip
    assert q == {}
    assert ev[3]["group_id"] == "orders"
    assert (ev[3]["member_id"], ev[3]["old_member_id"]) == ("m6", "m5")


def test_ids_match_whole_words_only() -> None:
    """``m1`` is not mentioned by a line naming ``m10`` or ``consumer-m1``."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Member m10 in group orders has failed, removing it from the group", GC),
        line("10:00:00,000", S + "Member consumer-m1 in group orders has failed, removing it from the group", GC),
        line("10:00:05,000", LEADER_23, GM),
    ])  # fmt: skip
    assert 3 not in ev
    assert q[3]["reason"] == "group_unknown"


def test_leader_reelection_attributed_by_old_leader_id() -> None:
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Member m1 in group orders has failed, removing it from the group", GC),
        _group_line("scala", "10:04:00,000", "payments"),
        line("10:05:00,000", LEADER_23, GM),
        line("10:05:00,000", LEADER_GONE, GM),
    ])  # fmt: skip
    assert q == {}
    assert (ev[3]["group_id"], ev[4]["group_id"]) == ("orders", "orders")


def test_java_same_partition_only() -> None:
    """Java lines: the nearest group line of *another* coordinator partition does not count."""
    ev, q, _ = _parse([
        _group_line("java", "10:00:00,000", "shipping", partition=8),
        _group_line("java", "10:00:00,200", "billing", partition=9),
        line("10:00:00,300", J(8) + NO_REBALANCE_J, JGMM),
        line("10:00:00,300", J(9) + LEADER_J, JCG),
        line("10:00:00,300", J(7) + NO_REBALANCE_J, JGMM),
    ])  # fmt: skip
    assert (ev[3]["group_id"], ev[4]["group_id"]) == ("shipping", "billing")
    assert q[5]["reason"] == "group_unknown"


def test_attributed_line_passes_its_ids_on() -> None:
    """Repeated fenced lines minutes apart keep the group found for the first one."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Static member with groupInstanceId=i1 and unknown member id joins group orders in Stable "
             "state. Replacing previously mapped member m5 with this groupInstanceId.", GC),
        line("10:00:00,100", FENCED_30.replace("m6", "m7"), GC),  # m5 → orders; now m7 is known too
        _group_line("scala", "10:09:00,000", "payments"),
        line("10:09:30,000", FENCED_30.replace("m5", "m7").replace("m6", "m8"), GC),
    ])  # fmt: skip
    assert q == {}
    assert [ev[i]["group_id"] for i in (2, 4)] == ["orders", "orders"]


def test_no_timestamp_line_keeps_its_place_and_is_attributed_by_id() -> None:
    """A line without a timestamp keeps its place in the file: it takes the previous line's time
    (flagged ``ts_inferred``) and its group from the line that named its member."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Member m1 in group orders has failed, removing it from the group", GC),
        f"INFO:kafka.coordinator.group.GroupMetadata:{LEADER_23}",
    ])  # fmt: skip
    assert q == {}
    assert ev[2]["group_id"] == "orders" and ev[2]["ts_inferred"] is True
    assert ev[2]["ts_ms"] == ev[1]["ts_ms"] and ev[1]["ts_inferred"] is False


@pytest.mark.parametrize(
    "msg",
    [
        FENCED_23,
        FENCED_25.replace("during heartbeat", "during txn-offset-commit"),
        S + FENCED_30.replace("sync-group", "offset-commit"),
    ],
    ids=["2.3", "2.5-commit", "3.0-commit"],
)
def test_fenced_lines_pass_the_prefilter(msg: str) -> None:
    """Fenced lines of commit requests mention neither a group nor a heartbeat: still candidates."""
    ev, q, _ = _parse([
        line("10:00:00,000", S + "Member m5 in group orders has failed, removing it from the group", GC),
        line("10:00:09,000", msg, GM, "ERROR"),
    ])  # fmt: skip
    assert q == {}
    assert (ev[2]["kind"], ev[2]["group_id"]) == ("static_member_fenced", "orders")


def test_many_ids_in_one_file() -> None:
    """Hundreds of fenced lines (ids beyond one RE2 alternation chunk), each attributed by its id."""
    lines = []
    for k in range(300):
        g = "orders" if k % 2 else "payments"
        lines.append(
            line("10:00:00,000", S + f"Member m{k}x in group {g} has failed, removing it from the group", GC)
        )
    for k in range(300):
        lines.append(line("10:30:00,000", S + FENCED_30.replace("m6", f"n{k}").replace("m5", f"m{k}x"), GC))
    ev, q, _ = _parse(lines)
    assert q == {}
    got = [ev[301 + k]["group_id"] for k in range(300)]
    assert got == ["orders" if k % 2 else "payments" for k in range(300)]
