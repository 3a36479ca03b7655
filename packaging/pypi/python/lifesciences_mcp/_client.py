"""A client of one lifesciences-mcp server process: where the binary is, the environment it
gets, when it is (re)started, and the calls: a tool's answer, its rows, its table."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import sysconfig
import threading
import warnings
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _tables
from ._errors import LifesciencesError, ServerError, ToolError
from ._session import Session

#: The server binary to start instead of the one installed with this package.
BINARY_VARIABLE = "LIFESCIENCES_MCP_BINARY"
#: Seconds a request may wait for its answer (default 300).
TIMEOUT_VARIABLE = "LIFESCIENCES_MCP_TIMEOUT"

DEFAULT_TIMEOUT = 300.0
START_TIMEOUT = 60.0

# This module's own variables: the server does not know them (it would warn of them as
# misspellings of its own LIFESCIENCES_* settings), so they are not passed on.
_OWN_VARIABLES = (BINARY_VARIABLE, TIMEOUT_VARIABLE)

_EXE = "lifesciences-mcp" + (".exe" if os.name == "nt" else "")


def _scripts_dirs() -> List[str]:
    """Where pip puts this environment's commands: the interpreter's scripts folder (a
    virtual environment's ``bin``, also when it is not activated, as in a notebook's
    kernel), then the user scheme's (``pip install --user``)."""
    dirs = []
    try:
        dirs.append(sysconfig.get_path("scripts"))
    except KeyError:
        pass
    try:
        get_preferred = getattr(sysconfig, "get_preferred_scheme", None)
        user = get_preferred("user") if get_preferred else f"{os.name}_user"
        dirs.append(sysconfig.get_path("scripts", user))
    except KeyError:
        pass
    dirs.append(os.path.dirname(sys.executable))
    return [d for d in dirs if d]


def find_binary() -> str:
    """The server to start: ``LIFESCIENCES_MCP_BINARY``, else the ``lifesciences-mcp``
    installed next to this interpreter, else the first on ``PATH``. Nothing is downloaded."""
    configured = os.environ.get(BINARY_VARIABLE, "").strip()
    if configured:
        found = configured if os.path.isfile(configured) else shutil.which(configured)
        if not found:
            raise ServerError(
                f"{BINARY_VARIABLE}={configured!r} is neither a file nor a command on PATH"
            )
        return found
    for folder in _scripts_dirs():
        candidate = os.path.join(folder, _EXE)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("lifesciences-mcp")
    if found:
        return found
    raise ServerError(
        "cannot find the lifesciences-mcp server: `pip install lifesciences-mcp` installs it "
        f"next to this Python ({sys.executable}); or set {BINARY_VARIABLE} to its path"
    )


def _timeout_from_env() -> float:
    raw = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"{TIMEOUT_VARIABLE}={raw!r}: give a number of seconds above 0")
    return value


def _arguments(arguments: Optional[Mapping[str, Any]], more: Mapping[str, Any]) -> Dict[str, Any]:
    merged: Dict[str, Any] = dict(arguments or {})
    merged.update(more)
    return merged


def _answer(tool: str, result: Dict[str, Any]) -> Dict[str, Any]:
    """A tool result as the caller wants it: its structured content, or the error it is."""
    content = result.get("content")
    if not isinstance(content, list):
        content = []
    if result.get("isError"):
        texts = [c.get("text") for c in content if isinstance(c, dict) and c.get("type") == "text"]
        envelope: Dict[str, Any] = {}
        for text in texts:
            try:
                parsed = json.loads(text)
            except (TypeError, ValueError):
                continue
            if isinstance(parsed, dict) and "error" in parsed:
                envelope = parsed
                break
        if not envelope:
            envelope = {"success": False, "error": {"message": " ".join(map(str, texts))}}
        raise ToolError(tool, envelope)
    structured = result.get("structuredContent")
    if isinstance(structured, dict):
        return structured
    # A picture (an image block and a line of provenance) has no structured content.
    return {"content": content}


_clients: "weakref.WeakSet[Client]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for client in list(_clients):
        client.close()


class Client:
    """One lifesciences-mcp server process, started on first use, reused by every call
    (from any thread: requests are answered by id), started again if it died, closed at
    interpreter exit.

    ``command`` is the program and its arguments (default: :func:`find_binary`, no
    arguments; e.g. ``["lifesciences-mcp", "--toolsets", "ensembl,string"]``). ``env``
    adds to (or, with ``None`` values, removes from) the environment the server starts
    with, which is otherwise this interpreter's ``os.environ`` when the process starts:
    ``LIFESCIENCES_CACHE_DIR``, ``STRING_CALLER_IDENTITY``, ``LIFESCIENCES_OFFLINE`` and
    every other setting of ``lifesciences-mcp --help``. ``timeout`` is how long a request
    may wait for its answer, in seconds (default ``LIFESCIENCES_MCP_TIMEOUT``, else 300).
    """

    def __init__(
        self,
        command: Optional[Sequence[str]] = None,
        *,
        env: Optional[Mapping[str, Optional[str]]] = None,
        timeout: Optional[float] = None,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self._command = list(command) if command else None
        self._env = dict(env or {})
        self.timeout = _timeout_from_env() if timeout is None else float(timeout)
        if not self.timeout > 0:
            raise ValueError(f"timeout={timeout!r}: give a number of seconds above 0")
        self.start_timeout = start_timeout
        self._lock = threading.Lock()
        self._session: Optional[Session] = None
        _clients.add(self)

    # The process.

    def _started(self) -> Session:
        with self._lock:
            session = self._session
            if session is not None and session.owner_pid != os.getpid():
                # A forked child: that process and its pipes are the parent's.
                session = None
            if session is not None and not session.alive():
                session.close(grace=0)
                session = None
            if session is None:
                command = self._command or [find_binary()]
                session = Session(command, self._child_env(), self.start_timeout)
                self._session = session
            return session

    def _child_env(self) -> Dict[str, str]:
        env = dict(os.environ)
        for name in _OWN_VARIABLES:
            env.pop(name, None)
        for name, value in self._env.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = str(value)
        return env

    @property
    def pid(self) -> Optional[int]:
        """The server process's id, or None before the first call and after :meth:`close`."""
        session = self._session
        if session is None or session.owner_pid != os.getpid():
            return None
        return session.pid

    @property
    def server_info(self) -> Dict[str, Any]:
        """The server's name and version, as it answered ``initialize`` (starts it)."""
        return dict(self._started().server_info)

    def close(self) -> None:
        """End the server process (it is started again by the next call)."""
        with self._lock:
            session, self._session = self._session, None
        if session is not None and session.owner_pid == os.getpid():
            session.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The calls.

    def _request(self, method: str, params: Dict[str, Any]) -> Dict[str, Any]:
        return self._started().request(method, params, self.timeout)

    def call(
        self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any
    ) -> Dict[str, Any]:
        """Call ``tool`` with ``arguments`` (a dict, and/or keywords) and return its answer,
        the structured content (with its ``provenance``), as a dict. An error envelope
        raises :class:`ToolError` with its ``code``, ``message`` and ``hint``."""
        args = _arguments(arguments, kwargs)
        result = self._request("tools/call", {"name": tool, "arguments": args})
        return _answer(tool, result)

    def tools(self) -> List[Dict[str, Any]]:
        """Every tool the server serves: name, title, description, input and output schema."""
        listed: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        while True:
            page = self._request("tools/list", {"cursor": cursor} if cursor else {})
            listed.extend(t for t in page.get("tools", []) if isinstance(t, dict))
            cursor = page.get("nextCursor")
            if not cursor:
                return listed

    def read_resource(self, uri: str) -> str:
        """The text of a resource (``export://…``, ``provenance://…``)."""
        result = self._request("resources/read", {"uri": uri})
        texts = []
        for content in result.get("contents", []):
            if isinstance(content, dict) and isinstance(content.get("text"), str):
                texts.append(content["text"])
            elif isinstance(content, dict) and isinstance(content.get("blob"), str):
                import base64

                texts.append(base64.b64decode(content["blob"]).decode("utf-8"))
        if not texts:
            raise LifesciencesError(f"resources/read {uri}: the answer holds no text")
        return "".join(texts)

    def export(
        self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any
    ) -> Tuple[Dict[str, Any], str]:
        """The whole list a tool answers, as the server exports it: the ``export`` object
        of the answer (format, rows, columns, complete, uri, expires_at) and the table's
        text (``#`` provenance lines, a header, the rows). ``export`` defaults to ``csv``."""
        args = _arguments(arguments, kwargs)
        args.setdefault("export", "csv")
        answer = self.call(tool, args)
        info = answer.get("export")
        if not isinstance(info, dict) or not isinstance(info.get("uri"), str):
            raise LifesciencesError(
                f"{tool} answered without an export: a server that predates exports "
                "(lifesciences-mcp --version), or a tool whose answer is not a list"
            )
        info = dict(info)
        info.setdefault("format", args["export"])
        return info, self.read_resource(info["uri"])

    def rows(
        self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any
    ) -> List[Dict[str, str]]:
        """The whole list a tool answers (past its page cap, through an export), as dicts
        of each cell's text, keyed by the JSON's field names. No pandas needed."""
        info, text = self.export(tool, arguments, **kwargs)
        _, body = _tables.split_provenance(text)
        rows = _tables.read_rows(body, str(info["format"]))
        _check(tool, info, len(rows))
        return rows

    def table(
        self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **kwargs: Any
    ) -> Any:
        """The whole list a tool answers as a pandas DataFrame, each column's type
        inferred. ``df.attrs["provenance"]`` holds the table's ``#`` lines (sources,
        releases, requests), ``df.attrs["export"]`` the answer's ``export`` object.
        Needs pandas (``pip install "lifesciences-mcp[pandas]"``)."""
        _tables.require_pandas()
        info, text = self.export(tool, arguments, **kwargs)
        comments, body = _tables.split_provenance(text)
        columns = [str(c) for c in info.get("columns") or []]
        frame = _tables.read_dataframe(body, str(info["format"]), columns)
        _check(tool, info, len(frame))
        frame.attrs["provenance"] = comments
        frame.attrs["export"] = info
        return frame


def _check(tool: str, info: Dict[str, Any], read: int) -> None:
    expected = info.get("rows")
    if isinstance(expected, int) and expected != read:
        raise LifesciencesError(
            f"{tool}: the export says {expected} rows but {read} were read from {info.get('uri')}"
        )
    if info.get("complete") is False:
        warnings.warn(
            f"{tool}: the export holds {read} rows, not the whole list: the server stopped "
            "before its end (complete: false)",
            stacklevel=3,
        )
