"""Spark's forms of the Arrow schemas, and back: the one mapping between Arrow and Spark types.

:func:`spark_struct` derives a table's ``StructType`` from its canonical Arrow schema
(:data:`jobs.schemas.ARROW`); :func:`arrow_schema` turns a Spark schema built elsewhere (ingestion's
task records, the replay's union frame) into the Arrow schema Spark uses for it. Both read the
same pairs (:data:`_PAIRS`), so a table's Arrow schema and its Spark schema cannot disagree.
Every field, list item and map value is nullable, as Spark's defaults are.
"""

from __future__ import annotations

import pyarrow as pa
from pyspark.sql import types as T

#: the scalar types of the tables: (Arrow type, Spark type); timestamps are UTC microseconds
_PAIRS: tuple[tuple[pa.DataType, T.DataType], ...] = (
    (pa.string(), T.StringType()),
    (pa.int32(), T.IntegerType()),
    (pa.int64(), T.LongType()),
    (pa.bool_(), T.BooleanType()),
    (pa.float64(), T.DoubleType()),
    (pa.date32(), T.DateType()),
    (pa.timestamp("us", tz="UTC"), T.TimestampType()),
)


def spark_type(t: pa.DataType) -> T.DataType:
    """The Spark type of Arrow type ``t`` (lists and maps of the scalar types included)."""
    if pa.types.is_list(t):
        return T.ArrayType(spark_type(t.value_type), containsNull=True)
    if pa.types.is_map(t):
        return T.MapType(spark_type(t.key_type), spark_type(t.item_type), valueContainsNull=True)
    for arrow, spark in _PAIRS:
        if t == arrow:
            return spark
    raise TypeError(f"no Spark type for the Arrow type {t}")


def spark_struct(schema: pa.Schema) -> T.StructType:
    """The ``StructType`` of an Arrow schema: same names, order and (nullable) fields."""
    return T.StructType([T.StructField(f.name, spark_type(f.type), f.nullable) for f in schema])


def arrow_type(dt: T.DataType) -> pa.DataType:
    """The Arrow type Spark uses for ``dt`` (timestamps as UTC microseconds)."""
    if isinstance(dt, T.ArrayType):
        return pa.list_(arrow_type(dt.elementType))
    if isinstance(dt, T.MapType):
        return pa.map_(arrow_type(dt.keyType), arrow_type(dt.valueType))
    for arrow, spark in _PAIRS:
        if dt == spark:
            return arrow
    raise TypeError(f"no Arrow mapping for {dt}")


def arrow_schema(st: T.StructType) -> pa.Schema:
    """The Arrow schema of a Spark schema (every field nullable, as Spark writes them)."""
    return pa.schema([pa.field(f.name, arrow_type(f.dataType)) for f in st.fields])
