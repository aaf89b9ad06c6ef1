"""Client-only reconstruction against real client libraries: from the logs of confluent-kafka
(librdkafka), kafka-python and aiokafka consumers alone, every rebalance they went through (the truth:
their own rebalance callbacks) is found with its end, member sessions end with the right reason, and
no group is invented. The Go and Node.js clients (sarama 1.22, kafka-go 0.2, kafkajs 2.2), the
applications built on clients (faust, arroyo) and the older releases (kafka-python 2.0, aiokafka 0.8)
are held to what their logs can give (docs/client-logs.md); over every client library, at least 95 % of
the rebalances are found with their end (arroyo, an application whose lines name no group, is scored
apart: from its logs alone and with its input's group). The corpus is ``tests/fixtures/clients``
(``python -m tests.clients.record``); one short scenario is also recorded live when the client packages
(or, for the Go and Node.js clients, their toolchains and CLIENT_DEPS) are installed."""

from __future__ import annotations

import importlib.util
import os
from collections import defaultdict

import pytest

from tests.clients import toolchains
from tests.clients.score import APPLICATIONS, CORPUS, NOT_SCORED, Score, scenario_dirs, score_dir

LIBRARIES = ("librdkafka", "kafka-python", "aiokafka")
#: the Go and Node.js clients (tests/clients/go, tests/clients/node)
NATIVE = ("sarama", "kafka-go", "kafkajs")
#: the older Python client releases and the applications built on clients, each from its own virtualenv
#: (tests/clients/toolchains.py VENV_PROGRAMS, tests/clients/apps)
VENV = ("kafka-python-2.0", "aiokafka-0.8", "librdkafka-2.0", "faust", "arroyo")


@pytest.fixture(scope="module")
def scores() -> dict[str, Score]:
    return {s.name: s for s in map(score_dir, scenario_dirs())}


def _by_library(scores: dict[str, Score]) -> dict[str, Score]:
    out: dict[str, Score] = defaultdict(lambda: Score("?"))
    for name, s in scores.items():
        if name in NOT_SCORED:
            continue
        out[name.split("/")[0]].add(s)
    return out


def test_the_corpus_covers_every_library_and_scenario(scores):
    libs = {n.split("/")[0] for n in scores}
    assert libs == {*LIBRARIES, *NATIVE, *VENV}
    for lib in (*LIBRARIES, *NATIVE, *VENV):
        python = lib in ("kafka-python", "aiokafka", "kafka-python-2.0", "aiokafka-0.8")
        deadline = python or lib in ("librdkafka", "librdkafka-2.0")
        for sc in ("scale_up", "clean_leave", "sigkill", "rolling_restart", *(("max_poll",) if deadline else ()),
                   *(("debug",) if python else ())):
            assert f"{lib}/{sc}" in scores
    assert "kafkajs/debug" in scores
    assert {
        "librdkafka/cooperative", "librdkafka/consumer_protocol", "librdkafka/consumer_protocol_max_poll",
        "librdkafka/consumer_protocol_regex", "librdkafka/consumer_protocol_unsubscribe", "librdkafka/python_logger",
    } <= set(scores)  # fmt: skip


@pytest.mark.parametrize("library", LIBRARIES)
def test_rebalances_are_found_with_their_end(scores, library):
    s = _by_library(scores)[library]
    assert s.rebalances >= 10
    assert s.found / s.rebalances >= 0.95, f"{library}: {s.found}/{s.rebalances}"


@pytest.mark.parametrize("library", LIBRARIES)
def test_causes_and_session_ends(scores, library):
    s = _by_library(scores)[library]
    assert s.causes_ok / s.causes >= 0.85, f"{library}: causes {s.causes_ok}/{s.causes}"
    assert s.sessions_ok / s.sessions >= 0.9, f"{library}: sessions {s.sessions_ok}/{s.sessions}"


@pytest.mark.parametrize(
    "scenario", ["consumer_protocol", "consumer_protocol_max_poll", "consumer_protocol_regex", "consumer_protocol_unsubscribe"]
)
def test_the_consumer_protocol_from_heartbeat_lines(scores, scenario):
    """librdkafka with ``group.protocol=consumer``: the members' heartbeat lines (epoch 0 joins, -1
    leaves, a poll-timeout leave, heartbeats that stop) give every cause and every session end."""
    s = scores[f"librdkafka/{scenario}"]
    assert (s.found, s.causes_ok, s.sessions_ok) == (s.rebalances, s.causes, s.sessions), s.misses


def test_kafka_go_rebalances_are_found_from_its_reader_lines(scores):
    """kafka-go 0.2's Reader logs each round (rebalancing, joinGroup succeeded with the generation, sync
    group finished): every rebalance is found with its end. It logs nothing when it leaves the group on
    Close(), so a clean leave reads as a member that stopped logging (session_timeout) - and the
    rebalance it causes has that cause."""
    s = _by_library(scores)["kafka-go"]
    assert (s.rebalances, s.found, s.causes, s.causes_ok, s.sessions, s.sessions_ok) == (23, 23, 22, 14, 13, 1), s.misses
    assert s.quarantined == 0


def test_kafkajs_at_debug_and_at_info_gives_every_rebalance(scores):
    """kafkajs logs the generation only at DEBUG (its JoinGroup response's data, 'Received assignment'):
    there every rebalance, cause and leave is read. At INFO its lines name no generation: its
    joined-after-sync line of a member the group has not seen is that member's arrival (the group's
    first round, which no line starts, included), the same line of the other members ends the rebalance
    that 'The group is rebalancing, re-joining' began, and '[Consumer] Stopped' (logged after its
    LeaveGroup) is the member's leave; a killed member logs nothing after the rebalance began."""
    d = scores["kafkajs/debug"]
    assert (d.rebalances, d.found, d.causes_ok, d.sessions_ok) == (3, 3, d.causes, d.sessions) and d.causes == 3, d.misses
    s = _by_library(scores)["kafkajs"]
    assert (s.rebalances, s.found, s.causes, s.causes_ok, s.sessions, s.sessions_ok, s.quarantined) == (25, 25, 25, 25, 15, 15, 0)
    assert [(n, x.found, x.rebalances) for n, x in sorted(scores.items()) if n.startswith("kafkajs/")] == [
        ("kafkajs/clean_leave", 5, 5), ("kafkajs/debug", 3, 3), ("kafkajs/rolling_restart", 7, 7),
        ("kafkajs/scale_up", 5, 5), ("kafkajs/sigkill", 5, 5),
    ]  # fmt: skip


def test_sarama_1_22_sessions_from_its_partition_consumers(scores):
    """sarama 1.22's ConsumerGroup logs no join, sync or leave, but each session's claims start a
    partition consumer ('added subscription to t/0': the member's new assignment) and stop it when the
    session ends ('closed dead subscription to t/0': revoked), its coordinator lookups name the group
    of the file, and Close() leaves the group before 'Closing Client': every rebalance, cause and
    session end is read, through each file's stand-in member (no line names a member id)."""
    s = _by_library(scores)["sarama"]
    assert (s.rebalances, s.found, s.causes, s.causes_ok, s.sessions, s.sessions_ok) == (22, 22, 22, 22, 13, 13), s.misses
    assert (s.quarantined, s.invented) == (0, [])


def test_client_libraries_reach_the_bar(scores):
    """Every client library together (applications on them apart): at least 95 % of the rebalances
    they went through are found with their end."""
    tot = Score("clients")
    for lib, s in _by_library(scores).items():
        if lib not in APPLICATIONS:
            tot.add(s)
    assert tot.rebalances == 311 and tot.found / tot.rebalances >= 0.95, f"{tot.found}/{tot.rebalances}"


def test_faust_and_aiokafka_0_8_are_read_like_aiokafka(scores):
    """faust's worker log carries its aiokafka consumer's coordinator lines (aiokafka 0.14 under faust
    0.15), and aiokafka 0.8 has the wordings of 0.14: every rebalance, cause and session end is read,
    except aiokafka's poll-timeout leave, which it does not log (it reads as a plain leave). faust's
    terminal tables and Python tracebacks are continuation lines: nothing is quarantined."""
    by_lib = _by_library(scores)
    f, a = by_lib["faust"], by_lib["aiokafka-0.8"]
    assert (f.rebalances, f.found, f.causes, f.causes_ok, f.sessions, f.sessions_ok, f.quarantined) == (22, 22, 22, 22, 13, 13, 0)
    assert (a.rebalances, a.found, a.causes, a.causes_ok, a.sessions, a.sessions_ok, a.quarantined) == (30, 30, 30, 29, 18, 17, 0)
    assert scores["aiokafka-0.8/max_poll"].misses == [
        m for m in scores["aiokafka-0.8/max_poll"].misses if "poll_timeout_leave" in m
    ]


def test_librdkafka_2_0_is_read_like_2_16(scores):
    """confluent-kafka 2.0.2 with its librdkafka 2.0.2 (debug=cgrp), eager and cooperative: every
    rebalance, cause and session end; its committed-offset lines are recognised, not quarantined."""
    s = _by_library(scores)["librdkafka-2.0"]
    assert (s.rebalances, s.found, s.causes, s.causes_ok, s.sessions, s.sessions_ok, s.quarantined) == (35, 35, 32, 32, 19, 19, 0)
    assert "librdkafka-2.0/cooperative" in scores


def test_kafka_python_2_0_is_read_with_or_without_its_member_id(scores):
    """kafka-python 2.0.2 at INFO names no member id on any line (``Successfully joined group g with
    generation N``, ``Leaving consumer group (g).``): the file's one consumer stands for its member
    (``<consumer of FILE>``), so every rebalance is found with its end and generation; the session ends
    are those of the stand-in members (the score matches each to its file's consumer). At DEBUG its
    connection prints the JoinGroup response (generation, member id) and the heartbeat and LeaveGroup
    requests: every rebalance, cause and session end is read."""
    d = scores["kafka-python-2.0/debug"]
    assert (d.rebalances, d.found, d.causes, d.causes_ok, d.sessions, d.sessions_ok) == (3, 3, 3, 3, 2, 2), d.misses
    s = _by_library(scores)["kafka-python-2.0"]
    assert (s.rebalances, s.found, s.causes, s.causes_ok, s.sessions, s.sessions_ok, s.quarantined) == (
        29, 29, 29, 19, 18, 17, 0)
    assert s.replayed == 35


def test_arroyo_lines_name_no_group(scores):
    """arroyo logs its rebalances (``New partitions assigned: {...}``, ``Partitions to revoke: [...]``)
    without the group, and confluent-kafka without ``debug`` logs no group line: its files stay
    unattributed - read, nothing quarantined, no group invented, no rebalance."""
    s = _by_library(scores)["arroyo"]
    assert (s.rebalances, s.found, s.replayed, s.quarantined, s.invented) == (25, 0, 0, 0, [])
    assert all(scores[f"arroyo/{sc}"].unattributed >= 1 for sc in ("scale_up", "clean_leave", "sigkill", "rolling_restart"))


def test_arroyo_with_its_input_group(scores):
    """The same arroyo files given as an input that names their group (``--input-group``): its
    assignment and revocation lines are replayed as that group's, and every rebalance is found with its
    end; no line says why a member left (confluent-kafka without ``debug`` logs nothing)."""
    tot = Score("arroyo +input-group")
    for sc in ("scale_up", "clean_leave", "sigkill", "rolling_restart"):
        tot.add(score_dir(os.path.join(CORPUS, "arroyo", sc), True))
    assert (tot.rebalances, tot.found, tot.quarantined, tot.invented) == (25, 25, 0, [])


def test_no_group_is_invented(scores):
    assert {n: s.invented for n, s in scores.items() if s.invented} == {}


def test_a_log_without_debug_gives_no_rebalance_and_no_group(scores):
    """librdkafka without ``debug``: only its MAXPOLL warning (no group named) - unattributed."""
    s = scores["librdkafka/no_debug"]
    assert (s.found, s.replayed, s.invented, s.unattributed) == (0, 0, [], 1)


_MISSING = [m for m in ("confluent_kafka",) if importlib.util.find_spec(m) is None]
#: the Go and Node.js clients recorded live only where their toolchain is installed and CLIENT_DEPS names
#: the folder for their builds and node_modules (tests/clients/toolchains.py; a Go build takes a while)
_NATIVE_LIVE = [lib for lib in NATIVE if "CLIENT_DEPS" in os.environ and not _MISSING and toolchains.available(lib)]
#: the virtualenv libraries recorded live only where CLIENT_VENVS names their virtualenvs (tests/clients/toolchains.py)
_VENV_LIVE = [lib for lib in VENV if "CLIENT_VENVS" in os.environ and not _MISSING and toolchains.available(lib)]


@pytest.mark.skipif(bool(_MISSING), reason=f"client packages not installed: {', '.join(_MISSING)}")
def test_live_recording_of_real_clients_reads_back(tmp_path):
    """A scenario recorded now (confluent-kafka consumers against librdkafka's mock cluster, a few
    seconds): two members join one after the other, then leave."""
    from tests.clients.record import Scenario, record

    sc = Scenario("live", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")], libraries=("librdkafka",))
    truth = record("librdkafka", sc, str(tmp_path), gz=False)
    assert len(truth["rebalances"]) >= 3 and {s["end"] for s in truth["sessions"]} == {"leave"}
    s = score_dir(os.path.join(str(tmp_path), "librdkafka", "live"))
    assert (s.found, s.sessions_ok, s.invented) == (s.rebalances, s.sessions, []), s.misses


@pytest.mark.skipif(not _NATIVE_LIVE, reason="no Go / Node.js client toolchain with CLIENT_DEPS here")
@pytest.mark.parametrize("library", _NATIVE_LIVE or ["none"])
def test_live_recording_of_go_and_node_clients(tmp_path, library):
    """A Go or Node.js consumer pair recorded now against the mock cluster: the truth has the joins and
    the clean leaves, and nothing read from the logs invents a group."""
    from tests.clients.record import Scenario, record

    sc = Scenario("live", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")], libraries=(library,))
    truth = record(library, sc, str(tmp_path), gz=False)
    assert len(truth["rebalances"]) >= 3 and {s["end"] for s in truth["sessions"]} == {"leave"}
    s = score_dir(os.path.join(str(tmp_path), library, "live"))
    assert s.invented == [] and s.rebalances == len(truth["rebalances"])


@pytest.mark.skipif(not _VENV_LIVE, reason="no client virtualenvs (CLIENT_VENVS) here")
@pytest.mark.parametrize("library", _VENV_LIVE or ["none"])
def test_live_recording_of_applications_and_older_releases(tmp_path, library):
    """A consumer pair of faust, arroyo, kafka-python 2.0, aiokafka 0.8 or librdkafka 2.0 recorded now from its own
    virtualenv: the truth has the joins and the clean leaves, and no group is invented."""
    from tests.clients.record import Scenario, record

    sc = Scenario("live", [("start", "c1"), ("start", "c2"), ("close", "c2"), ("close", "c1")], libraries=(library,))
    truth = record(library, sc, str(tmp_path), gz=False)
    assert len(truth["rebalances"]) >= 3 and {s["end"] for s in truth["sessions"]} <= {"leave", "rejoined_as_new_member"}
    s = score_dir(os.path.join(str(tmp_path), library, "live"))
    assert s.invented == [] and s.rebalances == len(truth["rebalances"]) and s.quarantined == 0
