"""The scenario table: the names and weights the seeded mix draws from, dispatch through the table,
the checks of ``--scenarios``, and the README's generated copy (it cannot drift from the table)."""

from __future__ import annotations

import dataclasses

import pytest

from jobs.simulate.cluster import SimConfig, Simulation
from jobs.simulate.consumer_scenarios import ConsumerScenarios
from jobs.simulate.scenario_docs import BEGIN, END, README, main, render_markdown, splice
from jobs.simulate.scenario_table import CLASSIC, CONSUMER, CONSUMER_SCENARIOS, SCENARIOS, TABLE, Scenario
from jobs.simulate.scenarios import ScenarioDriver


def test_readme_table_is_current():
    text = README.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert splice(text, render_markdown()) == text, "stale: run python -m jobs.simulate.scenario_docs"


def test_weights_in_draw_order():
    """The seeded mix draws in table order: names, order and weights pin the simulator's output."""
    assert [(s.name, s.weight) for s in TABLE if s.protocol == CLASSIC] == [
        ("steady", 18), ("scale_out", 10), ("graceful_leave", 12), ("crash", 12), ("poll_timeout", 8),
        ("rolling_restart", 7), ("flapping", 6), ("join_during_completing", 7), ("failover", 6),
        ("static_restart", 14),
    ]  # fmt: skip
    assert [(s.name, s.weight) for s in TABLE if s.protocol == CONSUMER] == [
        ("steady", 15), ("scale_out", 14), ("graceful_leave", 14), ("crash", 12), ("slow_revocation", 6),
        ("rolling_restart", 8), ("static_restart", 10), ("partitions_added", 8), ("rolling_upgrade", 4),
    ]  # fmt: skip
    assert SCENARIOS == ("steady", "scale_out", "graceful_leave", "crash", "poll_timeout", "rolling_restart",
                         "flapping", "join_during_completing", "failover", "static_restart")  # fmt: skip
    assert CONSUMER_SCENARIOS == ("steady", "scale_out", "graceful_leave", "crash", "slow_revocation",
                                  "rolling_restart", "static_restart", "partitions_added", "rolling_upgrade")  # fmt: skip


def test_each_planner_is_its_drivers_method():
    owner = {CLASSIC: "ScenarioDriver", CONSUMER: "ConsumerScenarios"}
    assert {s.protocol for s in TABLE} == {CLASSIC, CONSUMER}
    assert [s.planner.__qualname__ for s in TABLE] == [f"{owner[s.protocol]}.{s.name}" for s in TABLE]
    assert len({(s.protocol, s.name) for s in TABLE}) == len(TABLE) == 19
    assert all(s.description and "|" not in s.description and "\n" not in s.description for s in TABLE)


def test_scenario_is_a_frozen_slotted_record():
    s = TABLE[0]
    assert not hasattr(s, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.weight = 1  # type: ignore[misc]


def test_render_markdown_rows():
    lines = render_markdown().splitlines()
    assert lines[:2] == ["| protocol | scenario | weight | what happens (expected truth) |", "|---|---|---:|---|"]
    assert len(lines) == 2 + len(TABLE)
    assert lines[2] == "| classic | `steady` | 18 (18 %) | nothing (no rebalance) |"
    assert lines[-1].startswith("| consumer | `rolling_upgrade` | 4 (4 %) | a new application version ")
    assert "| consumer | `steady` | 15 (16 %) | nothing (no rebalance) |" in lines  # 15 / 91


def test_splice_and_main_rewrite_a_stale_copy(tmp_path, capsys):
    doc = tmp_path / "README.md"
    doc.write_text(f"intro\n{BEGIN}\n| stale |\n{END}\nrest\n", encoding="utf-8")
    assert main([str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == f"intro\n{BEGIN}\n{render_markdown()}{END}\nrest\n"
    assert main([str(doc)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{doc}: scenario table rewritten", f"{doc}: scenario table already current"
    ]
    with pytest.raises(ValueError, match="markers"):
        splice("no markers here", render_markdown())


def _sim(**kw) -> Simulation:
    return Simulation(SimConfig(out=None, groups=2, members=1, hours=0.1, **kw))


def test_the_driver_dispatches_through_the_table():
    calls = []

    def planner(driver, grp) -> int:
        calls.append((driver, grp.name))
        return 5_000

    sim = _sim()
    driver = ScenarioDriver(sim, (Scenario("probe", CLASSIC, 1, planner, "records the call"),))
    grp = sim.groups[0]
    driver.incident(grp)
    assert calls == [(driver, grp.name)]
    assert grp.scenario == "probe"


def test_scenarios_option_is_checked_against_the_table():
    with pytest.raises(ValueError, match=r"unknown scenario\(s\) \['slow_revocation'\]"):
        ScenarioDriver(_sim(scenarios=("crash", "slow_revocation")), TABLE)
    with pytest.raises(ValueError, match=r"unknown scenario\(s\) \['nope'\]"):
        ScenarioDriver(_sim(scenarios=("nope",), protocol="mixed", dialect="java4"), TABLE)
    mixed = _sim(scenarios=("crash", "slow_revocation"), protocol="mixed", dialect="java4")
    assert ScenarioDriver(mixed, TABLE).names == ["crash"]
    only_consumer = _sim(scenarios=("slow_revocation",), protocol="mixed", dialect="java4")
    assert ScenarioDriver(only_consumer, TABLE).names == ["steady"]  # classic groups stay steady
    consumer_rows = [s for s in TABLE if s.protocol == CONSUMER]
    assert ConsumerScenarios(mixed.consumer, consumer_rows).names == ["crash", "slow_revocation"]
    assert ConsumerScenarios(_sim(scenarios=("flapping",), protocol="consumer", dialect="java4").consumer,
                             consumer_rows).names is None  # fmt: skip
