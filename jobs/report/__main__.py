"""``python -m jobs.report --output report.html --lakehouse DIR [--group G]``: the ``report``
subcommand of the one command line (:mod:`jobs.cli`, same arguments as ``python -m jobs report``)."""

from __future__ import annotations

from jobs.cli import report, subcommand_parser
from jobs.process import run_main


def main(argv: list[str] | None = None) -> int:
    p = subcommand_parser("report", prog="python -m jobs.report")
    return report(p.parse_args(argv), p)


if __name__ == "__main__":
    run_main(main)
