"""Dialects of kafka-node's consumer group beyond those of :mod:`jobs.ingest.dialects_nonjava`: its debug
lines (``DEBUG=kafka-node:*``; statements in ``jobs/ingest/catalogue/data/kafka-node.yaml``), each read
under a ``kafka-node:`` logger (the debug module's namespace) and with the debug module's ``+4ms`` suffix
when a terminal printed it. The lines name no group: the group comes from the file's context. Part of
:data:`jobs.ingest.dialects.DIALECTS`, after the other non-Java clients."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

_NODE = r"^kafka-node:"
_MS = r"(?: \+\d+m?s)?"

NODE: tuple[Dialect, ...] = (
    # the JoinGroup response as JSON (protocol.js decodes: members, generationId, groupProtocol, leaderId, memberId)
    _d("kafkanode.join_response", "joined", OT, "kafka-node 1.6+",
       r"joinGroupResponse \{\"members\":\[.*\],\"generationId\":{N},\"groupProtocol\":\"(?P<protocol>[^\"]*)\","
       r"\"leaderId\":\"[^\"]*\",\"memberId\":\"(?P<member_id>[^\"]*)\"\} from \S+" + _MS,
       'joinGroupResponse {"members":[],"generationId":7,"groupProtocol":"roundrobin","leaderId":"l","memberId":"m"} '
       "from kafka-node-client", logger=_NODE),
    _d("kafkanode.leaving", "leave_sent", OT, "kafka-node 1.6+", r"\S+ leaving group" + _MS, "kafka-node-client leaving group",
       logger=_NODE),
    # recognised, no group fact (kind None)
    _d("kafkanode.quiet", None, OT, "kafka-node 1.6+",
       r"(?:Using group protocol .*|GroupCoordinator Response: .*|\S+ started heartbeats at every \S+ ms"
       r"|heartbeat yielded after being canceled.*|Leave group failed with .*)",
       "Using group protocol roundrobin", logger=_NODE),
)  # fmt: skip
