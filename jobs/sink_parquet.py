"""The plain Parquet sink: each table's live directories listed in ``_MANIFEST.json``."""

from __future__ import annotations

import json
import os
import shutil
import time

from pyspark.sql import functions as F
from pyspark.sql.types import StructType

from jobs.sink_base import (
    MANIFEST,
    PARTITION_COL,
    PARTITIONED,
    Sink,
    table_schema,
)
from jobs.sink_read import manifest_dirs

# --------------------------------------------------------------------------------------- Parquet


class ParquetSink(Sink):
    """Plain Parquet; ``_MANIFEST.json`` lists the live sub-directories (replaced atomically)."""

    kind = "parquet"

    def _manifest(self, name: str) -> list[str]:
        return manifest_dirs(self.path(name))

    def _commit(self, name: str, dirs: list[str]) -> None:
        tmp = os.path.join(self.path(name), f".{MANIFEST}.{self.run_id}.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"dirs": dirs, "committed_ms": int(time.time() * 1000)}, fh)
        os.replace(tmp, os.path.join(self.path(name), MANIFEST))
        live = set(dirs)
        for entry in os.listdir(self.path(name)):
            full = os.path.join(self.path(name), entry)
            if os.path.isdir(full) and entry not in live:
                shutil.rmtree(full, ignore_errors=True)

    def exists(self, name: str) -> bool:
        return os.path.exists(os.path.join(self.path(name), MANIFEST))

    def read(self, name: str):
        dirs = self._manifest(name)
        if not dirs:
            return self._empty(name)
        schema = table_schema(name)
        if name in PARTITIONED:
            parts = []
            data_schema = StructType([f for f in schema.fields if f.name != PARTITION_COL])
            for d in dirs:
                value = d.split("=", 1)[1]
                parts.append(
                    self.spark.read.schema(data_schema)
                    .parquet(os.path.join(self.path(name), d))
                    .withColumn(PARTITION_COL, F.lit(value))
                )
            out = parts[0]
            for p in parts[1:]:
                out = out.unionByName(p)
            return self._select_schema(name, out)
        return self.spark.read.schema(schema).parquet(*[os.path.join(self.path(name), d) for d in dirs])

    def partition_values(self, name: str) -> list[str]:
        return sorted(d.split("=", 1)[1] for d in self._manifest(name) if d.startswith(f"{PARTITION_COL}="))

    def _write(self, df, target: str) -> None:
        self.spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        df.write.mode("overwrite").parquet(target)

    def write_partition(self, name: str, df, value: str) -> None:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"{PARTITION_COL}={value}"
        self._write(self._conform(name, df).drop(PARTITION_COL), os.path.join(self.path(name), sub))
        self._commit(name, [d for d in self._manifest(name) if d != sub] + [sub])

    def adopt_partition(self, name: str, files_dir: str, value: str) -> bool:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"{PARTITION_COL}={value}"
        if not self._move_files(files_dir, os.path.join(self.path(name), sub)):
            return False
        self._commit(name, [d for d in self._manifest(name) if d != sub] + [sub])
        return True

    def delete_partitions(self, name: str, values: list[str]) -> None:
        drop = {f"{PARTITION_COL}={v}" for v in values}
        if self.exists(name) and drop & set(self._manifest(name)):
            self._commit(name, [d for d in self._manifest(name) if d not in drop])

    def delete_lines(self, name: str, value: str, source_file: str, line_nos: list[int]) -> None:
        """Rewrites the partition without the lines (staged, then swapped in by two renames)."""
        sub = f"{PARTITION_COL}={value}"
        if not line_nos or sub not in self._manifest(name):
            return
        data = self.read(name).where(F.col(PARTITION_COL) == value)
        gone = (F.col("source_file") == source_file) & F.col("line_no").isin([int(n) for n in line_nos])
        stage = self.staging(f"{name}-lines")
        self._write(data.where(~gone).drop(PARTITION_COL), stage)
        target = os.path.join(self.path(name), sub)
        old = os.path.join(self.path(name), f".{sub}.{self.run_id}.old")
        os.replace(target, old)
        os.replace(stage, target)
        shutil.rmtree(old, ignore_errors=True)

    def overwrite(self, name: str, df) -> None:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"v-{self.run_id}"
        self._write(self._conform(name, df), os.path.join(self.path(name), sub))
        self._commit(name, [sub])

    def merge(self, name: str, df, keys: list[str]) -> None:
        new = self._dedupe(self._conform(name, df), keys)
        old = self.read(name)
        # keep old rows whose key is not in the new rows (null-safe key equality), then add the new
        cond = [old[k].eqNullSafe(new[k]) for k in keys]
        kept = old.join(new.select(keys), on=cond, how="left_anti") if self.exists(name) else old
        stage = self.staging(name)
        self._write(kept.unionByName(new), stage)  # materialise before replacing what it reads
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"v-{self.run_id}"
        target = os.path.join(self.path(name), sub)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(stage, target)
        self._commit(name, [sub])
