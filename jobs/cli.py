"""The one command line of rebalance-lens: ``run`` (the job), ``report`` and ``simulate``.

    spark-submit.sh [run] --input PATH [--input PATH ...] --output DIR [--config FILE]
                    [--mode batch|incremental] [--master URL] [--remote sc://HOST:PORT]
                    [--cluster NAME] [--format delta|parquet] [--writer auto|spark-delta|delta-rs]
    spark-submit.sh [run] --sample [--output DIR]
    spark-submit.sh report --output report.html --lakehouse DIR [--group G]
    spark-submit.sh simulate --out DIR [--groups N --members M --hours H --seed S ...]

``python -m jobs ...`` is the same command line without spark-submit (``run`` then builds a local
session); ``run`` is the default when the first argument is not a subcommand. ``python -m
jobs.report ...`` and ``python -m jobs.simulate ...`` are the ``report`` / ``simulate`` subcommands
(the same argument definitions: :data:`SUBCOMMANDS`).

Exit status: 0 done, 2 bad arguments or configuration (message ``config error: ...``), 1 an input or
lakehouse error (one line: ``input error: ...`` / ``report error: ...``), 130 interrupted (Ctrl-C: one
line, no traceback). ``REBALANCE_LENS_CHECK_ONLY=1`` checks the arguments, the configuration and the
inputs and stops before Spark starts (``spark-submit.sh`` does that before it starts the JVM).
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jobs.cli_checks import InputError, LakehouseError, check_inputs, check_lakehouse, run_output_dir
from jobs.process import run_main

if TYPE_CHECKING:
    from jobs.config import JobConfig
    from jobs.ingest.model import InputSpec
    from jobs.simulate import SimConfig

# Each subcommand imports what it runs (Spark, the job, the report, the simulator) when it runs:
# ``report`` and ``simulate`` load no Spark, and ``--help`` starts fast.

SAMPLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples", "logs")
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBMITTED_ENV = "REBALANCE_LENS_SUBMITTED"
CHECK_ONLY_ENV = "REBALANCE_LENS_CHECK_ONLY"
INTERRUPTED = "interrupted (Ctrl-C); the next run drops whatever this one had not committed"

EPILOG = """\
subcommands: run (the default), report, simulate (spark-submit.sh report --help ...)

examples:
  ./spark-submit.sh --sample
  ./spark-submit.sh --input /logs/kafka/server.log* --input /logs/apps/ --cluster prod-eu --output ./lakehouse
  ./spark-submit.sh --config conf/cluster.yaml --master spark://host:7077 --mode incremental
  ./spark-submit.sh report --output report.html --lakehouse ./lakehouse --group orders
  ./spark-submit.sh simulate --out /tmp/sim --groups 8 --members 4 --hours 6 --seed 1
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's exit 2, with our prefix
        self.print_usage(sys.stderr)
        self.exit(2, f"config error: {message}\n")


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The job's arguments (``run``)."""
    p.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="PATH",
        help="log file, directory or glob (plain or .gz); repeatable; added to the config's inputs",
    )
    p.add_argument(
        "--cluster",
        metavar="NAME",
        default=None,
        help="Kafka cluster name of the --input paths (default: 'default')",
    )
    p.add_argument(
        "--input-group",
        metavar="GROUP",
        default=None,
        help="consumer group of the --input paths' lines that name none (a client whose logs never name their group)",
    )
    p.add_argument(
        "--output", metavar="DIR",
        help="lakehouse directory (overrides output.path; with --input and no --output: a new ./lakehouse-<run> folder)",
    )  # fmt: skip
    p.add_argument("--config", metavar="FILE", help="YAML configuration (default: embedded conf/local.yaml)")
    p.add_argument("--mode", choices=("batch", "incremental"), help="overrides run.mode (default batch)")
    p.add_argument(
        "--master", metavar="URL", help="Spark master (overrides spark.master), e.g. spark://h:7077"
    )
    p.add_argument(
        "--remote", metavar="URL", help="Spark Connect URL sc://host:port (overrides spark.remote)"
    )
    p.add_argument("--format", choices=("delta", "parquet"), help="overrides output.format")
    p.add_argument("--writer", choices=("auto", "spark-delta", "delta-rs"), help="overrides output.writer")
    p.add_argument(
        "--checkpoint", metavar="DIR", help="incremental mode checkpoint (overrides run.checkpoint)"
    )
    p.add_argument(
        "--sample",
        action="store_true",
        help="run on the bundled sample logs with conf/local.yaml into ./lakehouse and print a summary",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")  # fmt: skip


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    """The HTML report's arguments (``report``, ``python -m jobs.report``)."""
    p.add_argument("--output", required=True, help="HTML file to write (a directory gets report.html)")
    p.add_argument("--lakehouse", required=True, help="directory of the job's tables (the run's --output)")
    p.add_argument("--group", help="report one consumer group only (an unknown group is an error)")
    p.add_argument("--cluster", help="only this cluster's rows")
    p.add_argument("--title", help="report title")
    p.add_argument(
        "--config", metavar="FILE",
        help="the job's YAML configuration: its replay: and kafka: settings are used by the advice",
    )  # fmt: skip


def add_simulate_arguments(p: argparse.ArgumentParser) -> None:
    """The simulator's arguments (``simulate``, ``python -m jobs.simulate``; :func:`simulate_config`)."""
    from jobs.simulate.render_broker import DIALECTS
    from jobs.simulate.render_client import LAYOUTS
    from jobs.simulate.render_consumer import CONSUMER_FLAVOURS
    from jobs.simulate.scenario_table import CONSUMER_SCENARIOS, SCENARIOS

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
        help=f"comma-separated scenarios cycled per group (default: random mix of {', '.join(SCENARIOS)}; "
        f"consumer-protocol groups: {', '.join(CONSUMER_SCENARIOS)})",
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


def simulate_config(a: argparse.Namespace, p: argparse.ArgumentParser) -> SimConfig:
    """The :class:`jobs.simulate.SimConfig` of parsed ``simulate`` arguments (``p.error`` if invalid)."""
    from jobs.simulate import SimConfig

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


def report(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``report``: write the HTML report of a lakehouse."""
    from jobs.config import ConfigError, load_config
    from jobs.report import build_report

    try:
        cfg = load_config(args.config) if args.config else None
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        check_lakehouse(args.lakehouse, group=args.group, cluster=args.cluster)
    except LakehouseError as exc:
        print(f"report error: {exc}", file=sys.stderr)
        return 1
    path = build_report(
        args.lakehouse, args.output, group=args.group, cluster=args.cluster, title=args.title,
        settings=cfg.replay if cfg else None, kafka=cfg.kafka if cfg else None,
    )  # fmt: skip
    print(f"report written to {path}")
    return 0


def simulate(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``simulate``: write simulated logs and their truth."""
    return run_simulation(simulate_config(args, p))


def run_simulation(cfg: SimConfig) -> int:
    """Run the simulator and say what it wrote."""
    from jobs.simulate import simulate as run_simulator

    res = run_simulator(cfg)
    print(
        f"wrote {res.lines} lines ({res.bytes} bytes) in {len(res.files)} files to {cfg.out}; "
        f"truth: {res.truth_counts}"
    )
    return 0


def run(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``run``: the job; the console formats the summary the job returns."""
    from jobs.config import ConfigError
    from jobs.ingest.model import IngestError
    from jobs.pipeline import run_job
    from jobs.report.console import summary_text

    try:
        cfg, inputs = resolve_config(args)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        if cfg.ingest.on_missing == "error":
            check_inputs([i.path for i in inputs])
    except InputError as exc:
        print(f"input error: {exc}", file=sys.stderr)
        return 1
    if os.environ.get(CHECK_ONLY_ENV):
        return 0
    spark = session_keeping_interrupt(cfg)
    try:
        summary = run_job(spark, cfg, inputs, cfg.run.mode)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except IngestError as exc:
        print(f"input error: {exc}", file=sys.stderr)
        return 1
    print(summary_text(summary))
    print(f"\nnext: ./spark-submit.sh report --output report.html --lakehouse {summary.lakehouse}")
    return 0


#: name -> (description, argument definitions, what it does)
SUBCOMMANDS = {
    "run": (
        "rebalance-lens: replay Kafka group-coordinator logs and write rebalance tables (Delta).",
        add_run_arguments,
        run,
    ),
    "report": ("Write a self-contained HTML rebalance report of a lakehouse.", add_report_arguments, report),
    "simulate": (
        "Simulate Kafka broker/client logs of consumer groups, with the truth of what happened.",
        add_simulate_arguments,
        simulate,
    ),
}


def subcommand_parser(name: str, prog: str) -> argparse.ArgumentParser:
    """One subcommand as a program of its own (``python -m jobs.report``, ``python -m jobs.simulate``)."""
    description, add_arguments, _ = SUBCOMMANDS[name]
    p = argparse.ArgumentParser(prog=prog, description=description)
    add_arguments(p)
    return p


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``run`` / ``report`` / ``simulate`` (see :func:`parse_args` for the
    default subcommand)."""
    p = _Parser(prog="spark-submit.sh", description="rebalance-lens", epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    sub = p.add_subparsers(dest="command", metavar="{" + ",".join(SUBCOMMANDS) + "}", parser_class=_Parser)
    for name, (description, add_arguments, _) in SUBCOMMANDS.items():
        extra: dict[str, Any] = (
            {"epilog": EPILOG, "formatter_class": argparse.RawDescriptionHelpFormatter} if name == "run" else {}
        )
        sp = sub.add_parser(name, help=description, description=description, **extra)
        add_arguments(sp)
        sp.set_defaults(_parser=sp)
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse a command line; ``run`` is implied when the first argument is not a subcommand (every
    ``spark-submit.sh --input ...`` / ``--sample`` / ``--help`` invocation)."""
    argv = list(argv)
    if not argv or argv[0] not in SUBCOMMANDS:
        argv = ["run", *argv]
    return build_parser().parse_args(argv)


def resolve_config(args: argparse.Namespace) -> tuple[JobConfig, list[InputSpec]]:
    """The configuration after command-line overrides, and the inputs to read."""
    from jobs.config import ConfigError, OutputConfig, RunConfig, SparkConfig, load_config
    from jobs.ingest.model import InputSpec

    if args.sample and args.config is None and os.path.exists(os.path.join(REPO_ROOT, "conf", "local.yaml")):
        args.config = os.path.join(REPO_ROOT, "conf", "local.yaml")
    cfg = load_config(args.config)
    spark = cfg.spark
    if args.master:
        spark = SparkConfig(master=args.master, conf=spark.conf, remote=spark.remote)
    if args.remote:
        if not args.remote.startswith("sc://"):
            raise ConfigError(f"--remote must be a Spark Connect URL sc://host:port, got {args.remote!r}")
        spark = SparkConfig(master=spark.master, conf=spark.conf, remote=args.remote)
    out = cfg.output
    path = args.output or out.path
    if args.input and not args.output and out.path == OutputConfig().path and not args.sample:
        path = run_output_dir(os.environ.get("REBALANCE_LENS_RUN_STAMP") or datetime.datetime.now())
    out = OutputConfig(path=path, format=args.format or out.format, writer=args.writer or out.writer)
    run = cfg.run
    run = RunConfig(mode=args.mode or run.mode, state_table=run.state_table,
                    checkpoint=args.checkpoint or run.checkpoint, progress=run.progress and not args.quiet)  # fmt: skip
    cfg = cfg.replace(spark=spark, output=out, run=run)
    inputs = list(cfg.inputs)
    if args.sample:
        if not os.path.isdir(SAMPLES_DIR):
            raise ConfigError(f"the bundled sample logs are missing: {SAMPLES_DIR}")
        inputs = [InputSpec(path=os.path.join(SAMPLES_DIR, d), cluster=d) for d in sorted(os.listdir(SAMPLES_DIR))
                  if os.path.isdir(os.path.join(SAMPLES_DIR, d))]  # fmt: skip
    inputs += [InputSpec(path=p, cluster=args.cluster or "default", group=args.input_group) for p in args.input]
    if args.cluster and not args.input:
        raise ConfigError("--cluster names the cluster of --input paths; give at least one --input")
    if args.input_group is not None and not args.input_group.strip():
        raise ConfigError("--input-group needs a consumer group name")
    if args.input_group and not args.input:
        raise ConfigError("--input-group names the consumer group of --input paths; give at least one --input")
    if not inputs:
        raise ConfigError("no inputs: give --input PATH (repeatable), inputs: in --config, or --sample")
    return cfg, inputs


def ship_package(session: Any) -> None:
    """Spark Connect: upload the package as a Python artifact (the Connect form of --py-files)."""
    from jobs.package import package_zip

    tmp = tempfile.mkdtemp(prefix="rebalance-lens-")
    try:
        session.addArtifacts(package_zip(tmp), pyfile=True)
    except Exception as exc:  # noqa: BLE001 - servers that refuse artifacts must have the package installed
        print(f"[rebalance-lens] could not upload the package to the Connect server: {exc}", file=sys.stderr)


def build_session(cfg: JobConfig) -> Any:
    """The SparkSession of the configuration: Spark Connect (spark.remote), the session spark-submit
    prepared (master from --master), or a local one."""
    from pyspark.sql import SparkSession

    from jobs.session import local_session

    if cfg.spark.remote:
        builder = SparkSession.builder.remote(cfg.spark.remote)
        for k, v in cfg.spark.conf.items():
            builder = builder.config(k, v)
        session = builder.getOrCreate()
        ship_package(session)
        return session
    if os.environ.get(SUBMITTED_ENV):
        builder = SparkSession.builder.appName("rebalance-lens")
        if cfg.spark.master and not os.environ.get("REBALANCE_LENS_MASTER_GIVEN"):
            builder = builder.master(cfg.spark.master)
        builder = builder.config("spark.sql.session.timeZone", "UTC")
        for k, v in cfg.spark.conf.items():
            builder = builder.config(k, v)
        return builder.getOrCreate()

    conf = dict(cfg.spark.conf)
    shuffle = int(conf.pop("spark.sql.shuffle.partitions", 8))
    return local_session(master=cfg.spark.master or "local[*]", shuffle_partitions=shuffle, extra_conf=conf)


def on_interrupt(signum=None, frame=None) -> None:
    """Ctrl-C: one line and exit 130, at once (no py4j / JVM traceback from a half-stopped session).

    The JVM is quietened first: a JVM this process started (``python -m jobs``) is killed; under
    spark-submit (the JVM is the parent) the file ``$REBALANCE_LENS_INTERRUPT_FILE`` tells
    ``spark-submit.sh`` to drop what the JVM logs while it shuts down."""
    try:
        marker = os.environ.get("REBALANCE_LENS_INTERRUPT_FILE")
        if marker:
            with open(marker, "w", encoding="utf-8"):
                pass
        # the JVM this process started, if Spark was loaded at all (never imported here)
        context = getattr(sys.modules.get("pyspark"), "SparkContext", None)
        proc = getattr(getattr(context, "_gateway", None), "proc", None)
        if proc is not None:
            proc.kill()
        sys.stderr.write(f"\n{INTERRUPTED}\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


_interrupt_handled = False


def session_keeping_interrupt(cfg: JobConfig) -> Any:
    """:func:`build_session`, keeping :func:`on_interrupt` as the Ctrl-C handler: SparkContext installs
    its own (a KeyboardInterrupt raised inside a py4j call, which prints a traceback). SIGINT is held
    back while the session starts and delivered to ours afterwards."""
    if not _interrupt_handled:
        return build_session(cfg)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return build_session(cfg)
    finally:
        signal.signal(signal.SIGINT, on_interrupt)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def main(argv: Sequence[str] | None = None) -> int:
    global _interrupt_handled
    if argv is None:  # the command line itself, not a call from Python
        signal.signal(signal.SIGINT, on_interrupt)
        _interrupt_handled = True
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return SUBCOMMANDS[args.command][2](args, args._parser)


if __name__ == "__main__":
    run_main(main)
