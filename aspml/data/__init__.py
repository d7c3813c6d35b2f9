"""Typed tables: schema inference, column arrays for kernels, facts for clingo and Prolog."""

from .table import (DEFAULT_MISSING, Column, Table, encode, encode_column, infer_kind,
                    infer_schema, schema_and_table)

__all__ = ["DEFAULT_MISSING", "Column", "Table", "encode", "encode_column", "infer_kind",
           "infer_schema", "schema_and_table"]
