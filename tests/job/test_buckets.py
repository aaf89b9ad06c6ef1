"""Group buckets (jobs/buckets.py): the hand-over of each group's events from the ingestion workers
to the replay through files. The Python and Spark hashes agree, every event of a group lands in
one bucket, the bucket replay gives the tables of the shuffle replay (also with stored states,
already-ingested files and duplicates), and the ingestion's own file packing balances work."""

from __future__ import annotations

import gzip
import os
import random
import shutil

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs import buckets as bk
from jobs import schemas
from jobs.config import RunConfig
from jobs.ingest.task_files import EVENT_DATA_ARROW, FILE_FIXED_BYTES, bin_shares, file_cost, plan_bins
from jobs.pipeline import run_job
from jobs.session import parallelism
from jobs.sink import read_table
from tests.job.helpers import REPLAY_TABLES, SAMPLE_INPUTS, job_config, rows, split_file_lines

NAMES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=12)


@given(cluster=NAMES, group=NAMES, n=st.integers(1, 64))
@settings(max_examples=200, deadline=None)
def test_bucket_of_is_crc32_of_the_key(cluster, group, n) -> None:
    import zlib

    b = bk.bucket_of(cluster, group, n)
    assert 0 <= b < n and b == zlib.crc32((cluster + "\0" + group).encode("utf-8")) % n


@pytest.mark.spark
def test_spark_bucket_expression_equals_python(spark) -> None:
    rnd = random.Random(3)
    keys = [("prod-eu", "orders"), ("default", "connect-cluster"), ("c", "grüppe-ß-日本"), ("", "g")]
    keys += [(f"c{rnd.randrange(5)}", f"group-{rnd.getrandbits(40):x}") for _ in range(200)]
    df = spark.createDataFrame(keys, "cluster string, group_id string")
    for n in (1, 7, 8):
        got = {(r.cluster, r.group_id): r.b for r in df.select("*", bk.bucket_expr(n).alias("b")).collect()}
        assert got == {k: bk.bucket_of(*k, n) for k in keys}, n


def _events(rows_: list[tuple[str, str | None, int]]) -> pa.Table:
    t = {f.name: [None] * len(rows_) for f in EVENT_DATA_ARROW}
    t["cluster"] = [r[0] for r in rows_]
    t["group_id"] = [r[1] for r in rows_]
    t["line_no"] = [r[2] for r in rows_]
    return pa.Table.from_pydict(t, schema=EVENT_DATA_ARROW)


def test_split_by_bucket_keeps_every_row_once() -> None:
    rnd = random.Random(5)
    data = [(rnd.choice(["a", "b"]), rnd.choice(["g1", "g2", "g3", None, "orders"]), i) for i in range(500)]
    parts = bk.split_by_bucket(_events(data), 4)
    seen = sorted(ln for t in parts.values() for ln in t.column("line_no").to_pylist())
    assert seen == list(range(500))
    assert parts[bk.NO_GROUP].column("group_id").null_count == parts[bk.NO_GROUP].num_rows > 0
    for b, t in parts.items():
        if b != bk.NO_GROUP:
            keys = set(zip(t.column("cluster").to_pylist(), t.column("group_id").to_pylist(), strict=True))
            assert {bk.bucket_of(c, g, 4) for c, g in keys} == {b}
    assert bk.split_by_bucket(_events([]), 4) == {}
    assert list(bk.split_by_bucket(_events([("a", None, 1)]), 4)) == [bk.NO_GROUP]


def test_split_by_bucket_equals_the_plain_split() -> None:
    """The one-take split gives the plain per-bucket filters' parts (same keys in the same order,
    equal tables), also for one bucket only, no group at all and every row without a group."""
    rnd = random.Random(7)
    cases = [[(rnd.choice(["a", "b", None]), rnd.choice(["g1", "g2", "g3", None, "orders", "\u00e9t\u00e9"]), i)
              for i in range(n)] for n in (1, 2, 7, 300)]  # fmt: skip
    cases += [[("a", "g1", i) for i in range(20)], [("a", None, i) for i in range(5)],
              [("a", None, 0), ("a", "g1", 1), ("a", None, 2)]]  # fmt: skip
    for data in cases:
        for buckets in (1, 3, 8):
            fast, plain = bk.split_by_bucket(_events(data), buckets), bk.split_by_bucket_plain(_events(data), buckets)
            assert list(fast) == list(plain)
            for k in plain:
                assert fast[k].equals(plain[k]), (data, buckets, k)


def test_bucket_file_names(tmp_path) -> None:
    for task in ("f00000", "f00001", "r00003"):
        for b in (0, 2, bk.NO_GROUP):
            (tmp_path / bk.file_name(task, b)).write_bytes(b"")
    (tmp_path / ".part-f00002-b0000.parquet.tmp").write_bytes(b"")  # a failed attempt: ignored
    (tmp_path / "part-00000.parquet").write_bytes(b"")  # not bucketed: ignored
    got = bk.bucket_files(str(tmp_path))
    assert sorted(got, key=str) == [0, 2, "x"]
    assert [os.path.basename(p) for p in got[2]] == [
        "part-f00000-b0002.parquet", "part-f00001-b0002.parquet", "part-r00003-b0002.parquet"]  # fmt: skip
    assert bk.bucket_files(str(tmp_path / "nope")) == {}


def test_choose_buckets() -> None:
    assert bk.choose_buckets(50_000, 2) == 1  # the sample: one bucket
    assert bk.choose_buckets(283 << 20, 2) == 8  # 1M lines: four per core
    assert bk.choose_buckets(3 << 30, 64) == 96  # bounded by the input size
    assert bk.choose_buckets(100 << 30, 2) == 100  # at least one per GB
    assert bk.choose_buckets(0, 0) == 1


def test_file_cost_reads_the_gzip_trailer(tmp_path) -> None:
    plain = tmp_path / "a.log"
    plain.write_bytes(b"x" * 1000)
    gz = tmp_path / "b.log.gz"
    gz.write_bytes(gzip.compress(b"[2024-05-01 10:00:00,000] INFO hello\n" * 2000))
    assert file_cost(str(plain)) == 1000
    assert file_cost(str(gz)) == 37 * 2000 > os.path.getsize(gz)


def test_plan_bins_balances_work_biggest_first(tmp_path) -> None:
    sizes = {"b1": 194, "b2": 194, "a": 158, "json": 129, "c": 53}
    files = []
    for name, mb in sizes.items():
        p = tmp_path / f"{name}.log"
        with open(p, "wb") as fh:
            fh.truncate(mb << 20)
        files.append((str(p), "default"))
    gz = tmp_path / "big.log.gz"  # 141 MB of text in a small file: weighed by its content
    gz.write_bytes(gzip.compress(b"a" * (141 << 20), compresslevel=1))
    files.append((str(gz), "default"))
    bins = plan_bins(files, 2)
    assert sorted(p for b in bins for p, _ in b) == sorted(p for p, _ in files)  # each file once
    assert len(bins) == 6  # one file per task here (fewer files than 4 per core)
    loads = [sum(file_cost(p) for p, _ in b) for b in bins]
    assert loads == sorted(loads, reverse=True)
    many = [(p, c) for p, c in files] * 1
    small = tmp_path / "small"
    small.mkdir()
    for i in range(40):
        q = small / f"s{i}.log"
        q.write_bytes(b"x" * (1000 + 37 * i))
        many.append((str(q), "default"))
    bins = plan_bins(many, 2)
    assert len(bins) == 8
    loads = [sum(file_cost(p) for p, _ in b) for b in bins]
    assert max(loads) == max(file_cost(p) for p, _ in many)  # nothing heavier than the biggest file



def test_bin_shares_step_down_per_core() -> None:
    assert bin_shares(8, 2) == [4, 4, 3, 3, 2, 2, 1, 1]
    assert bin_shares(12, 2) == [4, 4, 4, 4, 4, 4, 3, 3, 2, 2, 1, 1]
    assert bin_shares(4, 2) == [4, 3, 2, 1]
    assert bin_shares(1, 1) == [4]
    assert bin_shares(0, 2) == []


def test_plan_bins_last_tasks_are_small_so_cores_finish_together(tmp_path) -> None:
    files = []
    for i in range(60):
        q = tmp_path / f"f{i:02d}.log"
        q.write_bytes(b"x" * (20_000 * (1 + (i * 37) % 23)))
        files.append((str(q), "default"))
    bins = plan_bins(files, 2)
    loads = [sum(file_cost(p) + FILE_FIXED_BYTES for p, _ in b) for b in bins]
    assert len(bins) == 8 and loads == sorted(loads, reverse=True)
    # each task's load follows its share (4, 4, 3, 3, 2, 2, 1, 1) within one file's weight
    unit = sum(loads) / 20
    biggest = max(file_cost(p) for p, _ in files) + FILE_FIXED_BYTES
    for load, share in zip(loads, bin_shares(8, 2), strict=True):
        assert abs(load - share * unit) <= biggest
    # run in order on two cores, each task taking 1.2x its estimate when odd: the cores end within
    # one small task of each other
    ends = [0.0, 0.0]
    for i, load in enumerate(loads):
        c = ends.index(min(ends))
        ends[c] += load * (1.2 if i % 2 else 1.0)
    assert abs(ends[0] - ends[1]) <= 1.2 * loads[-1]

class _Conf:
    def __init__(self, values):
        self.values = values

    def get(self, key, default=None):
        return self.values.get(key, default)


class _Session:
    def __init__(self, **values):
        self.conf = _Conf(values)


@pytest.mark.parametrize(
    "values,expected",
    [({"spark.master": "local[3]"}, 3), ({"spark.master": "local"}, 1), ({"spark.master": "local[2, 4]"}, 2),
     ({"spark.master": "local[*]"}, os.cpu_count()), ({"spark.default.parallelism": "12", "spark.master": "local[2]"}, 12),
     ({"spark.master": "spark://h:7077", "spark.sql.shuffle.partitions": "16"}, 16)],
)  # fmt: skip
def test_parallelism_from_the_configuration(values, expected) -> None:
    assert parallelism(_Session(**values)) == expected


# ------------------------------------------------------------------------------- the whole job


def _config(path: str, exchange: str):
    cfg = job_config(path)
    return cfg.replace(run=RunConfig(mode="batch", progress=False, exchange=exchange))


@pytest.mark.spark
@pytest.mark.slow
def test_bucket_replay_equals_shuffle_replay(spark, sample_job, tmp_path) -> None:
    """The sample job through the shuffle (cogroup.applyInArrow) gives the tables of the default
    run, which went through the group buckets."""
    lake, _ = sample_job
    assert any("-b0000" in f for f in os.listdir(_events_partition(lake)))  # the default run bucketed
    shuffled = str(tmp_path / "shuffle")
    run_job(spark, _config(shuffled, "shuffle"), SAMPLE_INPUTS, "batch")
    assert not any("-b0" in f for f in os.listdir(_events_partition(shuffled)))
    for name in (*REPLAY_TABLES, "rebalance_frequency", "storms"):
        assert rows(shuffled, name) == rows(lake, name), name
    keep = ("run_id",)
    for name in ("events", "quarantine", "ingest_audit"):
        assert rows(shuffled, name, drop=keep) == rows(lake, name, drop=keep), name


def _events_partition(lake: str) -> str:
    parts = [d for d in os.listdir(os.path.join(lake, "events")) if d.startswith("run_id=")]
    return os.path.join(lake, "events", sorted(parts)[-1])


@pytest.mark.spark
@pytest.mark.slow
def test_bucket_replay_with_state_skipped_and_duplicate_files(spark, tmp_path) -> None:
    """Day 1, then day 1 + day 2 + a copy of a day-2 file: the second run skips day 1 (already
    ingested) and drops one of the two equal files, so its events are rewritten rather than adopted and the replay
    reads the staged buckets without those files; with the stored states of day 1 it must give
    the shuffle's tables."""
    a, b = str(tmp_path / "day1"), str(tmp_path / "day2")
    for _, cluster in SAMPLE_INPUTS:
        split_file_lines(os.path.join(os.path.dirname(SAMPLE_INPUTS[0][0]), cluster),
                         os.path.join(a, cluster), os.path.join(b, cluster), "10:00:01")  # fmt: skip
    broker = os.path.join(b, "prod-eu", "broker-1")
    shutil.copy(os.path.join(broker, "server.log"), os.path.join(broker, "copy-of-server.log"))
    out = {}
    for exchange in ("auto", "shuffle"):
        lake = str(tmp_path / exchange)
        run_job(spark, _config(lake, exchange), [(os.path.join(a, c), c) for _, c in SAMPLE_INPUTS], "batch")
        both = [(os.path.join(d, c), c) for d in (a, b) for _, c in SAMPLE_INPUTS]
        second = run_job(spark, _config(lake, exchange), both, "batch")
        assert second.files_skipped == 5 and second.files_new == 7  # broker-3 logs on day 2 only
        dup = [d for d in read_table(None, lake, "ingest_audit").duplicate_of if d]
        assert len(dup) == 1 and dup[0].endswith("broker-1/copy-of-server.log")
        out[exchange] = lake
    for name in schemas.TABLES:
        drop = (
            ("run_id", "state_json")
            if name in ("events", "quarantine", "ingest_audit", "group_state")
            else ()
        )
        assert rows(out["auto"], name, drop=drop) == rows(out["shuffle"], name, drop=drop), name
    assert len(rows(out["auto"], "events")) == 119
