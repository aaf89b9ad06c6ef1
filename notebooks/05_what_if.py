# Databricks notebook source
# MAGIC %md
# MAGIC # 05 · What if: the same evidence with other settings
# MAGIC Replays one group's logged events (`coordinator_core.whatif.what_if`) and compares the rebalances,
# MAGIC the paused time and the partitions moved with
# MAGIC * a longer **session timeout** (`session.timeout.ms`): expiries of members that came back in time vanish;
# MAGIC * **static membership** (`group.instance.id`) for some members (member ids or client-id / host patterns
# MAGIC   such as `consumer-orders-*`): their restarts stop rebalancing the group;
# MAGIC * another **assignor**: each generation's assignment recomputed, movement counted;
# MAGIC
# MAGIC then re-simulates the group's consumers under each change (static membership, longer timeouts,
# MAGIC cooperative-sticky, the KIP-848 consumer protocol) and ranks the changes with their measured accuracy.

# COMMAND ----------

try:  # the repository root on sys.path: notebooks/_bootstrap.py (Databricks Git folders have it already)
    import _bootstrap  # noqa: F401
except ImportError:
    pass

from jobs.report.notebook import Notebook  # noqa: E402

nb = Notebook.from_globals(globals())  # spark / dbutils / display on Databricks; env vars locally

# COMMAND ----------

LAKEHOUSE = nb.text("lakehouse", "./lakehouse", "lakehouse directory")
GROUP = nb.text("group", "", "consumer group (empty = most rebalances)", env="GROUP_ID")
SESSION_TIMEOUT_MS = nb.text("session_timeout_ms", "120000", "session timeout to try (ms)", env="SESSION_TIMEOUT_MS")
CONFIG = nb.text("config", "", "the job's YAML config: its kafka: section gives the consumers' timeouts", env="CONFIG")
STATIC_MEMBERS = nb.text("static_members", "*", "static members (ids or client-id/host patterns)",
                         env="STATIC_MEMBERS")
ASSIGNOR = nb.dropdown("assignor", "cooperative-sticky", ["range", "roundrobin", "sticky", "cooperative-sticky"],
                       "assignor to try", env="ASSIGNOR")

# COMMAND ----------

from coordinator_core.behaviour import GroupSettings  # noqa: E402
from jobs.config import load_config  # noqa: E402
from jobs.report import plots, summary  # noqa: E402
from jobs.report.notebook import parse_members  # noqa: E402
from jobs.report.whatif import assumed_text, compare, group_events  # noqa: E402

if not GROUP:
    ranking = summary.group_ranking(nb.tables(LAKEHOUSE)["rebalances"])
    GROUP = ranking["group_id"].iloc[0] if len(ranking) else ""
print(f"group: {GROUP!r}")
events = group_events(LAKEHOUSE, GROUP, spark=nb.table_spark())
print(f"{len(events)} evidence events")
# the consumers' client settings: the kafka: section of the job's config (Kafka's defaults where not given)
given = load_config(CONFIG or None).kafka.for_group(GROUP)
BASELINE_SESSION_TIMEOUT_MS = given.get("session_timeout_ms", GroupSettings().session_timeout_ms)
print(f"client settings assumed: {assumed_text(given)}")

# COMMAND ----------

timeout = int(SESSION_TIMEOUT_MS) if SESSION_TIMEOUT_MS else None
static = parse_members(STATIC_MEMBERS)
scenarios = {
    f"session {timeout // 1000 if timeout else '-'}s": {"session_timeout_ms": timeout},
    "static members": {"static_members": static},
    f"assignor {ASSIGNOR}": {"assignor": ASSIGNOR},
    "all three": {"session_timeout_ms": timeout, "static_members": static, "assignor": ASSIGNOR},
}
comparison = compare(events, scenarios, baseline_session_timeout_ms=BASELINE_SESSION_TIMEOUT_MS)
nb.show(comparison, "what-if")
nb.show(plots.what_if_comparison(comparison, title=f"What if: group {GROUP}"), "what_if_comparison")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Re-simulation: what each change would have done, and how sure we are
# MAGIC The rules above only cover what they foresaw. Here the group's consumers are re-simulated: what each process
# MAGIC *did* is read from the evidence (starts, stops, pauses, stalled poll loops) and played again through the
# MAGIC request-level coordinator and the assignors under each change (`jobs.whatif`). The first row is the same
# MAGIC behaviour under the settings in force (it should match the logged rebalances). Paused times are calibrated
# MAGIC by the log: a rebalance a change leaves untouched keeps its logged duration; only the rebalances the change
# MAGIC alters or adds take the simulator's. `paused_ms_saved_low` / `_high` are the least and most saved by one
# MAGIC re-simulation (each seed against the baseline of the same seed): the heartbeat-phase race no log settles.
# MAGIC `exact_pct`, `paused_within_10pct` and `paused_in_range_pct` are the accuracy measured for that kind of change
# MAGIC (`python -m benchmarks.bench_whatif`).

# COMMAND ----------

import pandas as pd  # noqa: E402

from jobs.whatif.advice import ADVICE_COLUMNS, advise  # noqa: E402

advice = pd.DataFrame([{c: getattr(a, c) for c in ADVICE_COLUMNS} for a in advise(GROUP, events, given=given or None)],
                      columns=ADVICE_COLUMNS)  # fmt: skip
nb.show(advice, "re-simulation advice")
