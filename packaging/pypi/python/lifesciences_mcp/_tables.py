"""An exported table as the server writes it (``#`` provenance lines, a header naming the
columns as the JSON names the fields, the rows), read into dicts or a pandas DataFrame."""

from __future__ import annotations

import csv
import io
from typing import Any, Dict, List, Tuple

PANDAS_MISSING = (
    "lifesciences_mcp.table() returns a pandas DataFrame and needs pandas: "
    'pip install "lifesciences-mcp[pandas]" (or pip install pandas). '
    "lifesciences_mcp.rows() returns the same rows as dicts without it."
)

# The delimiter of each export format.
DELIMITERS = {"csv": ",", "tsv": "\t"}


def split_provenance(text: str) -> Tuple[List[str], str]:
    """The ``#`` lines at the top (without their ``#``), and the table after them."""
    comments: List[str] = []
    at = 0
    while text.startswith("#", at):
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        comments.append(text[at + 1 : end].rstrip("\r").strip())
        at = end + 1
    return comments, text[at:]


def delimiter(export_format: str) -> str:
    try:
        return DELIMITERS[export_format]
    except KeyError:
        raise ValueError(
            f"export format {export_format!r}: the server exports 'csv' or 'tsv'"
        ) from None


def read_rows(body: str, export_format: str) -> List[Dict[str, str]]:
    """The rows as dicts of their text, keyed by the header's names."""
    reader = csv.DictReader(io.StringIO(body, newline=""), delimiter=delimiter(export_format))
    return [dict(row) for row in reader]


def require_pandas() -> Any:
    """pandas, or an ImportError saying how to install it."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError(PANDAS_MISSING, name="pandas") from e
    return pandas


def read_dataframe(body: str, export_format: str, columns: List[str]) -> Any:
    """The rows as a pandas DataFrame, each column's type inferred; only an empty cell is
    missing (a gene named ``NA`` stays a string)."""
    pandas = require_pandas()
    if not body.strip():
        return pandas.DataFrame(columns=columns)
    return pandas.read_csv(
        io.StringIO(body, newline=""),
        sep=delimiter(export_format),
        keep_default_na=False,
        na_values=[""],
        low_memory=False,
    )
