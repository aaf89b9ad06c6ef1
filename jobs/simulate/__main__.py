"""``python -m jobs.simulate --out DIR --groups N --members M --hours H --seed S ...``"""

from __future__ import annotations

import argparse
import sys

from jobs.simulate import SCENARIOS, SimConfig, simulate
from jobs.simulate.render_broker import DIALECTS
from jobs.simulate.render_client import LAYOUTS
from jobs.simulate.render_consumer import CONSUMER_FLAVOURS


def parse_args(argv: list[str] | None = None) -> SimConfig:
    p = argparse.ArgumentParser(prog="python -m jobs.simulate", description=__doc__)
    p.add_argument("--out", required=True, help="output directory (logs + truth/)")
    p.add_argument("--groups", type=int, default=4)
    p.add_argument("--members", type=int, default=3, help="consumers per group at start")
    p.add_argument("--hours", type=float, default=1.0, help="simulated time")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target-lines", type=int, default=None, help="stop once this many lines are written")
    p.add_argument(
        "--dialect", choices=DIALECTS, default=None,
        help="broker coordinator dialect (default scala3; java4 with --protocol consumer/mixed)",
    )  # fmt: skip
    p.add_argument("--layout", choices=LAYOUTS, default="log4j", help="client log layout")
    p.add_argument("--debug-heartbeats", action="store_true", help="client DEBUG lines (heartbeats)")
    p.add_argument("--gzip", action="store_true", help="compress every log to .gz")
    p.add_argument("--brokers", type=int, default=3)
    p.add_argument("--noise-ratio", type=float, default=0.1, help="share of unrelated lines (0..0.95)")
    p.add_argument(
        "--scenarios",
        default=None,
        help=f"comma-separated scenarios cycled per group (default: random mix of {', '.join(SCENARIOS)})",
    )
    p.add_argument(
        "--incident-gap-min", type=float, default=15.0, help="mean minutes between incidents per group"
    )
    p.add_argument(
        "--protocol", choices=("classic", "consumer", "mixed"), default="classic",
        help="group protocol: classic, consumer (KIP-848) or mixed (one classic group converted mid-run)",
    )  # fmt: skip
    p.add_argument("--consumer-flavour", choices=CONSUMER_FLAVOURS, default="4.0",
                   help="consumer-protocol broker lines: 4.0 or 4.1 (metadata hash, conversion line)")  # fmt: skip
    p.add_argument("--broker-debug", action="store_true", help="broker DEBUG lines (new assignment state)")
    p.add_argument("--static-share", type=float, default=0.25, help="share of groups with static membership")
    a = p.parse_args(argv)
    if a.groups < 1 or a.members < 1 or a.brokers < 1:
        p.error("--groups, --members and --brokers must be >= 1")
    if not 0 <= a.noise_ratio <= 0.95:
        p.error("--noise-ratio must be within 0..0.95")
    return SimConfig(
        out=a.out, groups=a.groups, members=a.members, hours=a.hours, seed=a.seed,
        target_lines=a.target_lines, dialect=a.dialect or ("scala3" if a.protocol == "classic" else "java4"), layout=a.layout,
        debug_heartbeats=a.debug_heartbeats, gzip=a.gzip, brokers=a.brokers, noise_ratio=a.noise_ratio,
        scenarios=tuple(s.strip() for s in a.scenarios.split(",")) if a.scenarios else None,
        incident_gap_ms=int(a.incident_gap_min * 60_000), protocol=a.protocol,
        consumer_flavour=a.consumer_flavour, broker_debug=a.broker_debug, static_share=a.static_share,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    cfg = parse_args(argv)
    res = simulate(cfg)
    print(
        f"wrote {res.lines} lines ({res.bytes} bytes) in {len(res.files)} files to {cfg.out}; "
        f"truth: {res.truth_counts}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
