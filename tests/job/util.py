"""Helpers of the job tests."""

from __future__ import annotations


def fields_of(schema):
    """(name, type) pairs - schema equality without nullability flags."""
    return [(f.name, f.dataType) for f in schema.fields]
