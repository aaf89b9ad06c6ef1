"""Configuration validation and command-line errors (no Spark needed: these fail before it starts)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

from jobs import cli
from jobs.config import ConfigError, config_from_dict, load_config
from tests.job.helpers import REPO


@pytest.mark.parametrize("name", ["local", "cluster", "databricks"])
def test_shipped_configs_load(name):
    cfg = load_config(os.path.join(REPO, "conf", f"{name}.yaml"))
    assert cfg.output.format == "delta" and cfg.storms.min_rebalances == 3 and cfg.run.mode == "batch"


def test_local_yaml_equals_embedded_default_where_it_matters():
    cfg, default = load_config(os.path.join(REPO, "conf", "local.yaml")), load_config(None)
    assert cfg.spark.master == default.spark.master == "local[*]"
    assert cfg.output == default.output
    assert (cfg.ingest, cfg.replay, cfg.storms, cfg.run) == (
        default.ingest,
        default.replay,
        default.storms,
        default.run,
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"storms": {"min_rebalances": "x"}}, "config error: storms.min_rebalances must be an integer >= 2, got 'x'"),
        ({"storms": {"min_rebalances": 1}}, "config error: storms.min_rebalances must be an integer >= 2, got 1"),
        ({"storms": {"window_minutes": True}}, "config error: storms.window_minutes must be an integer >= 1, got True"),
        ({"output": {"format": "csv"}}, "config error: output.format must be one of delta, parquet, got 'csv'"),
        ({"output": {"writer": "fast"}},
         "config error: output.writer must be one of auto, spark-delta, delta-rs, got 'fast'"),
        ({"run": {"mode": "stream"}}, "config error: run.mode must be one of batch, incremental, got 'stream'"),
        ({"ingest": {"on_missing": "skip"}},
         "config error: ingest.on_missing must be one of error, quarantine, got 'skip'"),
        ({"ingest": {"max_line_bytes": -5}}, "config error: ingest.max_line_bytes must be an integer >= 1024, got -5"),
        ({"ingest": {"default_timezone": "Mars/Olympus"}},
         "config error: ingest.default_timezone must be an IANA time zone such as UTC or Europe/Berlin, "
         "got 'Mars/Olympus'"),
        ({"replay": {"version_hint": "three"}},
         "config error: replay.version_hint must be a Kafka version such as \"2.8\", \"3.9\" or \"4.0\", or null, "
         "got 'three'"),
        ({"replay": {"clock_skew_tolerance_ms": -1}},
         "config error: replay.clock_skew_tolerance_ms must be an integer >= 0, got -1"),
        ({"replay": {"signal_window_ms": "3s"}}, "config error: replay.signal_window_ms must be an integer >= 0, got '3s'"),
        ({"replay": {"emit_skew": False}},
         "config error: unknown key replay.emit_skew (known: version_hint, clock_skew_tolerance_ms, signal_window_ms, "
         "coordinator_move_window_ms, source_file_memory_ms)"),
        ({"spark": {"conf": ["a"]}}, "config error: spark.conf must be a mapping of Spark settings, got ['a']"),
        ({"spark": {"remote": "http://x"}},
         "config error: spark.remote must be a Spark Connect URL sc://host:port, got 'http://x'"),
        ({"sparks": {}}, "config error: unknown key sparks (known: spark, output, inputs, ingest, replay, storms, run, kafka)"),
        ({"storms": {"n": 3}}, "config error: unknown key storms.n (known: min_rebalances, window_minutes)"),
        ({"inputs": [{"cluster": "x"}]}, "config error: inputs[0].path is required"),
        ({"inputs": "logs/"}, "config error: inputs must be a list of {path, cluster, group}, got 'logs/'"),
        ({"run": {"state_table": "bad name"}},
         "config error: run.state_table must be a table name of letters, digits and _, got 'bad name'"),
    ],
)  # fmt: skip
def test_bad_config_names_the_key(data, message):
    with pytest.raises(ConfigError) as err:
        config_from_dict(data)
    assert str(err.value) == message


def test_version_hint_number_is_accepted():
    assert config_from_dict({"replay": {"version_hint": 2.8}}).replay.version_hint == "2.8"


def test_bad_yaml_file(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("storms: [unclosed\n")
    with pytest.raises(ConfigError, match=r"^config error: .*bad.yaml is not valid YAML"):
        load_config(str(p))
    with pytest.raises(ConfigError, match=r"^config error: config file not found: /nonexistent.yaml$"):
        load_config("/nonexistent.yaml")


def test_with_values_validates():
    cfg = load_config(None).with_values(**{"storms.min_rebalances": 5, "run.mode": "incremental"})
    assert cfg.storms.min_rebalances == 5 and cfg.run.mode == "incremental"
    with pytest.raises(ConfigError, match="storms.window_minutes"):
        load_config(None).with_values(**{"storms.window_minutes": 0})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--mode", "fast", "--input", "x"], "config error: argument --mode: invalid choice: 'fast'"),
        (["--input"], "config error: argument --input: expected one argument"),
        (["--bogus"], "config error: unrecognized arguments: --bogus"),
        ([], "config error: no inputs: give --input PATH (repeatable), inputs: in --config, or --sample"),
        (["--cluster", "eu"], "config error: --cluster names the cluster of --input paths; give at least one --input"),
        (["--input", "x", "--remote", "localhost:15002"],
         "config error: --remote must be a Spark Connect URL sc://host:port, got 'localhost:15002'"),
    ],
)  # fmt: skip
def test_bad_arguments(argv, message, capsys):
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_bad_config_file_argument(tmp_path, capsys):
    p = tmp_path / "c.yaml"
    p.write_text("storms:\n  min_rebalances: x\n")
    assert cli.main(["--config", str(p), "--input", "logs"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "config error: storms.min_rebalances must be an integer >= 2, got 'x'"
    )


def test_command_line_overrides(tmp_path):
    args = cli.parse_args(
        ["--input", "a.log", "--input", "b/", "--cluster", "eu", "--output", str(tmp_path), "--mode", "incremental",
         "--master", "spark://h:7077", "--format", "parquet", "--quiet"])  # fmt: skip
    cfg, inputs = cli.resolve_config(args)
    assert [(i.path, i.cluster) for i in inputs] == [("a.log", "eu"), ("b/", "eu")]
    assert cfg.output.path == str(tmp_path) and cfg.output.format == "parquet"
    assert (
        cfg.run.mode == "incremental" and cfg.spark.master == "spark://h:7077" and cfg.run.progress is False
    )


def test_sample_flag_uses_bundled_logs_and_local_yaml():
    cfg, inputs = cli.resolve_config(cli.parse_args(["--sample"]))
    assert [i.cluster for i in inputs] == ["prod-eu", "prod-us"]
    assert all(os.path.isdir(i.path) for i in inputs)
    assert cfg.output.path == "./lakehouse" and cfg.spark.master == "local[*]"


def test_spark_submit_help_documents_every_option():
    env = dict(os.environ, REBALANCE_LENS_NO_VENV="1", PYSPARK_PYTHON=sys.executable)
    out = subprocess.run([os.path.join(REPO, "spark-submit.sh"), "--help"], capture_output=True, text=True,
                         env=env, timeout=60, check=True).stdout  # fmt: skip
    for opt in ("--input", "--output", "--config", "--mode", "--master", "--cluster", "--remote", "--format",
                "--writer", "--checkpoint", "--sample", "--quiet", "report"):  # fmt: skip
        assert opt in out, opt


@pytest.mark.parametrize("command", ["report", "simulate"])
def test_spark_submit_subcommands_are_the_one_command_line(command):
    env = dict(os.environ, REBALANCE_LENS_NO_VENV="1", PYSPARK_PYTHON=sys.executable)
    done = subprocess.run([os.path.join(REPO, "spark-submit.sh"), command, "--help"], capture_output=True,
                          text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0
    assert f"usage: spark-submit.sh {command} " in done.stdout
    assert ("--lakehouse" if command == "report" else "--noise-ratio") in done.stdout


@pytest.mark.parametrize("module", ["jobs", "jobs.cli"])
def test_jobs_report_help_exits_0(module):
    done = subprocess.run([sys.executable, "-m", module, "report", "--help"], capture_output=True, text=True,
                          cwd=REPO, timeout=60, env=dict(os.environ, PYTHONPATH=REPO))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "--lakehouse" in done.stdout and "--title" in done.stdout


def _values(args) -> dict:
    return {k: v for k, v in vars(args).items() if k not in ("command", "_parser")}


def test_run_is_the_default_subcommand():
    argv = ["--input", "a.log", "--cluster", "eu", "--mode", "incremental", "--sample", "--quiet"]
    implicit, explicit = cli.parse_args(argv), cli.parse_args(["run", *argv])
    assert _values(implicit) == _values(explicit) and implicit.command == "run"
    assert (implicit.input, implicit.cluster, implicit.mode, implicit.sample, implicit.quiet) == (
        ["a.log"], "eu", "incremental", True, True)  # fmt: skip
    assert (implicit.output, implicit.config, implicit.master, implicit.format) == (None, None, None, None)
    assert cli.parse_args([]).command == "run"


def test_report_subcommand_arguments():
    argv = ["--output", "r.html", "--lakehouse", "lh", "--group", "orders", "--cluster", "eu", "--title", "T"]
    args = cli.parse_args(["report", *argv])
    assert args.command == "report"
    assert (args.output, args.lakehouse, args.group, args.cluster, args.title) == ("r.html", "lh", "orders", "eu", "T")
    # python -m jobs.report: the same definitions, the same values
    alone = cli.subcommand_parser("report", prog="python -m jobs.report").parse_args(argv)
    assert vars(alone) == _values(args)
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["report", "--output", "r.html"])  # --lakehouse is required
    assert exc.value.code == 2


def test_report_subcommand_rejects_a_missing_lakehouse(tmp_path, capsys):
    from jobs.report.__main__ import main as report_main

    for entry in (lambda a: cli.main(["report", *a]), report_main):
        code = entry(["--output", str(tmp_path / "r.html"), "--lakehouse", str(tmp_path / "nope")])
        assert code == 1
        assert "is not a directory" in capsys.readouterr().err
        assert not (tmp_path / "r.html").exists()


def test_report_config_replay_settings_reach_the_advice(tmp_path, monkeypatch, capsys):
    """``report --config FILE``: the config's replay: and kafka: settings are the ones the storms'
    evidence is replayed and re-simulated under for the advice; a misspelt key is the config error
    that names it."""
    seen = {}
    import jobs.report

    monkeypatch.setattr(jobs.report, "build_report", lambda *a, **kw: seen.update(kw) or "r.html")
    monkeypatch.setattr(cli, "check_lakehouse", lambda *a, **kw: None)
    conf = tmp_path / "c.yaml"
    conf.write_text("replay:\n  clock_skew_tolerance_ms: 7000\n  version_hint: '2.8'\n"
                    "kafka:\n  session.timeout.ms: 10000\n  groups: {orders: {max.poll.interval.ms: 600000}}\n")
    assert cli.main(["report", "--output", "r.html", "--lakehouse", str(tmp_path), "--config", str(conf)]) == 0
    assert (seen["settings"].clock_skew_tolerance_ms, seen["settings"].version_hint) == (7000, "2.8")
    assert seen["settings"].signal_window_ms == 3000  # the core's default
    assert seen["kafka"].for_group("orders") == {"session_timeout_ms": 10000, "max_poll_interval_ms": 600000}
    assert seen["kafka"].for_group("other") == {"session_timeout_ms": 10000}
    cli.main(["report", "--output", "r.html", "--lakehouse", str(tmp_path)])
    assert seen["settings"] is None and seen["kafka"] is None  # no config: the core's and Kafka's defaults
    conf.write_text("replay:\n  clock_skew_tolerence_ms: 7000\n")
    assert cli.main(["report", "--output", "r.html", "--lakehouse", str(tmp_path), "--config", str(conf)]) == 2
    assert "unknown key replay.clock_skew_tolerence_ms" in capsys.readouterr().err


def test_simulate_subcommand_arguments():
    from jobs.simulate.__main__ import parse_args as simulate_parse_args

    argv = ["--out", "/tmp/x", "--groups", "2", "--members", "5", "--hours", "0.5", "--seed", "9", "--gzip",
            "--scenarios", "crash, flapping", "--protocol", "consumer", "--incident-gap-min", "2"]  # fmt: skip
    args = cli.parse_args(["simulate", *argv])
    cfg = cli.simulate_config(args, args._parser)
    assert (cfg.out, cfg.groups, cfg.members, cfg.hours, cfg.seed, cfg.gzip) == ("/tmp/x", 2, 5, 0.5, 9, True)
    assert (cfg.scenarios, cfg.protocol, cfg.dialect, cfg.incident_gap_ms) == (
        ("crash", "flapping"), "consumer", "java4", 120_000)  # fmt: skip
    assert simulate_parse_args(argv) == cfg  # python -m jobs.simulate: the same definitions
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--out", "x", "--noise-ratio", "1.5"])


def _run_entry(body: str) -> subprocess.CompletedProcess:
    code = "import atexit, sys\nfrom jobs.process import run_main\n" + body
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60,
                          env=dict(os.environ, PYTHONPATH=REPO))  # fmt: skip


def test_entry_points_leave_with_the_return_code_after_atexit_handlers():
    # run_main skips the native static destructors (Arrow thread pools can abort a finished process)
    # but keeps the code, flushes output and still runs Python's atexit handlers (PySpark's JVM kill)
    done = _run_entry(
        "atexit.register(lambda: print('atexit ran'))\nprint('work done', end=' ')\nrun_main(lambda: 3)"
    )
    assert (done.returncode, done.stdout) == (3, "work done atexit ran\n")
    assert _run_entry("run_main(lambda: 0)").returncode == 0
    assert _run_entry("run_main(lambda: None)").returncode == 0


def test_entry_points_report_exceptions_and_system_exit():
    done = _run_entry("def boom():\n    raise RuntimeError('disk full')\nrun_main(boom)")
    assert done.returncode == 1
    assert "RuntimeError: disk full" in done.stderr and "Traceback" in done.stderr
    done = _run_entry("def usage():\n    sys.exit(2)\nrun_main(usage)")
    assert done.returncode == 2
    done = _run_entry("def msg():\n    sys.exit('bad config')\nrun_main(msg)")
    assert (done.returncode, done.stderr.strip()) == (1, "bad config")


def test_the_package_zip_holds_the_code_and_nothing_else(tmp_path):
    """One builder of the executors' zip (jobs.package), used by spark-submit.sh and Spark Connect."""
    import zipfile

    from jobs.package import package_zip

    names = zipfile.ZipFile(package_zip(str(tmp_path))).namelist()
    assert "coordinator_core/history.py" in names and "jobs/replay_udf.py" in names
    assert "coordinator_core/replay/fastpath.py" in names
    assert all(n.endswith(".py") for n in names) and not [n for n in names if "samples" in n or "__pycache__" in n]


def test_spark_submit_quiets_sparks_startup_lines():
    """./spark-submit.sh gives Spark a log4j2 file: warnings and up, the environment notices off."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    script = (root / "spark-submit.sh").read_text()
    assert "-Dlog4j2.configurationFile=file:${REBALANCE_LENS_LOG4J:-$ROOT/conf/log4j2.properties}" in script
    conf = (root / "conf" / "log4j2.properties").read_text()
    assert "rootLogger.level = warn" in conf and "org.apache.hadoop.util.NativeCodeLoader" in conf


def test_the_replay_section_is_replay_settings():
    """The config's ``replay`` section is read into the core's ReplaySettings (its defaults, one per
    value), and that object is what the workers replay with; the fields the job or what-if sets are
    not keys."""
    from coordinator_core.replay import ReplaySettings
    from jobs.config import SECTIONS, JobConfig, config_keys

    assert SECTIONS["replay"] is ReplaySettings and JobConfig().replay == ReplaySettings()
    assert config_keys(ReplaySettings) == ("version_hint", "clock_skew_tolerance_ms", "signal_window_ms",
                                           "coordinator_move_window_ms", "source_file_memory_ms")  # fmt: skip
    cfg = config_from_dict({"replay": {"version_hint": "3.9", "signal_window_ms": 6000}})
    assert cfg.replay == ReplaySettings(version_hint="3.9", signal_window_ms=6000)
    for key in ("emit_skew", "track_generations"):
        with pytest.raises(ConfigError, match=f"^config error: unknown key replay.{key} "):
            config_from_dict({"replay": {key: True}})


#: a valid value, other than the default, of every key of every config section
NON_DEFAULT = {
    "spark": {"master": "spark://h:7077", "conf": {"spark.sql.shuffle.partitions": "4"}, "remote": "sc://h:15002"},
    "output": {"path": "/tmp/lh", "format": "parquet", "writer": "delta-rs"},
    "ingest": {"default_timezone": "Europe/Berlin", "on_missing": "quarantine", "on_corrupt": "error",
               "max_line_bytes": 4096, "default_year": 2024,
               "default_date": "2024-05-01", "layouts": [{"regex": r"^(?P<ts>\S+ \S+) (?P<message>.*) - (?P<logger>.*)$"}]},
    "replay": {"version_hint": "3.9", "clock_skew_tolerance_ms": 5, "signal_window_ms": 6000,
               "coordinator_move_window_ms": 30000, "source_file_memory_ms": 86_400_000},
    "storms": {"min_rebalances": 4, "window_minutes": 30},
    "run": {"mode": "incremental", "state_table": "gs2", "checkpoint": "/cp", "progress": False, "exchange": "shuffle"},
}  # fmt: skip


def test_every_config_key_is_a_field_of_the_settings_the_job_uses():
    """One settings path: each section is read into the object the workers use (``ingest`` is the
    ingestion's IngestSettings, ``inputs`` its InputSpecs), every key lands in a field of the same
    name (nothing dropped) and the fields the job sets per run are not keys."""
    from jobs.config import SECTIONS, JobConfig, config_keys, to_dict
    from jobs.ingest import IngestSettings, InputSpec

    assert set(SECTIONS) == {f.name for f in dataclasses.fields(JobConfig)}
    assert SECTIONS["ingest"] is IngestSettings and SECTIONS["inputs"] is InputSpec
    assert set(NON_DEFAULT) == set(SECTIONS) - {"inputs", "kafka"}  # kafka: Kafka's key names, tested below
    for name, keys in NON_DEFAULT.items():
        assert set(keys) == set(config_keys(SECTIONS[name])), name
    cfg = config_from_dict({**NON_DEFAULT, "inputs": [{"path": "/logs", "cluster": "eu"}, "/more"]})
    assert cfg.inputs == (InputSpec("/logs", "eu"), InputSpec("/more"))
    for name, values in NON_DEFAULT.items():
        section, default = getattr(cfg, name), SECTIONS[name]()
        assert type(section) is SECTIONS[name]
        for key, value in values.items():
            got = getattr(section, key)
            assert got != getattr(default, key), f"{name}.{key} kept its default"
            if key != "layouts":
                assert got == value, f"{name}.{key}"
    assert len(cfg.ingest.layouts) == 1
    assert config_from_dict(to_dict(cfg)) == cfg
    assert set(config_keys(IngestSettings)) == {"default_timezone", "on_missing", "on_corrupt", "max_line_bytes",
                                                "default_year", "default_date", "layouts"}  # fmt: skip


def test_the_ingest_defaults_are_the_documented_ones():
    """One default per value (IngestSettings'), the one the README's config table gives."""
    with open(os.path.join(REPO, "docs", "configuration.md"), encoding="utf-8") as fh:
        readme = fh.read()
    ingest = load_config(None).ingest
    assert (ingest.on_missing, ingest.on_corrupt, ingest.max_line_bytes) == ("error", "quarantine", 1048576)
    for key, value in (("on_missing", "`error`"), ("on_corrupt", "`quarantine`"), ("max_line_bytes", "1048576"),
                       ("default_timezone", "`UTC`")):  # fmt: skip
        assert f"| `ingest.{key}` | {value} |" in readme, key


def test_the_replay_defaults_are_the_documented_and_shipped_ones():
    """The replay's defaults are ReplaySettings' (the core's), the README's config table gives each
    key with that default, and conf/local.yaml sets the same values."""
    from jobs.config import config_keys

    with open(os.path.join(REPO, "docs", "configuration.md"), encoding="utf-8") as fh:
        readme = fh.read()
    replay = load_config(None).replay
    values = tuple(getattr(replay, k) for k in config_keys(type(replay)))
    assert values == (None, 2000, 3000, 60000, 604800000)
    for key, value in zip(config_keys(type(replay)), values, strict=True):
        assert f"| `replay.{key}` | {'null' if value is None else value} |" in readme, key
    assert load_config(os.path.join(REPO, "conf", "local.yaml")).replay == replay


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"spark": {"mastr": "x"}}, "unknown key spark.mastr (known: master, conf, remote)"),
        ({"output": {"paht": "x"}}, "unknown key output.paht (known: path, format, writer)"),
        ({"inputs": [{"path": "x", "clustr": "eu"}]}, "unknown key inputs[0].clustr (known: path, cluster, group)"),
        ({"ingest": {"on_corupt": "error"}},
         "unknown key ingest.on_corupt (known: default_timezone, on_missing, on_corrupt, max_line_bytes, "
         "default_year, default_date, layouts)"),
        ({"ingest": {"staging_dir": "/tmp/s"}}, "unknown key ingest.staging_dir (known: "),  # set by the job
        ({"replay": {"clock_skew_tolerence_ms": 1}}, "unknown key replay.clock_skew_tolerence_ms (known: "),
        ({"storms": {"window_minute": 5}}, "unknown key storms.window_minute (known: "),
        ({"run": {"exchnage": "shuffle"}}, "unknown key run.exchnage (known: "),
    ],
)  # fmt: skip
def test_a_misspelt_key_is_an_error_naming_it(data, message):
    with pytest.raises(ConfigError) as err:
        config_from_dict(data)
    assert str(err.value).startswith("config error: " + message)


def test_the_kafka_section_gives_each_group_its_client_settings():
    """``kafka:``: Kafka's own names, a top level for every group and per-group overrides; what is not
    given is absent (the what-if then takes Kafka's defaults); bad keys and values name the key."""
    from jobs.config import KafkaConfig, to_dict

    cfg = config_from_dict({"kafka": {"session.timeout.ms": 10000, "heartbeat.interval.ms": 1000,
                                      "groups": {"orders": {"session.timeout.ms": 30000,
                                                            "max.poll.interval.ms": 600000}}}})  # fmt: skip
    assert cfg.kafka.for_group("orders") == {"session_timeout_ms": 30000, "heartbeat_interval_ms": 1000,
                                             "max_poll_interval_ms": 600000}  # fmt: skip
    assert cfg.kafka.for_group("payments") == {"session_timeout_ms": 10000, "heartbeat_interval_ms": 1000}
    assert load_config(None).kafka == KafkaConfig() and KafkaConfig().for_group("x") == {}
    assert config_from_dict(to_dict(cfg)) == cfg
    assert to_dict(cfg)["kafka"]["groups"]["orders"]["max.poll.interval.ms"] == 600000
    for data, message in (
        ({"kafka": {"session_timeout_ms": 1}}, "unknown key kafka.session_timeout_ms (known: session.timeout.ms, "),
        ({"kafka": {"session.timeout.ms": "45s"}}, "kafka.session.timeout.ms must be an integer >= 1, got '45s'"),
        ({"kafka": {"groups": {"g": {"max.poll.interval.ms": 0}}}},
         "kafka.groups.g.max.poll.interval.ms must be an integer >= 1, got 0"),
        ({"kafka": {"groups": ["g"]}}, "kafka.groups must be a mapping"),
    ):  # fmt: skip
        with pytest.raises(ConfigError) as err:
            config_from_dict(data)
        assert message in str(err.value)
