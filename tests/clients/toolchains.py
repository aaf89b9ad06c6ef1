"""The Go and Node.js consumers of the recorded corpus (``tests/clients/go``, ``tests/clients/node``):
how each is started, and whether its toolchain is installed here.

* sarama and segmentio/kafka-go are the Debian packages ``golang-github-shopify-sarama-dev`` and
  ``golang-github-segmentio-kafka-go-dev`` (sources under ``/usr/share/gocode``), built with Debian's
  ``golang-go`` in GOPATH mode into :data:`DEPS` (never into the repository).
* kafkajs comes from npm, installed into :data:`DEPS` (``npm install --prefix $DEPS kafkajs@2.2.4``);
  the consumer finds it through ``NODE_PATH``.
* The applications built on clients (faust, arroyo) and the older Python client releases
  (kafka-python 2.0, aiokafka 0.8, confluent-kafka 2.0.2 with its librdkafka 2.0.2) run with the Python of their own virtualenv under :data:`VENVS`
  (``python3.11 -m venv $CLIENT_VENVS/faust && $CLIENT_VENVS/faust/bin/pip install faust-streaming``),
  so that the shared virtualenv's clients stay as they are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GOPATH = "/usr/share/gocode"
#: where the Go builds and node_modules live (outside the repository)
DEPS = os.environ.get("CLIENT_DEPS", os.path.join(tempfile.gettempdir(), "rebalance-lens-client-deps"))

GO_PROGRAMS = {"sarama": "sarama_consumer.go", "kafka-go": "kafkago_consumer.go"}
#: what every Go consumer shares (spec, truth file, the wait for "close"), built with each program
GO_SHARED = "scenario.go"
GO_SOURCES = {"sarama": "github.com/Shopify/sarama", "kafka-go": "github.com/segmentio/kafka-go"}
NODE_PROGRAMS = {"kafkajs": "kafkajs_consumer.js"}
#: where the separate virtualenvs live (outside the repository)
VENVS = os.environ.get("CLIENT_VENVS", os.path.join(DEPS, "venvs"))
#: library -> (its virtualenv under VENVS, the consumer module it runs, the package that must import)
VENV_PROGRAMS = {
    "faust": ("faust", "tests.clients.apps.faust_app", "faust"),
    "arroyo": ("arroyo", "tests.clients.apps.arroyo_app", "arroyo"),
    "kafka-python-2.0": ("kp202", "tests.clients.consumer", "kafka"),
    "aiokafka-0.8": ("aio08", "tests.clients.consumer", "aiokafka"),
    "librdkafka-2.0": ("rdk20", "tests.clients.consumer", "confluent_kafka"),
}
ROOT = os.path.dirname(os.path.dirname(HERE))
#: the applications built on clients (their consumer programs are tests/clients/apps/*)
APPS = ("faust", "arroyo")


def _venv_python(lib: str) -> str:
    return os.path.join(VENVS, VENV_PROGRAMS[lib][0], "bin", "python")


def available(lib: str) -> bool:
    """The toolchain and the library's sources are installed here."""
    if lib in GO_PROGRAMS:
        return shutil.which("go") is not None and os.path.isdir(os.path.join(GOPATH, "src", GO_SOURCES[lib]))
    if lib in NODE_PROGRAMS:
        return shutil.which("node") is not None and os.path.isdir(os.path.join(DEPS, "node_modules", lib))
    if lib in VENV_PROGRAMS:
        py = _venv_python(lib)
        return os.path.exists(py) and subprocess.run(
            [py, "-c", f"import {VENV_PROGRAMS[lib][2]}"], capture_output=True, check=False
        ).returncode == 0
    return False


def _go_env() -> dict[str, str]:
    return {**os.environ, "GO111MODULE": "off", "GOPATH": GOPATH, "GOCACHE": os.path.join(DEPS, "gocache")}


def build(lib: str) -> str:
    """Build the Go consumer of ``lib`` into DEPS (once a process) and return the binary's path."""
    out = os.path.join(DEPS, "gobin", lib.replace("-", "") + "_consumer")
    srcs = [os.path.join(HERE, "go", GO_PROGRAMS[lib]), os.path.join(HERE, "go", GO_SHARED)]
    src = srcs[0]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not os.path.exists(out) or os.path.getmtime(out) < max(map(os.path.getmtime, srcs)):
        subprocess.run(["go", "build", *_overlay(lib), "-o", out, *srcs], check=True, env=_go_env(),
                       cwd=os.path.dirname(src), stderr=subprocess.DEVNULL)  # fmt: skip
    return out


def _overlay(lib: str) -> list[str]:
    """kafka-go's consumer reads the Reader's group state through a file added to the package at build
    time (``go build -overlay``; the installed sources stay as they are)."""
    if lib != "kafka-go":
        return []
    hook = os.path.join(HERE, "go", "kafkago_hook", "truth_hook.go.in")
    target = os.path.join(GOPATH, "src", GO_SOURCES[lib], "zz_rebalance_lens_truth_hook.go")
    path = os.path.join(DEPS, "kafkago_overlay.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"Replace": {target: hook}}, fh)
    return ["-overlay", path]


def command(lib: str, spec_json: str) -> tuple[list[str], dict[str, str] | None]:
    """The command line (and environment) of one consumer process of ``lib``."""
    if lib in GO_PROGRAMS:
        return [build(lib), spec_json], None
    if lib in NODE_PROGRAMS:
        env = {**os.environ, "NODE_PATH": os.path.join(DEPS, "node_modules")}
        return ["node", os.path.join(HERE, "node", NODE_PROGRAMS[lib]), spec_json], env
    if lib in VENV_PROGRAMS:
        env = {**os.environ, "PYTHONPATH": ROOT}
        return [_venv_python(lib), "-m", VENV_PROGRAMS[lib][1], spec_json], env
    raise KeyError(lib)
