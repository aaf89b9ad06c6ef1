"""``python -m jobs.report --output report.html --lakehouse DIR [--group G]``."""

from __future__ import annotations

import argparse
import os

from jobs.process import run_main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m jobs.report",
        description="Write a self-contained HTML rebalance report of a lakehouse.",
    )
    p.add_argument("--output", required=True, help="HTML file to write (a directory gets report.html)")
    p.add_argument("--lakehouse", required=True, help="directory of the job's tables")
    p.add_argument("--group", help="report one consumer group only")
    p.add_argument("--cluster", help="only this cluster's rows")
    p.add_argument("--title", help="report title")
    args = p.parse_args(argv)
    if not os.path.isdir(args.lakehouse) and "://" not in args.lakehouse:
        p.error(f"--lakehouse {args.lakehouse!r} is not a directory")
    from jobs.report import build_report

    path = build_report(args.lakehouse, args.output, group=args.group, cluster=args.cluster, title=args.title)
    print(f"report written to {path}")
    return 0


if __name__ == "__main__":
    run_main(main)
