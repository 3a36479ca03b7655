"""Call the lifesciences-mcp tools (STRING, Ensembl, ChEMBL, the IGVF Catalog, UniProt) from
Python: the server installed with this package, started once per interpreter on first use
and spoken to over MCP on its stdio.

>>> import lifesciences_mcp as lsm
>>> gene = lsm.call("ensembl_get_gene", ensembl_id="ENSG00000141510")   # a dict
>>> partners = lsm.table("string_get_interactions", string_id="STRING:9606.ENSP00000269305")

An error envelope raises :class:`ToolError` (``code``, ``message``, ``hint``). ``table``
needs pandas (``pip install "lifesciences-mcp[pandas]"``); ``rows`` gives the same rows as
dicts without it. Only the standard library is imported here.
"""

from __future__ import annotations

import threading
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ._client import BINARY_VARIABLE, TIMEOUT_VARIABLE, Client, find_binary
from ._errors import CallTimeout, LifesciencesError, ProtocolError, ServerError, ToolError

__all__ = [
    "BINARY_VARIABLE",
    "TIMEOUT_VARIABLE",
    "CallTimeout",
    "Client",
    "LifesciencesError",
    "ProtocolError",
    "ServerError",
    "ToolError",
    "call",
    "client",
    "close",
    "configure",
    "export",
    "find_binary",
    "rows",
    "table",
    "tools",
]

try:
    __version__ = version("lifesciences-mcp")
except PackageNotFoundError:  # run from a checkout, not installed
    __version__ = "0+unknown"

_default: Optional[Client] = None
_default_lock = threading.Lock()


def client() -> Client:
    """The interpreter's client, which the module's functions use (made on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Client()
        return _default


def configure(
    command: Optional[Sequence[str]] = None,
    *,
    env: Optional[Mapping[str, Optional[str]]] = None,
    timeout: Optional[float] = None,
) -> Client:
    """Replace the interpreter's client (ending its server process, if one runs) with one
    started as :class:`Client` says: another ``command`` (a binary, ``--toolsets``),
    variables added to its environment (``env={"LIFESCIENCES_CACHE_DIR": …}``), another
    ``timeout`` in seconds. The next call starts it."""
    global _default
    fresh = Client(command, env=env, timeout=timeout)
    with _default_lock:
        previous, _default = _default, fresh
    if previous is not None:
        previous.close()
    return fresh


def close() -> None:
    """End the interpreter's server process now (it also ends at exit; the next call starts
    a new one)."""
    with _default_lock:
        current = _default
    if current is not None:
        current.close()


def call(tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> Dict[str, Any]:
    """Call ``tool`` and return its answer as a dict; an error raises :class:`ToolError`.
    Arguments as keywords, or a dict (for names that are not Python identifiers)."""
    return client().call(tool, arguments, **kwargs)


def rows(tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> List[Dict[str, str]]:
    """The whole list a tool answers, past its page cap, as dicts of each cell's text."""
    return client().rows(tool, arguments, **kwargs)


def table(tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> Any:
    """The whole list a tool answers, past its page cap, as a pandas DataFrame (needs
    pandas: ``pip install "lifesciences-mcp[pandas]"``)."""
    return client().table(tool, arguments, **kwargs)


def export(tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> Any:
    """The answer's ``export`` object and the table's text (``export="tsv"`` or ``"csv"``,
    the default), e.g. to write it to a file as it is."""
    return client().export(tool, arguments, **kwargs)


def tools() -> List[Dict[str, Any]]:
    """Every tool the server serves, with its description and schemas."""
    return client().tools()
