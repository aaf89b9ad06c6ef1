"""Record the client-log corpus: real client libraries against librdkafka's mock cluster.

``python -m tests.clients.record [--out DIR] [--only LIB[/SCENARIO]]`` runs every scenario of
:data:`SCENARIOS` for each library (confluent-kafka / librdkafka, kafka-python, aiokafka): each
consumer is its own process (:mod:`tests.clients.consumer`) writing its library's log and the truth
from its own rebalance callbacks; the recorder starts, closes, SIGKILLs and stalls them. Into
``DIR/<library>/<scenario>/`` it writes one ``<consumer>.log`` per consumer process and
``truth.json`` (:func:`truth_of`: the callbacks, each process's lifecycle, and the rebalances and
member sessions they imply). See docs/client-logs.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from tests.clients import toolchains
from tests.clients.mock import MockCluster
from tests.clients.truth import truth_of

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "clients")
TOPIC = "orders"
SESSION_MS = 3000
MAX_POLL_MS = 4000
STALL_S = 6.5
QUIET_S = 1.2  # a rebalance is over when no callback came for this long

#: per library: consumer configuration (short timeouts so that each scenario runs in seconds)
CONFIG: dict[str, dict[str, Any]] = {
    "librdkafka": {
        "session.timeout.ms": SESSION_MS, "heartbeat.interval.ms": 500, "max.poll.interval.ms": MAX_POLL_MS,
        "debug": "cgrp",
    },
    "kafka-python": {
        "session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "max_poll_interval_ms": MAX_POLL_MS,
    },
    "aiokafka": {
        "session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "max_poll_interval_ms": MAX_POLL_MS,
        "rebalance_timeout_ms": MAX_POLL_MS,
    },
    # the Go and Node.js consumers (tests/clients/go, tests/clients/node) read the same keys
    "sarama": {"session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "rebalance_timeout_ms": MAX_POLL_MS},
    "kafka-go": {"session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "max_wait_ms": 1000},
    "kafkajs": {"session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "rebalance_timeout_ms": MAX_POLL_MS,
                "max_wait_ms": 250},
    # the older Python client releases and the applications built on clients, each in its own virtualenv
    "kafka-python-2.0": {
        "session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "max_poll_interval_ms": MAX_POLL_MS,
    },
    "aiokafka-0.8": {
        "session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500, "max_poll_interval_ms": MAX_POLL_MS,
        "rebalance_timeout_ms": MAX_POLL_MS,
    },
    "librdkafka-2.0": {
        "session.timeout.ms": SESSION_MS, "heartbeat.interval.ms": 500, "max.poll.interval.ms": MAX_POLL_MS,
        "debug": "cgrp",
    },
    # (faust keeps its own max.poll.interval: with 4 s its consumer leaves silently while its tables recover)
    "faust": {"session_timeout_ms": SESSION_MS, "heartbeat_interval_ms": 500},
    "arroyo": {"session.timeout.ms": SESSION_MS, "heartbeat.interval.ms": 500, "max.poll.interval.ms": MAX_POLL_MS},
}  # fmt: skip
#: libraries whose consumer is a Go or Node.js program (tests/clients/toolchains.py)
NATIVE = ("sarama", "kafka-go", "kafkajs")
#: libraries run with the Python of their own virtualenv (tests/clients/toolchains.py)
VENV = ("kafka-python-2.0", "aiokafka-0.8", "librdkafka-2.0", "faust", "arroyo")
_ALL = ("librdkafka", "kafka-python", "aiokafka", *NATIVE, *VENV)
#: the Python clients' poll deadline (max.poll.interval.ms); kafkajs has none either (its own loop polls)
_POLL_DEADLINE = ("librdkafka", "kafka-python", "aiokafka", "kafka-python-2.0", "aiokafka-0.8", "librdkafka-2.0")


#: topics an application needs besides TOPIC, created on the mock cluster first: (name of group, partitions)
EXTRA_TOPICS: dict[str, tuple[tuple[str, int], ...]] = {
    "faust": (("{group}-__assignor-__leader", 1), ("{group}-counts-changelog", 4)),
}


@dataclass
class Scenario:
    name: str
    steps: list[tuple]  # ("start", who) ("close", who) ("kill", who) ("stall", who) ("unsubscribe", who)
    libraries: tuple[str, ...] = _ALL
    config: dict[str, dict[str, Any]] = field(default_factory=dict)  # per library, over CONFIG
    spec: dict[str, Any] = field(default_factory=dict)  # extra consumer spec (log level, logger)


_CLOSE_ALL = [("close", "c1"), ("close", "c2")]
SCENARIOS: tuple[Scenario, ...] = (
    Scenario("scale_up", [("start", "c1"), ("start", "c2"), ("start", "c3"), ("close", "c3"), *_CLOSE_ALL]),
    Scenario("clean_leave", [("start", "c1"), ("start", "c2"), ("start", "c3"), ("close", "c2"), ("close", "c3"), ("close", "c1")]),
    Scenario("sigkill", [("start", "c1"), ("start", "c2"), ("start", "c3"), ("kill", "c2"), ("close", "c3"), ("close", "c1")]),
    Scenario("rolling_restart", [("start", "c1"), ("start", "c2"), ("close", "c1"), ("start", "c1b"), ("close", "c2"),
                                 ("start", "c2b"), ("close", "c1b"), ("close", "c2b")]),
    Scenario("max_poll", [("start", "c1"), ("start", "c2"), ("stall", "c2"), *_CLOSE_ALL], libraries=_POLL_DEADLINE),
    Scenario("cooperative", [("start", "c1"), ("start", "c2"), ("start", "c3"), ("close", "c2"), ("close", "c3"), ("close", "c1")],
             libraries=("librdkafka", "librdkafka-2.0"),
             config={lib: {"partition.assignment.strategy": "cooperative-sticky"} for lib in ("librdkafka", "librdkafka-2.0")}),
    Scenario("consumer_protocol", [("start", "c1"), ("start", "c2"), ("start", "c3"), ("close", "c2"), ("kill", "c3"), ("close", "c1")],
             libraries=("librdkafka",), config={"librdkafka": {"group.protocol": "consumer", "session.timeout.ms": None,
                                                               "heartbeat.interval.ms": None}}),
    Scenario("consumer_protocol_max_poll", [("start", "c1"), ("start", "c2"), ("stall", "c2"), *_CLOSE_ALL],
             libraries=("librdkafka",), config={"librdkafka": {"group.protocol": "consumer", "session.timeout.ms": None,
                                                               "heartbeat.interval.ms": None}}),
    Scenario("consumer_protocol_regex", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")],
             libraries=("librdkafka",), config={"librdkafka": {"group.protocol": "consumer", "session.timeout.ms": None,
                                                               "heartbeat.interval.ms": None}}, spec={"topic": "^ord.*"}),
    Scenario("consumer_protocol_unsubscribe", [("start", "c1"), ("start", "c2"), ("unsubscribe", "c2"), *_CLOSE_ALL],
             libraries=("librdkafka",), config={"librdkafka": {"group.protocol": "consumer", "session.timeout.ms": None,
                                                               "heartbeat.interval.ms": None}}),
    # the same library at other log settings: librdkafka through confluent-kafka's Python logger=, and
    # without debug (its default: warnings and errors only); the Python clients at DEBUG
    Scenario("python_logger", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")],
             libraries=("librdkafka",), spec={"python_logger": True}),
    Scenario("no_debug", [("start", "c1"), ("start", "c2"), ("stall", "c2"), *_CLOSE_ALL],
             libraries=("librdkafka",), config={"librdkafka": {"debug": None}}),
    Scenario("debug", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")],
             libraries=("kafka-python", "aiokafka", "kafkajs", "kafka-python-2.0", "aiokafka-0.8"), spec={"level": "DEBUG"}),
)  # fmt: skip


class Run:
    """One scenario of one library, recording into ``out``."""

    def __init__(self, lib: str, sc: Scenario, out: str, bootstrap: str, group: str) -> None:
        self.lib, self.sc, self.out, self.bootstrap, self.group = lib, sc, out, bootstrap, group
        self.procs: dict[str, subprocess.Popen] = {}
        #: consumers that unsubscribed: running, in no group (closed later)
        self.idle: dict[str, subprocess.Popen] = {}
        self.truth = os.path.join(out, "callbacks.jsonl")
        self.actions: list[dict[str, Any]] = []

    def _spec(self, who: str) -> dict[str, Any]:
        conf = {**CONFIG[self.lib], **self.sc.config.get(self.lib, {})}
        conf = {k: v for k, v in conf.items() if v is not None}
        return {
            "library": self.lib, "who": who, "bootstrap": self.bootstrap, "group": self.group, "topic": TOPIC,
            "truth": self.truth, "config": conf, **self.sc.spec,
        }  # fmt: skip

    def _callbacks(self) -> list[dict[str, Any]]:
        if not os.path.exists(self.truth):
            return []
        with open(self.truth, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def settle(self, since: float, limit: float = 15.0) -> None:
        """Wait until every live consumer got its ``assigned`` callback after ``since`` (epoch s) as
        the last of its rebalance callbacks, and no callback came for QUIET_S."""
        t0 = time.time()
        while time.time() - t0 < limit:
            time.sleep(0.2)
            cbs = self._callbacks()
            last = max((c["t"] for c in cbs), default=0) / 1000
            if time.time() < since or time.time() - last < QUIET_S:
                continue
            done = True
            for who in self.procs:
                mine = [c for c in cbs if c["who"] == who and c["what"] in ("assigned", "revoked", "lost")]
                if not mine or mine[-1]["what"] != "assigned" or mine[-1]["t"] / 1000 < since:
                    done = False
            if done:
                return

    def step(self, step: tuple) -> None:
        what, who = step[0], step[1] if len(step) > 1 else None
        now = time.time()
        self.actions.append({"t": int(time.time() * 1000), "action": what, "who": who})
        if what == "start":
            log = open(os.path.join(self.out, f"{who}.log"), "wb")  # noqa: SIM115 - the child's stderr
            spec = json.dumps(self._spec(who))
            cmd, env = ([sys.executable, "-m", "tests.clients.consumer", spec], None)
            if self.lib in NATIVE or self.lib in VENV:
                cmd, env = toolchains.command(self.lib, spec)
            # the Go and Node.js programs and the applications log where their users' programs do
            # (stdout, stderr): both
            out = log if self.lib in NATIVE or self.lib in toolchains.APPS else subprocess.DEVNULL
            self.procs[who] = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=out, stderr=log, cwd=ROOT, env=env,
            )  # fmt: skip
            log.close()
            self.settle(now)
        elif what == "unsubscribe":
            p = self.procs.pop(who)
            self.idle[who] = p
            p.stdin.write(b"unsubscribe\n")
            p.stdin.flush()
            self.settle(now)
        elif what == "close":
            p = self.procs.pop(who) if who in self.procs else self.idle.pop(who)
            p.stdin.write(b"close\n")
            p.stdin.flush()
            p.wait(timeout=30)
            self.settle(now)
        elif what == "kill":
            p = self.procs.pop(who)
            p.send_signal(signal.SIGKILL)
            p.wait()
            self.settle(now + SESSION_MS / 1000)
        elif what == "stall":
            p = self.procs[who]
            p.stdin.write(f"stall {STALL_S}\n".encode())
            p.stdin.flush()
            self.settle(now + STALL_S)

    def run(self) -> dict[str, Any]:
        try:
            for st in self.sc.steps:
                self.step(st)
        finally:
            for p in [*self.procs.values(), *self.idle.values()]:
                p.kill()
        truth = truth_of(self._callbacks(), self.actions, self.lib, self.sc.name, self.group)
        os.remove(self.truth)
        with open(os.path.join(self.out, "truth.json"), "w", encoding="utf-8") as fh:
            json.dump(truth, fh, indent=1, sort_keys=True)
            fh.write("\n")
        return truth


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def compress(out: str) -> None:
    """gzip each consumer's log (the corpus is kept small; the scorer reads both)."""
    for f in os.listdir(out):
        if f.endswith(".log"):
            path = os.path.join(out, f)
            with open(path, "rb") as src, gzip.GzipFile(path + ".gz", "wb", compresslevel=9, mtime=0) as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)


def record(lib: str, sc: Scenario, out_root: str, gz: bool = True) -> dict[str, Any]:
    out = os.path.join(out_root, lib, sc.name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    group = f"{sc.name.replace('_', '-')}-{lib.replace('-', '')}"
    with MockCluster() as mc:
        mc.topic(TOPIC, 4)
        for name, partitions in EXTRA_TOPICS.get(lib, ()):
            mc.topic(name.format(group=group), partitions)
        mc.initial_rebalance_delay(0)
        mc.consumer_protocol_timeouts(SESSION_MS, 500)
        truth = Run(lib, sc, out, mc.bootstraps, group).run()
    if gz:
        compress(out)
    return truth


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT_DIR)
    ap.add_argument("--only", default="", help="LIB or LIB/SCENARIO")
    a = ap.parse_args(argv)
    for sc in SCENARIOS:
        for lib in sc.libraries:
            if a.only and a.only not in (lib, f"{lib}/{sc.name}"):
                continue
            t0 = time.time()
            truth = record(lib, sc, a.out)
            print(f"{lib}/{sc.name}: {len(truth['rebalances'])} rebalances, {len(truth['sessions'])} sessions "
                  f"({time.time() - t0:.1f}s)", flush=True)  # fmt: skip


def record_to_temp(lib: str, sc: Scenario) -> tuple[str, dict[str, Any]]:
    """Record one scenario into a new temporary directory (the live test)."""
    root = tempfile.mkdtemp(prefix="clients-")
    return os.path.join(root, lib, sc.name), record(lib, sc, root, gz=False)


if __name__ == "__main__":
    main()
