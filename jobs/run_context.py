"""The context of one run of the job (:class:`RunContext`): what its steps share."""

from __future__ import annotations

import datetime as _dt
import uuid

from jobs.config import JobConfig
from jobs.progress import Progress
from jobs.sink import Sink, make_sink


def new_run_id() -> str:
    """``20240514T100000Z-1a2b3c4d``: the time the run started (UTC) and a random suffix."""
    now = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"{now}-{uuid.uuid4().hex[:8]}"


class RunContext:
    """What every step of one run uses: the session, the configuration, the run id, the sink and the
    progress lines."""

    def __init__(self, spark, config: JobConfig, mode: str, run_id: str | None):
        self.spark = spark
        self.config = config
        self.mode = mode
        self.run_id = run_id or new_run_id()
        self.sink: Sink = make_sink(spark, config.output.path, config.output.format, config.output.writer,
                                    self.run_id)  # fmt: skip
        self.progress = Progress(config.run.progress)
        self.state_table = config.run.state_table

    def committed(self, name: str) -> None:
        """A commit point: ``name`` is durable. The recovery tests kill the run here (they patch
        this method); a later run must then produce exactly the tables of one clean run."""

    def table_name(self, name: str) -> str:
        return self.state_table if name == "group_state" else name
