"""Evidence replay: one consumer group's log facts -> transitions, rebalances, sessions, anomalies.

Logs show *outcomes*, not requests. :class:`GroupReplay` consumes the evidence events of ONE group in
the total order (ts, broker before client, source_file, line_no) and reconciles them with a model of
the group (state, generation, members, leader, protocol, coordinator: :mod:`.model`):

* **Broker lines drive the state** through the evidence transition table
  (:mod:`coordinator_core.transitions`), applied in one place (:mod:`.broker`). A fact that is
  impossible in the model's state becomes an ``impossible_transition`` anomaly and the replay
  *adopts* it (logs are the truth). Generations are adopted forward only: a logged generation that
  differs from the model's expectation is a ``generation_gap`` anomaly; the model never goes back
  (except for a new incarnation of a group after it was Dead and removed).
* **Client lines enrich** (member ids, client ids, protocol, coordinator, assignments, leave
  reasons: :mod:`.client`). A group with no broker evidence at all is reconstructed from client
  lines alone (``inferred=True``): a rebalance starts at the first rejoin/join/revoke/leave/poll-
  timeout/heartbeat-REBALANCE_IN_PROGRESS signal while Stable or Empty, the new generation comes from
  "Successfully joined ... generationId=N", and it ends at the first sync / leader assignment /
  assignment notification of that generation (a successful SyncGroup response exists only once the
  group is Stable).
* **Rebalance** (the project's definition): starts when the group enters PreparingRebalance from
  Stable or Empty, ends when it is Stable again (leader's assignment received: ``completed``) or
  Empty (``ended_empty``). A join round completed ("Stabilized", generation + 1) but interrupted by a
  new PreparingRebalance belongs to the same rebalance (``join_rounds`` + 1).
* **Member sessions** are keyed (group_id, member_id, joined_ts): ``joined_ts`` is never None. It
  comes from a line naming the member joining ("Adding new member", member added, the client's
  "Successfully joined"); otherwise from the earliest evidence - the MEMBER_ID_REQUIRED line of a
  pending id whose second join was logged at DEBUG (Scala 3.x; such ids fill the logged member
  count of "Stabilized ... with N members", or show up heartbeating or in the leader's map), the
  start of the open rebalance for a member a known membership lacked, else the first line naming
  it - and the session is ``inferred``. It is fixed when the member is first seen, so it survives
  cut-and-resume. Client lines (``[Consumer instanceId=i, clientId=c, ...]``) give client ids of
  members and culprits by member id or group.instance.id; client lines never give the host.
* **Heartbeats** (DEBUG, the bulk of the volume) only refresh the member's last-seen time and check
  the generation; :meth:`GroupReplay.feed_rows` handles them inline without building objects
  (:mod:`.fastpath`, beside the reference path that defines the behaviour).

Nothing here raises on evidence: inconsistent input becomes :class:`~coordinator_core.records.Anomaly`
records. Sans-IO: no clocks, no files; time comes from the events.

Flush semantics: :meth:`GroupReplay.flush` drains the records produced since the last flush and
reports the rebalance under construction (``outcome="open"``) and every open member session
(``end_reason="open"``); they are emitted again, with the same keys (``rebalance_id``; ``group_id,
member_id, joined_ts``), when they close. :meth:`GroupReplay.snapshot` / :meth:`GroupReplay.resume`
carry the whole model between runs (:mod:`.snapshot`), so cut-and-resume equals one replay.

Modules: :mod:`.model` (the typed group model), :mod:`.settings`, :mod:`.output`, :mod:`.core`
(shared bookkeeping on :class:`coordinator_core.replay_base.EvidenceReplay`), :mod:`.broker` (broker
handlers, the broker transition table applied), :mod:`.client` and :mod:`.client_only` (client
handlers and the client-only reconstruction), :mod:`.inferred` (the table of state changes without a
broker line), :mod:`.handover`, :mod:`.heartbeat`, :mod:`.group_replay` (:class:`GroupReplay`),
:mod:`.fastpath` (with :mod:`.feed_types`), :mod:`.snapshot`. ``docs/design/replay.md`` describes the
shape both replays share.
"""

from coordinator_core.replay.group_replay import GroupReplay
from coordinator_core.replay.output import ReplayOutput
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.replay.snapshot import SNAPSHOT_VERSION
from coordinator_core.row_rules import HEARTBEAT

__all__ = ["GroupReplay", "ReplaySettings", "ReplayOutput", "SNAPSHOT_VERSION", "HEARTBEAT"]
