"""The traps a new user falls into, each closed: spark-submit.sh checks the arguments before the JVM,
leaves no temporary files, hides the JVM's incubator notice and ends a Ctrl-C with one line and 130;
--input without --output never writes into the sample's lakehouse; an input that gives no file says
why (missing, empty directory, glob matching nothing); set-up gives setuptools nothing to warn about."""

from __future__ import annotations

import os
import pathlib
import runpy
import signal
import stat
import subprocess
import sys
import textwrap

import pytest

from jobs import cli
from jobs.cli_checks import input_problem, run_output_dir

ROOT = pathlib.Path(__file__).resolve().parents[2]

FAKE_SUBMIT = """\
#!/usr/bin/env bash
# stands in for Spark's spark-submit: records that it ran and with which --py-files, then behaves as told
echo "$@" > "$FAKE_LOG"
echo "WARNING: Using incubator modules: jdk.incubator.vector" >&2
case "$FAKE_MODE" in
  interrupt) echo "a line the job printed"; : > "$REBALANCE_LENS_INTERRUPT_FILE"
             echo "26/11/26 ERROR DAGScheduler: Failed to update accumulator" >&2; exit 130;;
  *) echo "26/11/26 WARN Something: a warning the user should see" >&2; exit 7;;
esac
"""


@pytest.fixture
def submit(tmp_path):
    """Run ./spark-submit.sh with a fake spark-submit (no JVM): (returncode, stdout, stderr, log)."""
    home = tmp_path / "spark"
    (home / "bin").mkdir(parents=True)
    fake = home / "bin" / "spark-submit"
    fake.write_text(FAKE_SUBMIT)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    log = tmp_path / "fake.log"

    def run(*args: str, mode: str = "fail"):
        env = {**os.environ, "REBALANCE_LENS_NO_VENV": "1", "SPARK_HOME": str(home), "TMPDIR": str(tmpdir),
               "FAKE_LOG": str(log), "FAKE_MODE": mode,
               "PATH": f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
        env.pop("REBALANCE_LENS_INTERRUPT_FILE", None)
        p = subprocess.run([str(ROOT / "spark-submit.sh"), *args], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=120)  # fmt: skip
        return p.returncode, p.stdout, p.stderr, log, tmpdir

    return run


def test_wrong_arguments_are_refused_before_the_jvm_starts(submit, tmp_path):
    code, _out, err, log, tmpdir = submit("--input", str(tmp_path / "nope.log"), "--mode", "weekly")
    assert code == 2 and "config error: argument --mode: invalid choice: 'weekly'" in err
    assert not log.exists() and list(tmpdir.iterdir()) == []
    code, _out, err, log, _ = submit("--input", str(tmp_path / "nope.log"))
    assert code == 1 and err.strip() == f"input error: {tmp_path / 'nope.log'} does not exist"
    assert not log.exists()


def test_a_run_leaves_no_temporary_files_and_no_incubator_notice(submit, tmp_path):
    (tmp_path / "server.log").write_text("[2024-05-14 10:00:00,000] INFO hello (kafka.Kafka)\n")
    code, _out, err, log, tmpdir = submit("--input", str(tmp_path / "server.log"), "--output", str(tmp_path / "lh"))
    assert code == 7  # spark-submit's status is the script's
    zip_arg = log.read_text().split("--py-files ", 1)[1].split(" ", 1)[0]
    assert zip_arg.endswith("rebalance_lens.zip") and zip_arg.startswith(str(tmpdir))
    assert list(tmpdir.iterdir()) == []  # the zip's folder is gone once spark-submit returns
    assert "incubator" not in err and "WARN Something: a warning the user should see" in err


def test_ctrl_c_under_spark_submit_is_one_line_and_130(submit, tmp_path):
    """The driver touches the interrupt file and exits 130: what the JVM logs afterwards is dropped."""
    (tmp_path / "server.log").write_text("x\n")
    code, out, err, _log, tmpdir = submit("--input", str(tmp_path / "server.log"), "--output", str(tmp_path / "lh"),
                                          mode="interrupt")  # fmt: skip
    assert code == 130 and err == "" and out == "a line the job printed\n"
    assert list(tmpdir.iterdir()) == []


def test_ctrl_c_in_the_job_prints_one_line_and_exits_130(tmp_path):
    marker = tmp_path / "interrupted"
    code = textwrap.dedent("""
        import os, signal, time
        from jobs import cli
        signal.signal(signal.SIGINT, cli.on_interrupt)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                       env={**os.environ, "REBALANCE_LENS_INTERRUPT_FILE": str(marker)})  # fmt: skip
    assert p.returncode == 130 == 128 + signal.SIGINT
    assert p.stderr == f"\n{cli.INTERRUPTED}\n" and p.stdout == ""
    assert marker.exists()


def test_input_without_output_writes_a_new_folder_never_the_samples(monkeypatch, tmp_path):
    monkeypatch.setenv("REBALANCE_LENS_RUN_STAMP", "20240514-100000")
    cfg, _ = cli.resolve_config(cli.parse_args(["--input", str(tmp_path)]))
    assert cfg.output.path == run_output_dir("20240514-100000") == "./lakehouse-20240514-100000"
    cfg, _ = cli.resolve_config(cli.parse_args(["--input", str(tmp_path), "--output", "/x/lh"]))
    assert cfg.output.path == "/x/lh"
    cfg, _ = cli.resolve_config(cli.parse_args(["--sample"]))
    assert cfg.output.path == "./lakehouse"  # the sample's own folder
    conf = tmp_path / "c.yaml"
    conf.write_text("output:\n  path: /data/lh\n")
    cfg, _ = cli.resolve_config(cli.parse_args(["--input", str(tmp_path), "--config", str(conf)]))
    assert cfg.output.path == "/data/lh"  # a folder the user chose in the config


def test_an_input_that_gives_no_file_says_why(tmp_path, monkeypatch, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / ".keep").write_text("")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "server.log").write_text("x\n")
    assert input_problem(str(tmp_path / "logs")) is None
    assert input_problem(str(tmp_path / "logs" / "*.log")) is None
    assert input_problem(str(tmp_path / "nope")) == f"{tmp_path / 'nope'} does not exist"
    assert input_problem(str(tmp_path / "empty")) == (
        f"the directory {tmp_path / 'empty'} is empty (no log file in it or below it)")  # fmt: skip
    assert "is empty" in input_problem(str(tmp_path / "hidden"))  # hidden files are not read
    assert input_problem(str(tmp_path / "logs" / "*.gz")) == f"no file matches {tmp_path / 'logs' / '*.gz'}"
    assert input_problem(str(tmp_path / "gone" / "*.log")) == (
        f"no file matches {tmp_path / 'gone' / '*.log'} (and {tmp_path / 'gone'} does not exist)")  # fmt: skip
    assert input_problem("s3://bucket/logs/") is None  # object stores: Spark lists them
    monkeypatch.setattr(cli, "build_session", lambda cfg: pytest.fail("Spark must not start"))
    assert cli.main(["--input", str(tmp_path / "empty"), "--input", str(tmp_path / "logs" / "*.gz")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("input error: the directory ") and "; no file matches " in err
    # ingest.on_missing: quarantine keeps the old behaviour (a quarantine row per missing path)
    conf = tmp_path / "q.yaml"
    conf.write_text("ingest:\n  on_missing: quarantine\n")
    monkeypatch.setenv(cli.CHECK_ONLY_ENV, "1")
    assert cli.main(["--input", str(tmp_path / "nope"), "--config", str(conf), "--output", str(tmp_path / "lh")]) == 0


def test_setup_lists_every_folder_it_ships_so_setuptools_does_not_warn(monkeypatch):
    """setuptools warns ("Package would be ignored", ~40 lines) when package data lies in a folder
    Python could import that is not in ``packages``: every folder under jobs/ and coordinator_core/
    holding shipped files is a listed package, and every sample log is package data of one."""
    import setuptools

    seen = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"), run_name="__main__")
    packages, data = set(seen["packages"]), seen["package_data"]
    for top in ("jobs", "coordinator_core"):
        for d, dirs, files in os.walk(ROOT / top):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            if files:
                pkg = pathlib.Path(d).relative_to(ROOT).as_posix().replace("/", ".")
                assert pkg in packages, pkg
    samples = ROOT / "jobs" / "samples" / "logs"
    for f in samples.rglob("*"):
        if f.is_file():
            pkg = f.parent.relative_to(ROOT).as_posix().replace("/", ".")
            assert data.get(pkg) == ["*"], pkg
    assert data["jobs.samples"] == ["*.md"]
