"""The catalogue of Kafka's own code (broker, Java consumer, Streams, Connect, Spring's listener container)
and the dialect table checked against it: every Java dialect is the reading of at least one catalogued
statement, or says where its wording comes from; every catalogued statement is mapped or a declared gap; the miner's
statement extraction reads Java, Scala and Spring log calls."""

from __future__ import annotations

import os
import re

import pytest

import jobs.ingest.dialects as D
from jobs.ingest.catalogue import UNMAPPED, load, render_message
from jobs.ingest.catalogue.mining.java_source import log_calls
from jobs.ingest.dialects_dotnet import DOTNET
from jobs.ingest.dialects_elixir import ELIXIR
from jobs.ingest.dialects_jvm import ALPAKKA, JVM, SCS
from jobs.ingest.dialects_kafkaflow import KAFKAFLOW
from jobs.ingest.dialects_node import NODE
from jobs.ingest.dialects_nonjava import NON_JAVA
from jobs.ingest.dialects_python import PYTHON_1X
from jobs.ingest.dialects_ruby import RUBY

JAVA_SOURCES = tuple(s for s in load() if s.repo in ("apache/kafka", "spring-projects/spring-kafka"))
REAL = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "real")
_NON_JAVA = {d.id for d in (*NON_JAVA, *PYTHON_1X, *ELIXIR, *DOTNET, *RUBY, *JVM, *SCS, *ALPAKKA, *NODE, *KAFKAFLOW)}
JAVA_DIALECTS = tuple(d for d in D.DIALECTS if d.id not in _NON_JAVA)


def _bodies() -> list[str]:
    """The message body (after the context prefix) of every mapped statement of the Java sources."""
    prefix = re.compile(D.BODY_PREFIX)
    out = []
    for src in JAVA_SOURCES:
        for st in src.statements:
            if st.kind != UNMAPPED:
                msg = render_message(src, st)
                m = prefix.match(msg)
                out.append(msg[m.end() :] if m else msg)
    return out


BODIES = _bodies()


def test_the_java_sources_are_catalogued():
    names = {s.name for s in JAVA_SOURCES}
    assert {"kafka-broker-scala", "kafka-broker-java", "kafka-consumer-classic", "kafka-consumer-async",
            "kafka-streams", "kafka-connect", "spring-kafka"} <= names  # fmt: skip
    scala = next(s for s in JAVA_SOURCES if s.name == "kafka-broker-scala")
    assert scala.versions[0] == "0.10.0.0" and "3.8.0" in scala.versions
    restabilize = [st for st in scala.statements if st.template.startswith("Preparing to restabilize group")]
    assert [(st.kind, st.first) for st in restabilize] == [("rebalance_prepared", "0.10.0.0")]


@pytest.mark.parametrize("source", [s.name for s in JAVA_SOURCES])
def test_every_statement_is_mapped_or_a_declared_gap(source):
    """Every statement is mapped (an event kind or unrelated), or ``unmapped`` with a note saying what
    it is evidence of and why it is not read; every statement has its provenance."""
    src = next(s for s in JAVA_SOURCES if s.name == source)
    gaps = [st for st in src.statements if st.kind == UNMAPPED]
    assert [st.id for st in gaps if not st.note] == []
    assert len(gaps) <= 3
    for st in src.statements:
        assert st.file and st.line and st.first and st.last and st.format, st.id


@pytest.mark.parametrize("dialect", JAVA_DIALECTS, ids=[d.id for d in JAVA_DIALECTS])
def test_every_dialect_is_checked_against_the_catalogue(dialect):
    """A dialect reads at least one catalogued statement, or its ``provenance`` names a real excerpt
    (which has a line it reads) or the Kafka code outside the catalogue it comes from."""
    rx = re.compile(dialect.pattern)
    if any(rx.match(b) for b in BODIES):
        return
    kind, _, where = dialect.provenance.partition(":")
    assert kind in ("excerpt", "source") and where, f"{dialect.id}: no catalogued statement and no provenance"
    if kind == "excerpt":
        with open(os.path.join(REAL, where + ".log"), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        loose = re.compile(dialect.pattern[1:].removesuffix("$").removesuffix(r"\s*"))
        assert any(loose.search(line) for line in text.splitlines()), f"{dialect.id}: not in {where}"


JAVA = """
class C {
    void f() {
        log.info("Successfully joined group with generation {}", generation);
        log.debug("Sending Heartbeat request to coordinator " + coordinator + " now");
        // log.info("commented out");
        log.error(String.format("Failed %s in %d ms", what, ms), e);
        this.logger.info(() -> getGroupId() + ": partitions assigned: " + partitions);
        this.logger.error(e, "Stopping container due to fencing");
    }
}
"""
SCALA = """
class G {
  def info(msg: => String): Unit = ()
  info(s"Preparing to restabilize group ${group.groupId} with old generation ${group.generationId}")
  debug(s"The following groups were deleted: ${groups.map(_.groupId).mkString(", ")}. A total of $n offsets were removed.")
  warn("Member %s in group %s has failed".format(memberId, groupId))
}
"""


def test_log_calls_of_java_and_scala():
    got = [(c.level, c.wording, c.args) for c in log_calls(JAVA, "java")]
    assert got == [
        ("INFO", "Successfully joined group with generation {}", ("generation",)),
        ("DEBUG", "Sending Heartbeat request to coordinator {} now", ("coordinator",)),
        ("ERROR", "Failed {} in {} ms", ("what", "ms")),
        ("INFO", "{}: partitions assigned: {}", ("getGroupId()", "partitions")),
        ("ERROR", "Stopping container due to fencing", ()),
    ]
    got = [(c.level, c.wording, c.args) for c in log_calls(SCALA, "scala")]
    assert got == [
        ("INFO", "Preparing to restabilize group {} with old generation {}", ("group.groupId", "group.generationId")),
        ("DEBUG", "The following groups were deleted: {}. A total of {} offsets were removed.",
         ('groups.map(_.groupId).mkString(", ")', "n")),
        ("WARN", "Member {} in group {} has failed", ("memberId", "groupId")),
    ]  # fmt: skip
