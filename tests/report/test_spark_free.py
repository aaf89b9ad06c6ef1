"""``report`` and ``simulate`` load no Spark at all: they run in a fresh interpreter (the last as
``python -m jobs report``), which lists, at exit, the ``pyspark`` / ``py4j`` modules it loaded. The
report reads a small lakehouse written without Spark, Delta (delta-rs) or the Parquet fallback (its
manifest layout), through the Arrow schemas of :data:`jobs.schemas.ARROW`."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from jobs.report.data import columns, normalise
from jobs.schemas import table_arrow_schema
from jobs.sink_read import MANIFEST, read_pandas, table_format
from tests.report.conftest import hand_tables

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: one fresh interpreter runs ``report`` on the Parquet lakehouse and ``simulate`` through the command
#: line's ``main``, then ``python -m jobs report`` on the Delta lakehouse (sys.argv[1:]); the atexit
#: handlers the entry points still run (jobs.process.exit_process) print the Spark modules it loaded
_PROBE = """\
import atexit, json, runpy, sys
from jobs.cli import main
def _loaded():
    print("SPARK_MODULES=" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j"))))
atexit.register(_loaded)
parquet, sim, argv = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
print("EXIT_CODES=" + json.dumps([main(parquet), main(sim)]))
sys.argv = argv
runpy.run_module("jobs", run_name="__main__", alter_sys=True)
"""


def _value(output: str, key: str):
    line = next((x for x in output.splitlines() if x.startswith(key + "=")), None)
    assert line is not None, output
    return json.loads(line.split("=", 1)[1])


@pytest.fixture(scope="module")
def parquet_lakehouse(tmp_path_factory) -> str:
    """The hand tables as the Parquet sink lays them out (one live folder listed in the manifest),
    written with pyarrow."""
    root = tmp_path_factory.mktemp("parquet-lakehouse")
    for name, df in hand_tables().items():
        schema = table_arrow_schema(name)
        table = pa.Table.from_pandas(normalise(df, name)[columns(name)], schema=schema, preserve_index=False)
        (root / name / "v-test").mkdir(parents=True)
        pq.write_table(table, root / name / "v-test" / "part-0.parquet")
        (root / name / MANIFEST).write_text(json.dumps({"dirs": ["v-test"]}))
    return str(root)


def test_the_parquet_lakehouse_reads_back_in_the_arrow_schemas(parquet_lakehouse):
    assert table_format(parquet_lakehouse, "rebalances") == "parquet"
    rb = read_pandas(parquet_lakehouse, "rebalances")
    assert list(rb.columns) == table_arrow_schema("rebalances").names
    assert len(rb) == 8 and sorted(rb["group_id"].unique()) == ["audit", "orders", "payments"]
    assert str(rb["start_ts"].dtype) == "datetime64[us, UTC]"


@pytest.fixture(scope="module")
def entry_points(hand_lakehouse, parquet_lakehouse, tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("spark-free")
    pages = {"parquet": tmp / "parquet.html", "delta": tmp / "delta.html"}
    report = ["report", "--group", "orders", "--lakehouse"]
    parquet = [*report, parquet_lakehouse, "--output", str(pages["parquet"])]
    sim = ["simulate", "--out", str(tmp / "sim"), "--groups", "1", "--hours", "0.05"]
    delta = ["jobs", *report, hand_lakehouse, "--output", str(pages["delta"])]
    done = subprocess.run([sys.executable, "-c", _PROBE, *map(json.dumps, (parquet, sim, delta))],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))  # fmt: skip
    output = done.stdout + done.stderr
    return {"output": output, "codes": [*_value(output, "EXIT_CODES"), done.returncode],
            "spark": _value(output, "SPARK_MODULES"), "pages": pages, "sim": tmp / "sim"}  # fmt: skip


def test_report_and_simulate_load_no_spark(entry_points):
    assert entry_points["codes"] == [0, 0, 0], entry_points["output"]
    assert entry_points["spark"] == []


@pytest.mark.parametrize("sink", ["delta", "parquet"])
def test_the_report_reads_the_lakehouse_of_either_sink(entry_points, sink):
    page = entry_points["pages"][sink].read_text(encoding="utf-8")
    assert "orders" in page and "session_timeout" in page


def test_the_simulator_wrote_its_logs(entry_points):
    assert "wrote " in entry_points["output"] and any(entry_points["sim"].rglob("*.log"))
