"""The run's quarantine partition read on the driver from the ingestion's staged files
(``jobs.pipeline.staged_quarantine``) holds the rows Spark writes from ``res.quarantine`` (the plain
way): every column, the run id, and the files of an earlier run left out alike."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace

import pytest

from jobs.ingest import ingest
from jobs.ingest.model import IngestSettings, InputSpec
from jobs.pipeline import DRIVER_QUARANTINE_BYTES, staged_quarantine
from tests.conftest import SAMPLE_LOGS


def _key(row: dict) -> tuple:
    return tuple((k, "" if v is None else str(v)) for k, v in sorted(row.items()))


@pytest.mark.spark
def test_staged_quarantine_equals_the_spark_rows(spark, tmp_path) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(os.path.join(SAMPLE_LOGS, "prod-eu"), logs)
    with open(logs / "broker-1" / "server.log", "a", encoding="utf-8") as fh:  # lines of no known layout: quarantined
        fh.write("".join(f"@@ not a log line {i} @@\n" for i in range(5)))
    (logs / "junk.log").write_text("".join(f"garbage {i} ~~ ##\n" for i in range(7)), encoding="utf-8")
    settings = replace(IngestSettings(), staging_dir=str(tmp_path / "staging"), group_buckets=-1)
    res = ingest(spark, [InputSpec(path=str(logs), cluster="eu")], settings, run_id="r1")
    assert res.quarantine_dir and not res.no_quarantine
    files = sorted({a["source_file"] for a in res.audit_rows})
    for skip in ([], [f for f in files if f.endswith("junk.log")]):
        plain = res.quarantine.where(~res.quarantine["source_file"].isin(skip)) if skip else res.quarantine
        want = sorted(_key({**r.asDict(), "run_id": "r1"}) for r in plain.collect())
        got = staged_quarantine(res, "r1", skip)
        assert got is not None and got.num_rows == len(want) > 0
        assert sorted(_key(r) for r in got.to_pylist()) == want
        assert set(got.column("run_id").to_pylist()) == {"r1"}
    assert DRIVER_QUARANTINE_BYTES > 0
    # no local staged folder: the plain way
    assert staged_quarantine(replace(res, quarantine_dir=None), "r1") is None
    res.unpersist()
