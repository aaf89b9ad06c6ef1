"""Consumer-protocol (KIP-848) simulation on the core's coordinator: the simulator's handle on it,
determinism, truth invariants per scenario, the classic -> consumer conversion, and the exact
wordings of the lines rendered from the coordinator's log entries."""

from __future__ import annotations

import datetime as dt
import glob
import hashlib
import json
import os
import re

import pytest

from coordinator_core.consumer.protocol import ConsumerLog
from jobs.simulate import SimConfig, simulate
from jobs.simulate import render_consumer as rcon
from jobs.simulate.__main__ import parse_args
from jobs.simulate.consumer_core import GroupModel

STATE_RE = re.compile(
    r"^\[(?P<ts>[^\]]+)\] DEBUG \[GroupCoordinator id=\d+ topic=__consumer_offsets partition=\d+\] "
    r"\[GroupId (?P<g>\S+)\] Member (?P<m>\S+) new assignment state: epoch=(?P<e>-?\d+), "
    r"previousEpoch=-?\d+, state=(?P<st>\w+), assignedPartitions=\[[^\]]*\] and revokedPartitions=\[[^\]]*\]\. "
    r"\(org\.apache\.kafka\.coordinator\.group\.GroupMetadataManager\)$"
)


def run(tmp_path, name: str, **kw) -> str:
    out = str(tmp_path / name)
    base = dict(out=out, groups=2, members=3, hours=0.5, seed=5, protocol="consumer", noise_ratio=0.0,
                incident_gap_ms=180_000, broker_debug=True, dialect="java4")  # fmt: skip
    base.update(kw)
    simulate(SimConfig(**base))
    return out


def truth(out: str, name: str = "rebalances") -> list[dict]:
    with open(os.path.join(out, "truth", f"{name}.jsonl"), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def broker_lines(out: str) -> list[str]:
    lines: list[str] = []
    for path in sorted(glob.glob(os.path.join(out, "broker-*", "server.log"))):
        with open(path, encoding="utf-8") as fh:
            lines += fh.read().splitlines()
    return lines


def consumer_rebs(out: str) -> list[dict]:
    return [r for r in truth(out) if r.get("protocol_type") == "consumer"]


# ---------------------------------------------------------------------- the core's group, as the simulator reads it
def test_group_model_join_revoke_release():
    g = GroupModel("g", {"t": 4}, 45_000, 300_000)
    r, out = g.heartbeat(0, "a", 0, None, "c1", set(), ("t",))
    assert out.kinds() == ["joined", "subscription_changed", "bumped", "target", "assignment_state"]
    assert (r.member_epoch, r.assigned, g.group_epoch) == (1, ("t-0", "t-1", "t-2", "t-3"), 1)
    r, _ = g.heartbeat(10, "b", 0, None, "c2", set(), ("t",))
    assert (r.member_epoch, r.assigned, g.group_epoch) == (2, (), 2)
    r, _ = g.heartbeat(20, "a", 1, None, "c1", {"t-0", "t-1", "t-2", "t-3"}, ("t",))
    assert (r.member_epoch, r.assigned, g.group.members["a"].state) == (1, ("t-0", "t-1"), "UNREVOKED_PARTITIONS")
    assert g.coord.timer_deadline("rebalance", "g", "a") == 20 + 300_000
    g.heartbeat(30, "a", 1, None, "c1", {"t-0", "t-1"}, ("t",))
    assert not g.reconciled() and g.coord.timer_deadline("rebalance", "g", "a") is None
    r, _ = g.heartbeat(40, "b", 2, None, "c2", set(), ("t",))
    assert (r.assigned, g.reconciled(), g.group.state) == (("t-2", "t-3"), True, "Stable")


def test_group_model_static_temporary_leave_replacement_and_timeouts():
    g = GroupModel("g", {"t": 2}, 45_000, 300_000)
    g.heartbeat(0, "a", 0, "i-0", "c1", set(), ("t",))
    _, out = g.heartbeat(100, "a", -2, "i-0", "c1", set(), ("t",))
    assert out.kinds() == ["static_temp_left"] and g.group_epoch == 1 and g.present() == []
    r, out = g.heartbeat(5_000, "a2", 0, "i-0", "c1", set(), ("t",))
    assert out.kinds()[0] == "static_replaced" and "bumped" not in out.kinds()
    assert (r.member_epoch, r.assigned, g.group_epoch, g.present()) == (1, ("t-0", "t-1"), 1, ["a2"])
    out = g.advance_to(5_000 + 45_000)
    assert [(x.kind, x.level, x.cause) for x in out.logs] == [
        ("fenced_session", "INFO", None), ("bumped", "NONE", "session_timeout")]  # fmt: skip


# ---------------------------------------------------------------------- the simulation
def test_same_seed_same_bytes(tmp_path):
    digests = []
    for name in ("a", "b"):
        out = run(tmp_path, name, protocol="mixed", consumer_flavour="4.1", groups=3)
        h = hashlib.sha256()
        for path in sorted(glob.glob(os.path.join(out, "**", "*"), recursive=True)):
            if os.path.isfile(path) and not path.endswith("summary.json"):
                h.update(os.path.relpath(path, out).encode())
                with open(path, "rb") as fh:
                    h.update(fh.read())
        digests.append(h.hexdigest())
    assert digests[0] == digests[1]
    other = run(tmp_path, "c", protocol="mixed", consumer_flavour="4.1", groups=3, seed=6)
    assert truth(other) != truth(str(tmp_path / "a"))


def check_invariants(out: str) -> list[dict]:
    rebs = consumer_rebs(out)
    states: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for line in broker_lines(out):
        m = STATE_RE.match(line)
        if m:
            states.setdefault((m["g"], m["ts"]), []).append((int(m["e"]), m["st"]))
    last: dict[str, int] = {}
    for r in rebs:
        assert r["old_generation"] < r["new_generation"]
        assert r["new_generation"] - r["old_generation"] == r["join_rounds"] == len(r["round_causes"])
        assert r["old_generation"] >= last.get(r["group_id"], 0)
        last[r["group_id"]] = r["new_generation"]
        assert r["cause"] == r["round_causes"][0]
        assert (r["culprit_member_id"] is None) == (r["cause"] == "metadata_change")
        if r["outcome"] == "completed":
            assert r["duration_ms"] == r["end_ms"] - r["start_ms"] >= 0
            assert r["partitions_revoked"] == 0 or r["paused_partition_ms"] > 0
    return rebs


@pytest.mark.parametrize(
    ("scenario", "static", "causes"),
    [
        ("scale_out", 0.0, {"new_member", "member_leave"}),
        ("graceful_leave", 0.0, {"member_leave", "new_member"}),
        ("crash", 0.0, {"session_timeout", "new_member"}),
        ("rolling_restart", 0.0, {"member_leave", "new_member"}),
        ("partitions_added", 0.0, {"metadata_change"}),
        ("graceful_leave", 1.0, {"session_timeout", "new_member"}),
        ("rolling_upgrade", 1.0, {"static_member"}),
        ("rolling_upgrade", 0.0, {"member_leave", "new_member"}),
    ],
)
def test_causes_per_scenario(tmp_path, scenario, static, causes):
    out = run(tmp_path, scenario, scenarios=(scenario,), static_share=static)
    rebs = check_invariants(out)
    got = {r["cause"] for r in rebs if r["scenario"] == scenario}
    assert got == causes
    assert all(r["outcome"] in ("completed", "open") for r in rebs)
    if scenario == "rolling_upgrade" and static:
        replaced = {
            m[2]: m[1]
            for x in broker_lines(out)
            if (
                m := re.search(
                    r"\[GroupId (\S+)\] Static member with instance id \S+ re-joins .* new member (\S+) to", x
                )
            )
        }
        mine = [r for r in rebs if r["scenario"] == scenario]
        assert all(replaced.get(r["culprit_member_id"]) == r["group_id"] for r in mine)
    if scenario == "partitions_added":
        mine = [r for r in rebs if r["scenario"] == scenario]
        assert all(r["culprit_member_id"] is None and r["partitions_assigned"] > 0 for r in mine)
        assert all(r["partitions_revoked"] == 0 for r in mine)


def test_every_rebalance_ends_when_all_members_reach_the_epoch(tmp_path):
    out = run(tmp_path, "mix", hours=1.0, seed=11, groups=3, static_share=0.5)
    rebs = check_invariants(out)
    assert len(rebs) >= 10
    for line in broker_lines(out):
        m = STATE_RE.match(line)
        assert m is None or m["st"] in ("STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS")
    ended = [r for r in rebs if r["outcome"] == "completed"]
    assert ended
    ts_fmt = {}
    for line in broker_lines(out):
        m = STATE_RE.match(line)
        if m:
            ts_fmt.setdefault(m["g"], []).append((m["ts"], int(m["e"]), m["st"]))
    for r in ended:
        ts = (
            dt.datetime.fromtimestamp(r["end_ms"] / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M:%S,")
            + f"{r['end_ms'] % 1000:03d}"
        )
        closing = [(e, st) for t, e, st in ts_fmt[r["group_id"]] if t == ts]
        assert (r["new_generation"], "STABLE") in closing, r


def test_static_rolling_restart_makes_no_rebalance(tmp_path):
    out = run(tmp_path, "static", scenarios=("rolling_restart", "static_restart"), static_share=1.0)
    rebs = check_invariants(out)
    assert [r for r in rebs if r["scenario"] in ("rolling_restart", "static_restart")] == []
    lines = broker_lines(out)
    assert sum("temporarily left the consumer group." in x for x in lines) >= 4
    assert (
        sum(
            "re-joins the consumer group using the consumer protocol. Created a new member" in x
            for x in lines
        )
        >= 4
    )


def test_slow_revocation_is_fenced_by_the_rebalance_timeout(tmp_path):
    out = run(tmp_path, "slow", scenarios=("slow_revocation",), static_share=0.0)
    rebs = check_invariants(out)
    mine = [r for r in rebs if r["scenario"] == "slow_revocation"]
    fenced = [r for r in mine if "rebalance_timeout" in r["round_causes"]]
    assert fenced and all(r["cause"] == "new_member" for r in fenced)
    assert all(r["duration_ms"] is None or r["duration_ms"] >= 300_000 for r in fenced)
    lines = [x for x in broker_lines(out) if "failed to transition from epoch" in x]
    assert len(lines) == sum(r["round_causes"].count("rebalance_timeout") for r in rebs)
    assert all(
        x.endswith("within 300000ms. (org.apache.kafka.coordinator.group.GroupMetadataManager)")
        for x in lines
    )


def test_mixed_run_converts_one_group(tmp_path):
    out = run(tmp_path, "mixed41", protocol="mixed", consumer_flavour="4.1", groups=4, hours=1.0, seed=2)
    rebs = truth(out)
    by_group: dict[str, set[str]] = {}
    for r in rebs:
        by_group.setdefault(r["group_id"], set()).add(r.get("protocol_type", "classic"))
    assert sorted(map(sorted, by_group.values())) == [
        ["classic"],
        ["classic", "consumer"],
        ["consumer"],
        ["consumer"],
    ]
    converted = next(g for g, p in by_group.items() if len(p) == 2)
    classic = [r for r in rebs if r["group_id"] == converted and r.get("protocol_type") != "consumer"]
    conv = [r for r in rebs if r["group_id"] == converted and r.get("scenario") == "conversion"]
    assert conv[0]["cause"] == "new_member" and conv[0]["old_generation"] == classic[-1]["new_generation"]
    assert all(r["start_ms"] > classic[-1]["end_ms"] for r in conv)
    lines = broker_lines(out)
    conv_lines = [x for x in lines if "Converted the classic group to a consumer group." in x]
    assert len(conv_lines) == 1 and f"[GroupId {converted}] Converted" in conv_lines[0]
    assert any(re.search(r"Bumped group epoch to \d+ with metadata hash \d+\. \(", x) for x in lines)
    out40 = run(tmp_path, "mixed40", protocol="mixed", consumer_flavour="4.0", groups=4, hours=1.0, seed=2,
                broker_debug=False)  # fmt: skip
    lines40 = broker_lines(out40)
    assert not any("Converted the classic" in x or "metadata hash" in x for x in lines40)
    assert any(re.search(r"\] Bumped group epoch to \d+\. \(", x) for x in lines40)
    assert not any(" DEBUG " in x for x in lines40)


# ---------------------------------------------------------------------- wordings
PRE = "[GroupCoordinator id=2 topic=__consumer_offsets partition=7] [GroupId g] "
GMM = " (org.apache.kafka.coordinator.group.GroupMetadataManager)"


def L(kind, member_id=None, instance_id=None, **kw):  # noqa: N802
    return ConsumerLog(kind, 0, "g", member_id, instance_id, **kw)


@pytest.mark.parametrize(
    ("log", "flavour", "text"),
    [
        (L("joined", "m1"), "4.0", "Member m1 joins the consumer group using the consumer protocol."),
        (L("static_joined", "m1", "i1"), "4.0",
         "Static member m1 with instance id i1 joins the consumer group using the consumer protocol."),
        (L("static_replaced", "m2", "i1", old_member_id="m1"), "4.1",
         "Static member with instance id i1 re-joins the consumer group using the consumer protocol. Created a new member m2 to replace the existing member m1."),
        (L("bumped", epoch=7, metadata_hash=2421248355301747518), "4.0", "Bumped group epoch to 7."),
        (L("bumped", epoch=7, metadata_hash=2421248355301747518), "4.1",
         "Bumped group epoch to 7 with metadata hash 2421248355301747518."),
        (L("target", epoch=7, took_ms=3, assignor="uniform"), "4.0",
         "Computed a new target assignment for epoch 7 with 'uniform' assignor in 3ms."),
        (L("assignment_state", "m1", epoch=7, previous_epoch=6, state="STABLE", assigned={"t": frozenset({0, 1})},
           revoked={}, level="DEBUG"),
         "4.0", "Member m1 new assignment state: epoch=7, previousEpoch=6, state=STABLE, assignedPartitions=[t-0, t-1] and revokedPartitions=[]."),
        (L("left", "m1"), "4.0", "Member m1 left the consumer group."),
        (L("static_temp_left", "m1", "i1"), "4.0",
         "Static Member m1 with instance id i1 temporarily left the consumer group."),
        (L("static_left", "m1", "i1"), "4.0", "Static Member m1 with instance id i1 left the consumer group."),
        (L("fenced_session", "m1"), "4.0",
         "Member m1 fenced from the group because the member session expired.."),
        (L("fenced_rebalance", "m1", epoch=6, took_ms=300000), "4.0",
         "Member m1 fenced from the group because it failed to transition from epoch 6 within 300000ms."),
        (L("converted"), "4.1", "Converted the classic group to a consumer group."),
    ],
)  # fmt: skip
def test_broker_wordings(log, flavour, text):
    level = "DEBUG" if log.kind == "assignment_state" else "INFO"
    got = rcon.ConsumerBrokerRenderer(flavour).render(log, "g", 2, 7)
    assert got == [(level, rcon.J_GMM, PRE + text)]


def test_unlogged_bump_subscription_and_40_conversion_render_nothing():
    r40 = rcon.ConsumerBrokerRenderer("4.0")
    assert r40.render(L("bumped", epoch=3, level="NONE"), "g", 1, 1) == []
    assert r40.render(L("subscription_changed", "m", level="DEBUG"), "g", 1, 1) == []
    assert r40.render(L("converted"), "g", 1, 1) == []
    with pytest.raises(ValueError):
        rcon.ConsumerBrokerRenderer("3.6")


def test_client_wordings():
    assert (
        rcon.transitioned("m", 6, "STABLE", "RECONCILING")
        == "Member m with epoch 6 transitioned from STABLE to RECONCILING."
    )
    assert rcon.reconciling(3, "m", ["t-0", "t-1"], ["t-0", "t-1", "t-2"], [], ["t-2"]) == (
        "Reconciling assignment with local epoch 3\n"
        "\tMember:                                    m\n"
        "\tAssigned partitions:                       [t-0, t-1]\n"
        "\tCurrent owned partitions:                  [t-0, t-1, t-2]\n"
        "\tAdded partitions (assigned - owned):       []\n"
        "\tRevoked partitions (owned - assigned):     [t-2]\n"
    )
    assert rcon.revoking(["t-2"]) == "Revoking previously assigned partitions t-2"
    assert rcon.client_prefix("c", "g") == "[Consumer clientId=c, groupId=g] "


def test_rendered_files_use_only_known_wordings(tmp_path):
    out = run(
        tmp_path, "words", protocol="consumer", consumer_flavour="4.1", hours=1.0, seed=4, static_share=0.5
    )
    known = [
        r"Member \S+ joins the consumer group using the consumer protocol\.",
        r"Static member \S+ with instance id \S+ joins the consumer group using the consumer protocol\.",
        r"Static member with instance id \S+ re-joins the consumer group using the consumer protocol\. Created a new member \S+ to replace the existing member \S+\.",
        r"Bumped group epoch to \d+ with metadata hash \d+\.",
        r"Computed a new target assignment for epoch \d+ with 'uniform' assignor in \d+ms\.",
        r"Member \S+ new assignment state: epoch=\d+, previousEpoch=-?\d+, state=(STABLE|UNREVOKED_PARTITIONS|UNRELEASED_PARTITIONS), assignedPartitions=\[[^\]]*\] and revokedPartitions=\[[^\]]*\]\.",
        r"Member \S+ left the consumer group\.",
        r"Static Member \S+ with instance id \S+ (temporarily )?left the consumer group\.",
        r"Member \S+ fenced from the group because (the member session expired\.\.|it failed to transition from epoch \d+ within 300000ms\.)",
    ]  # fmt: skip
    rx = re.compile(
        r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] (INFO|DEBUG) \[GroupCoordinator id=\d+ topic=__consumer_offsets "
        r"partition=\d+\] \[GroupId \S+\] ("
        + "|".join(known)
        + r") \(org\.apache\.kafka\.coordinator\.group\.GroupMetadataManager\)$"
    )
    lines = [x for x in broker_lines(out) if "[GroupId " in x]  # not the periodic offsets cleanup
    assert lines and all(rx.match(x) for x in lines), [x for x in lines if not rx.match(x)][:3]
    states = {
        "UNSUBSCRIBED",
        "JOINING",
        "RECONCILING",
        "ACKNOWLEDGING",
        "STABLE",
        "FENCED",
        "PREPARE_LEAVING",
        "LEAVING",
    }
    tr = re.compile(r"Member \S+ with epoch (-?\d+) transitioned from (\w+) to (\w+)\. \(")
    n = 0
    for path in glob.glob(os.path.join(out, "clients", "*", "*.log")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                m = tr.search(line)
                if m:
                    n += 1
                    assert {m[2], m[3]} <= states
                elif line.startswith("\t"):
                    assert re.match(
                        r"\t(Member|Assigned partitions|Current owned partitions|Added partitions \(assigned - owned\)|Revoked partitions \(owned - assigned\)):\s+\S",
                        line,
                    )
    assert n > 20


def test_cli_protocol_options():
    cfg = parse_args(["--out", "x", "--protocol", "mixed", "--consumer-flavour", "4.1", "--broker-debug"])
    assert (cfg.protocol, cfg.consumer_flavour, cfg.broker_debug) == ("mixed", "4.1", True)
    assert (parse_args(["--out", "x"]).protocol, parse_args(["--out", "x"]).dialect) == ("classic", "scala3")
    assert parse_args(["--out", "x", "--protocol", "consumer"]).dialect == "java4"
    with pytest.raises(SystemExit):
        parse_args(["--out", "x", "--protocol", "share"])
