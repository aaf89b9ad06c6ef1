"""The group a line's context names when its message does not: the rules, in one place, for both
readers (:mod:`jobs.ingest.reference_events` one line at a time, :mod:`jobs.ingest.messages` and
:mod:`jobs.ingest.attribution` on Arrow columns).

* **MDC and key=value context in a text line** (:data:`TEXT_GROUP`): a logging pattern that prints
  the mapped diagnostic context puts it beside the message — logback's ``%X`` as ``groupId=G,
  clientId=c``, log4j2's ``%X``/``%MDC`` as ``{groupId=G, clientId=c}``, a pattern's own
  ``[groupId=%X{groupId}]``, a Python or Go application's ``group.id=G``/``group_id=G``. The key
  names the group whatever the layout; JSON and logfmt records carry the same keys as fields
  (:data:`jobs.ingest.records.FAMILIES`).
* **The consumer's heartbeat thread** (:data:`THREAD_GROUP`): the Java client names it
  ``kafka-coordinator-heartbeat-thread | <group.id>`` (``AbstractCoordinator.HeartbeatThread``,
  0.10.1+), so a line logged on it belongs to that group.
* **The default client id** (:data:`CLIENT_ID_GROUP`): since Kafka 2.4 a consumer without a
  ``client.id`` is named ``consumer-<group.id>-<n>`` (``ConsumerConfig.maybeOverrideClientId``;
  ``consumer-<group.id>-<group.instance.id>`` for a static member; before 2.4 ``consumer-<n>``).
  A configured client id can look the same, so it chooses only among the groups its file names
  (context attribution, :func:`jobs.ingest.attribution.attribute_groups`), never a new one.

A message that names its group keeps it; what the context gives fills only a missing group.
"""

from __future__ import annotations

#: a group key of the MDC or a key=value context in a line's text (value: ``g``)
TEXT_GROUP = (
    r"(?:^|[\s\[{(,;|])(?:groupId|group_id|group\.id|kafka\.group(?:\.id)?|consumerGroup|consumer_group|consumer\.group)"
    r"=(?P<g>[^\s,;\]})|\"'=]+)"
)
#: the Java consumer's heartbeat thread (the ``thread`` column; value: ``g``)
THREAD_GROUP = r"^kafka-coordinator-heartbeat-thread \| (?P<g>\S+)$"
#: literal start of :data:`THREAD_GROUP` (a cheap test before the regex)
THREAD_PREFIX = "kafka-coordinator-heartbeat-thread | "
#: the default client id of a 2.4+ consumer with a dynamic membership (value: ``g``)
CLIENT_ID_GROUP = r"^consumer-(?P<g>.+)-\d+$"
#: values of a key that name no group
NO_GROUP = ("null", "none", "None", "-", "")
