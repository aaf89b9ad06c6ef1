"""``python -m jobs.simulate --out DIR --groups N --members M --hours H --seed S ...``: the ``simulate``
subcommand of the one command line (:mod:`jobs.cli`, same arguments as ``python -m jobs simulate``)."""

from __future__ import annotations

import sys

from jobs.cli import run_simulation, simulate_config, subcommand_parser
from jobs.simulate import SimConfig


def parse_args(argv: list[str] | None = None) -> SimConfig:
    p = subcommand_parser("simulate", prog="python -m jobs.simulate")
    return simulate_config(p.parse_args(argv), p)


def main(argv: list[str] | None = None) -> int:
    return run_simulation(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
