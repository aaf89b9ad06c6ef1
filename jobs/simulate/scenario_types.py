"""The record of one simulator scenario (:class:`Scenario`), below the planners that the table
(:mod:`jobs.simulate.scenario_table`) names and that are given the table
(:mod:`jobs.simulate.scenarios`, :mod:`jobs.simulate.consumer_scenarios`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: the protocols a scenario runs on (:attr:`Scenario.protocol`)
CLASSIC, CONSUMER = "classic", "consumer"


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    #: the groups it runs on: "classic" or "consumer" (KIP-848)
    protocol: str
    #: relative weight in the seeded mix of its protocol's groups (drawn in table order)
    weight: int
    #: ``planner(driver, group) -> expected duration (ms)``: injects the incident into one group
    planner: Callable[[Any, Any], int]
    #: what happens and the expected truth (Markdown, one line)
    description: str
