"""Command line of the job (run by ``./spark-submit.sh``; also ``python -m jobs.cli``).

    spark-submit.sh --input PATH [--input PATH ...] --output DIR [--config FILE]
                    [--mode batch|incremental] [--master URL] [--remote sc://HOST:PORT]
                    [--cluster NAME] [--format delta|parquet] [--writer auto|spark-delta|delta-rs]
    spark-submit.sh --sample [--output DIR]
    spark-submit.sh report --output report.html --lakehouse DIR [--group G]

Exit status: 0 done, 2 bad arguments or configuration (message ``config error: ...``), 1 the run
failed (e.g. a missing input with ``ingest.on_missing: error``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from jobs.config import ConfigError, JobConfig, OutputConfig, RunConfig, SparkConfig, load_config
from jobs.ingest.model import InputSpec
from jobs.package import package_zip
from jobs.process import run_main

SAMPLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "samples", "logs")
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBMITTED_ENV = "REBALANCE_LENS_SUBMITTED"

EPILOG = """\
examples:
  ./spark-submit.sh --sample
  ./spark-submit.sh --input /logs/kafka/server.log* --input /logs/apps/ --cluster prod-eu --output ./lakehouse
  ./spark-submit.sh --config conf/cluster.yaml --master spark://host:7077 --mode incremental
  ./spark-submit.sh report --output report.html --lakehouse ./lakehouse --group orders
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's exit 2, with our prefix
        self.print_usage(sys.stderr)
        self.exit(2, f"config error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="spark-submit.sh",
        description="rebalance-lens: replay Kafka group-coordinator logs and write rebalance tables (Delta).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
    p.add_argument("--output", metavar="DIR", help="lakehouse directory (overrides output.path)")
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
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p  # fmt: skip


def resolve_config(args: argparse.Namespace) -> tuple[JobConfig, list[InputSpec]]:
    """The configuration after command-line overrides, and the inputs to read."""
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
    out = OutputConfig(
        path=args.output or out.path, format=args.format or out.format, writer=args.writer or out.writer
    )
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
    inputs += [InputSpec(path=p, cluster=args.cluster or "default") for p in args.input]
    if args.cluster and not args.input:
        raise ConfigError("--cluster names the cluster of --input paths; give at least one --input")
    if not inputs:
        raise ConfigError("no inputs: give --input PATH (repeatable), inputs: in --config, or --sample")
    return cfg, inputs


def ship_package(session) -> None:
    """Spark Connect: upload the package as a Python artifact (the Connect form of --py-files)."""
    import tempfile

    tmp = tempfile.mkdtemp(prefix="rebalance-lens-")
    try:
        session.addArtifacts(package_zip(tmp), pyfile=True)
    except Exception as exc:  # noqa: BLE001 - servers that refuse artifacts must have the package installed
        print(f"[rebalance-lens] could not upload the package to the Connect server: {exc}", file=sys.stderr)


def build_session(cfg: JobConfig):
    """The SparkSession of the configuration: Spark Connect (spark.remote), the session spark-submit
    prepared (master from --master), or a local one."""
    if cfg.spark.remote:
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.remote(cfg.spark.remote)
        for k, v in cfg.spark.conf.items():
            builder = builder.config(k, v)
        session = builder.getOrCreate()
        ship_package(session)
        return session
    if os.environ.get(SUBMITTED_ENV):
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName("rebalance-lens")
        if cfg.spark.master and not os.environ.get("REBALANCE_LENS_MASTER_GIVEN"):
            builder = builder.master(cfg.spark.master)
        builder = builder.config("spark.sql.session.timeZone", "UTC")
        for k, v in cfg.spark.conf.items():
            builder = builder.config(k, v)
        return builder.getOrCreate()
    from jobs.session import local_session

    conf = dict(cfg.spark.conf)
    shuffle = int(conf.pop("spark.sql.shuffle.partitions", 8))
    return local_session(master=cfg.spark.master or "local[*]", shuffle_partitions=shuffle, extra_conf=conf)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "report":
        from jobs.report.__main__ import main as report_main

        try:
            return report_main(argv[1:])
        except SystemExit as exc:
            return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    args = build_parser().parse_args(argv)
    try:
        cfg, inputs = resolve_config(args)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    from jobs.pipeline import run_job

    spark = build_session(cfg)
    try:
        summary = run_job(spark, cfg, inputs, cfg.run.mode)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except Exception as exc:
        from jobs.ingest import IngestError

        if isinstance(exc, IngestError):
            print(f"input error: {exc}", file=sys.stderr)
            return 1
        raise
    print(summary.text())
    if args.sample:
        print(f"\nnext: ./spark-submit.sh report --output report.html --lakehouse {summary.lakehouse}")
    return 0


if __name__ == "__main__":
    run_main(main)
