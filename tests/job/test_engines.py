"""Real engines: a standalone Spark cluster (master + worker on 127.0.0.1) through ./spark-submit.sh,
and a local Spark Connect server through SparkSession.builder.remote(). Both must give the tables
of a local run. These tests start their own JVMs (free ports, timeouts, teardown by process group).
"""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from tests.job.helpers import REPLAY_TABLES, REPO, SAMPLE_INPUTS, rows

pytestmark = [pytest.mark.engines, pytest.mark.spark, pytest.mark.slow]

PYSPARK_HOME = os.path.dirname(__import__("pyspark").__file__)
COMPARED = (*REPLAY_TABLES,)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(log: str, n: int = 3000) -> str:
    with open(log, encoding="utf-8", errors="replace") as fh:
        return fh.read()[-n:]


def _wait_port(port: int, proc: subprocess.Popen, log: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode}: {_tail(log)}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.5)
    raise TimeoutError(f"port {port} did not open in {timeout}s: {_tail(log)}")


class _Procs:
    """Processes started by a test, each in its own process group; stopped at teardown."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
        log = os.path.join(self.tmp, f"{name}.log")
        fh = open(log, "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=self.tmp,
                                start_new_session=True)  # fmt: skip
        self.procs.append(proc)
        return proc, log

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=10)


def _base_env(tmp) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SPARK_HOME", "PYSPARK_GATEWAY_PORT")
    }
    env.update(SPARK_HOME=PYSPARK_HOME, PYSPARK_PYTHON=sys.executable, TZ="UTC", SPARK_LOCAL_IP="127.0.0.1",
               SPARK_LOG_DIR=str(tmp), SPARK_WORKER_DIR=os.path.join(str(tmp), "work"))  # fmt: skip
    return env


@pytest.fixture(scope="module")
def local_baseline(sample_job):
    """The local batch run over the samples: the session-wide ``sample_job`` (read only)."""
    return sample_job[0]


def _bare_python(tmp) -> str:
    """A python that sees the venv's libraries but NOT the editable rebalance-lens install, so the
    executors can only import the job from the shipped --py-files zip."""
    import site
    import sysconfig

    venv = os.path.join(str(tmp), "bare-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    purelib = sysconfig.get_paths(vars={"base": venv, "platbase": venv})["purelib"]
    deps = [p for p in site.getsitepackages() if os.path.isdir(p)]
    with open(os.path.join(purelib, "venv_deps.pth"), "w") as fh:  # a plain path: its .pth files don't run
        fh.write("\n".join(deps) + "\n")
    py = os.path.join(venv, "bin", "python")
    probe = subprocess.run([py, "-c", "import pyspark, pandas, pyarrow\ntry:\n import jobs\n print('visible')\n"
                            "except ImportError:\n print('hidden')"], capture_output=True, text=True, timeout=60,
                           cwd=str(tmp))  # fmt: skip
    assert probe.stdout.strip() == "hidden", probe.stdout + probe.stderr
    return py


def test_standalone_cluster_via_spark_submit(local_baseline, tmp_path):
    procs = _Procs(str(tmp_path))
    env = _base_env(tmp_path)
    spark_class = os.path.join(PYSPARK_HOME, "bin", "spark-class")
    port, ui = _free_port(), _free_port()
    try:
        master, mlog = procs.start("master", [spark_class, "org.apache.spark.deploy.master.Master", "--host",
                                              "127.0.0.1", "--port", str(port), "--webui-port", str(ui)], env)  # fmt: skip
        _wait_port(port, master, mlog)
        wport, wui = _free_port(), _free_port()
        worker, wlog = procs.start("worker", [spark_class, "org.apache.spark.deploy.worker.Worker",
                                              f"spark://127.0.0.1:{port}", "--host", "127.0.0.1", "--port",
                                              str(wport), "--webui-port", str(wui), "-c", "1", "-m", "2g"], env)  # fmt: skip
        _wait_port(wport, worker, wlog)
        lake = str(tmp_path / "lakehouse")
        run_env = dict(env, REBALANCE_LENS_NO_VENV="1", REBALANCE_LENS_EXECUTOR_PYTHON=_bare_python(tmp_path),
                       REBALANCE_LENS_DRIVER_MEMORY="2g")  # fmt: skip
        # two clusters: the config file form (--cluster names the cluster of every --input)
        cfg = tmp_path / "engines.yaml"
        cfg.write_text("inputs:\n" + "".join(f"  - {{path: {p}, cluster: {c}}}\n" for p, c in SAMPLE_INPUTS)
                       + "storms: {min_rebalances: 3, window_minutes: 10}\nspark: {master: null}\n")  # fmt: skip
        argv = [os.path.join(REPO, "spark-submit.sh"), "--config", str(cfg), "--master", f"spark://127.0.0.1:{port}",
                "--output", lake, "--quiet"]  # fmt: skip
        done = subprocess.run(
            argv, env=run_env, cwd=str(tmp_path), capture_output=True, text=True, timeout=1200
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
        assert "rebalances: 16, storms: 1" in done.stdout
        # the executors ran in the worker's work dir and fetched the shipped zip
        shipped = glob.glob(os.path.join(str(tmp_path), "work", "app-*", "*", "rebalance_lens.zip"))
        assert shipped, os.listdir(os.path.join(str(tmp_path), "work"))
        for name in COMPARED:
            assert rows(lake, name) == rows(local_baseline, name), name
    finally:
        procs.stop()


def test_spark_connect_server(local_baseline, tmp_path):
    pytest.importorskip("grpc")
    pytest.importorskip("zstandard")
    procs = _Procs(str(tmp_path))
    env = _base_env(tmp_path)
    port = _free_port()
    try:
        server, slog = procs.start(
            "connect",
            [os.path.join(PYSPARK_HOME, "bin", "spark-submit"), "--class",
             "org.apache.spark.sql.connect.service.SparkConnectServer", "--conf",
             f"spark.connect.grpc.binding.port={port}", "--conf", "spark.sql.session.timeZone=UTC",
             "--conf", "spark.sql.shuffle.partitions=4", "--conf", "spark.ui.enabled=false",
             "--conf", f"spark.pyspark.python={sys.executable}", "spark-internal"],
            env,
        )  # fmt: skip
        _wait_port(port, server, slog, timeout=180)
        lake = str(tmp_path / "lakehouse")
        cfg = tmp_path / "connect.yaml"
        cfg.write_text("inputs:\n" + "".join(f"  - {{path: {p}, cluster: {c}}}\n" for p, c in SAMPLE_INPUTS)
                       + "storms: {min_rebalances: 3, window_minutes: 10}\n")  # fmt: skip
        run_env = dict(env, REBALANCE_LENS_NO_VENV="1")
        argv = [os.path.join(REPO, "spark-submit.sh"), "--config", str(cfg), "--remote", f"sc://127.0.0.1:{port}",
                "--output", lake, "--quiet"]  # fmt: skip
        done = subprocess.run(
            argv, env=run_env, cwd=str(tmp_path), capture_output=True, text=True, timeout=1200
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
        assert "rebalances: 16, storms: 1" in done.stdout
        for name in COMPARED:
            assert rows(lake, name) == rows(local_baseline, name), name
    finally:
        procs.stop()
