"""The scenario table of docs/simulator.md, generated from :data:`jobs.simulate.scenario_table.TABLE`.

It sits in docs/simulator.md between ``<!-- scenarios:begin -->`` and
``<!-- scenarios:end -->``; ``python -m jobs.simulate.scenario_docs`` rewrites it there and
``tests/simulate/test_scenario_table.py`` fails when the committed copy is stale.
"""

from __future__ import annotations

import pathlib
import sys

from jobs.simulate.scenario_table import CLASSIC, CONSUMER, TABLE, Scenario

README = pathlib.Path(__file__).resolve().parents[2] / "docs" / "simulator.md"
BEGIN = "<!-- scenarios:begin -->"
END = "<!-- scenarios:end -->"


def render_markdown(table: tuple[Scenario, ...] = TABLE) -> str:
    """The scenario table as Markdown (the copy in docs/simulator.md, between the markers)."""
    totals = {p: sum(s.weight for s in table if s.protocol == p) for p in (CLASSIC, CONSUMER)}
    rows = [
        "| protocol | scenario | weight | what happens (expected truth) |",
        "|---|---|---:|---|",
    ]
    for s in table:
        share = 100 * s.weight / totals[s.protocol]
        rows.append(f"| {s.protocol} | `{s.name}` | {s.weight} ({share:.0f} %) | {s.description} |")
    return "\n".join(rows) + "\n"


def splice(text: str, rendered: str) -> str:
    """``text`` with what lies between the markers replaced by ``rendered``."""
    head, begin, rest = text.partition(BEGIN)
    _old, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"markers {BEGIN} ... {END} not found")
    return f"{head}{BEGIN}\n{rendered}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """``python -m jobs.simulate.scenario_docs [README]``: rewrite the scenario table of docs/simulator.md."""
    path = pathlib.Path(argv[0]) if argv else README
    text = path.read_text(encoding="utf-8")
    new = splice(text, render_markdown())
    if new != text:
        path.write_text(new, encoding="utf-8")
    print(f"{path}: scenario table {'rewritten' if new != text else 'already current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
