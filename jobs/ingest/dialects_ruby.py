"""Dialects of Karafka (Ruby, over rdkafka-ruby and librdkafka): the lines of its logger listener, which
writes everything Karafka logs itself (``Karafka::Instrumentation::LoggerListener``; statements in
``jobs/ingest/catalogue/data/karafka.yaml``). librdkafka's own lines, which rdkafka-ruby passes to
``Rdkafka::Config.logger``, are read by librdkafka's dialects. Part of :data:`jobs.ingest.dialects.DIALECTS`,
after the other non-Java clients.

Karafka 2.5+ logs each rebalance callback as ``[<client id>] Group <g> rebalance: <topic>-[0,1] revoked``
(one line per topic, or ``No partitions revoked``), and then the same for ``assigned``."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

_CLIENT = r"\[(?P<client_id>[^\]\s]+)\] "

RUBY: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Karafka 2.5+: the rebalance callbacks
    _d("karafka.partitions_revoked", "partitions_revoked", OT, "karafka 2.5+",
       _CLIENT + r"Group {G} rebalance: (?:No partitions revoked|\S+-\[[\d,]*\] revoked)",
       "[karafka_app_8f1c] Group g rebalance: orders-[0,1] revoked"),
    _d("karafka.partitions_assigned", "partitions_assigned", OT, "karafka 2.5+",
       _CLIENT + r"Group {G} rebalance: (?:No partitions assigned|\S+-\[[\d,]*\] assigned)",
       "[karafka_app_8f1c] Group g rebalance: orders-[0,1] assigned"),
    _d("karafka.subscribing", "other", OT, "karafka 2.5+",
       r"\[[^\]\s]+\] Group (?P<group_id>[^/\s]+)/\S+ (?P<reason>subscribing to topics): .*",
       "[karafka_app_8f1c-listener-0] Group g/c4ca4238a0b9_0 subscribing to topics: orders"),
    # recognised, no group fact (kind None): a failing rebalance callback, a job still running at shutdown
    _d("karafka.quiet", None, OT, "karafka 2.1+",
       r"(?:Rebalance callback error occurred: .*|In processing: .* \(group: [^)]*\))",
       "Rebalance callback error occurred: RuntimeError"),
)  # fmt: skip
