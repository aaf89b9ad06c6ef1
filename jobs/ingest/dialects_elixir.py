"""Dialects of the Elixir clients: Kaffe's consumer group member (its Elixir ``Logger`` lines, next to
the lines of brod's group coordinator that it runs, which are read in
:mod:`jobs.ingest.dialects_clients`). The statements are in ``jobs/ingest/catalogue/data/kaffe.yaml``.
Part of :data:`jobs.ingest.dialects.DIALECTS`, after the other non-Java clients.

Kaffe's member lines name the subscriber and the topic, not the group (except its start line): their
events take the group from the file's context (brod's ``Group member (g,...)`` lines around them)."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

#: the group member process's name (``Kaffe.GroupMember.<subscriber_name>.<topic>``, an atom)
_MEMBER = r"(?:Elixir\.)?Kaffe\.(?:ConsumerGroup\.)?GroupMember\.\S+"

ELIXIR: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Kaffe (1.8+): the group member
    _d("kaffe.member_init", "other", OT, "kaffe 1.8+",
       r"(?P<reason>event#init=(?:Elixir\.)?Kaffe\.\S*GroupMember group_coordinator=\S+ subscriber_name=\S+) consumer_group={G}",
       "event#init=Elixir.Kaffe.GroupMember group_coordinator=#PID<0.412.0> subscriber_name=orders_sub consumer_group=g"),
    _d("kaffe.assignments_received", "assignment_received", OT, "kaffe 1.8+",
       r"event#assignments_received=" + _MEMBER + r" generation_id={N}",
       "event#assignments_received=Elixir.Kaffe.GroupMember.orders_sub.orders generation_id=7"),
    _d("kaffe.assignments_revoked", "partitions_revoked", OT, "kaffe 1.8+",
       r"event#assignments_revoked=" + _MEMBER,
       "event#assignments_revoked=Elixir.Kaffe.GroupMember.orders_sub.orders"),
    _d("kaffe.old_generation", "other", OT, "kaffe 1.8+",
       r"(?P<reason>Discarding old generation -?\d+) for current generation: {N}",
       "Discarding old generation 6 for current generation: 7"),
    _d("kaffe.allocate_subscribers", "other", OT, "kaffe 1.8+",
       r"(?P<reason>event#allocate_subscribers)=\S+ generation_id={N}",
       "event#allocate_subscribers=#PID<0.412.0> generation_id=7"),
    # recognised, no group fact (kind None): the group manager's start-up and the subscribers' work
    _d("kaffe.quiet", None, OT, "kaffe 1.8+",
       r"(?:event#startup=(?:Elixir\.)?Kaffe\.\S*GroupManager name=\S+|Starting worker supervisors for group manager: .*"
       r"|Start(?:ing|ed) group member for (?:topic: )?\S+(?: failed, attempting retry with exponential backoff)?"
       r"|Starting group members (?:for the following topics: .*|failed: .*)|Group members succesfully started"
       r"|Allocating subscriber for assignment: .*|event#commit_offsets topic=\S+ partition=\d+ offset=\d+ generation=-?\d+)",
       "Starting group member for topic: orders"),
)  # fmt: skip
