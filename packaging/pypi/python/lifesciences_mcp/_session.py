"""One server process and the MCP session over its stdio: newline-delimited JSON-RPC,
requests answered by id, so that threads can call at once."""

from __future__ import annotations

import collections
import itertools
import json
import logging
import os
import subprocess
import threading
from typing import Any, Deque, Dict, List, Optional

from ._errors import CallTimeout, ProtocolError, ServerError

#: The MCP revision this client speaks (structured content, resource links).
PROTOCOL_VERSION = "2025-06-18"

log = logging.getLogger("lifesciences_mcp")

# The MCP logging levels (RFC 5424's) as Python's.
_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}

# How many of the server's last stderr lines an error quotes.
_STDERR_LINES = 30


def _plain(value: Any) -> Any:
    """A value json cannot write, as one it can: a NumPy or pandas scalar, array or Series
    (what a DataFrame hands back), a set."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    raise TypeError(f"an argument of type {type(value).__name__} cannot be sent as JSON: {value!r}")


def _encode(message: Dict[str, Any]) -> bytes:
    """One line of JSON. NaN and infinities are refused (JSON has none): an argument taken
    from an empty DataFrame cell is an error here, not a parse error at the server."""
    try:
        text = json.dumps(
            message, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_plain
        )
    except ValueError as e:
        raise ValueError(f"an argument is NaN or infinite, which JSON cannot carry ({e})") from None
    return (text + "\n").encode("utf-8")


class _Waiter:
    """A request in flight: the answer, or why there will be none."""

    __slots__ = ("event", "message", "error")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.message: Optional[Dict[str, Any]] = None
        self.error: Optional[BaseException] = None


class Session:
    """A started server: ``initialize`` answered and ``notifications/initialized`` sent."""

    def __init__(
        self, command: List[str], env: Dict[str, str], start_timeout: float
    ) -> None:
        self.command = command
        self.owner_pid = os.getpid()
        self._ids = itertools.count(1)
        self._pending: Dict[int, _Waiter] = {}
        self._lock = threading.Lock()  # guards _pending, _ended and _stdout_closed
        self._write_lock = threading.Lock()
        self._ended: Optional[ServerError] = None
        self._stdout_closed = False
        self._stderr: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0) if os.name == "nt" else 0
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                creationflags=flags,
            )
        except OSError as e:
            raise ServerError(f"cannot start {command[0]}: {e}") from e
        self._stderr_reader = threading.Thread(
            target=self._drain_stderr, name="lifesciences-mcp stderr", daemon=True
        )
        self._stderr_reader.start()
        self._reader = threading.Thread(
            target=self._read, name="lifesciences-mcp stdout", daemon=True
        )
        self._reader.start()
        try:
            result = self.request(
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "lifesciences-mcp-python", "version": "1"},
                },
                start_timeout,
            )
        except CallTimeout as e:
            self.close(grace=0)
            raise ServerError(
                f"{command[0]} did not answer initialize within {start_timeout:g} s: "
                "is it the lifesciences-mcp server?",
                stderr=self.stderr_tail(),
            ) from e
        except ProtocolError as e:
            self.close(grace=0)
            raise ServerError(
                f"{command[0]} refused initialize: {e}", stderr=self.stderr_tail()
            ) from e
        except ServerError:
            self.close(grace=0)
            raise
        self.server_info: Dict[str, Any] = result.get("serverInfo") or {}
        self.protocol_version: Optional[str] = result.get("protocolVersion")
        try:
            self.notify("notifications/initialized", {})
        except OSError:
            self.close(grace=0)
            raise self._end_error() from None

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        # The closed stdout tells first: poll() says nothing while the reader waits for
        # the exit code (Popen lets one caller wait at a time).
        with self._lock:
            ended = self._ended is not None or self._stdout_closed
        return not ended and self.process.poll() is None

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def request(
        self, method: str, params: Dict[str, Any], timeout: Optional[float]
    ) -> Dict[str, Any]:
        """Send a request and wait for its answer's ``result``."""
        waiter = _Waiter()
        with self._lock:
            if self._ended is not None:
                raise self._ended
            request_id = next(self._ids)
        # Arguments that are not JSON fail here, before anything is sent.
        line = _encode({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        with self._lock:
            self._pending[request_id] = waiter
        try:
            self._write(line)
        except OSError:
            with self._lock:
                self._pending.pop(request_id, None)
            self._reader.join(timeout=2)
            with self._lock:
                ended = self._ended
            raise ended if ended is not None else self._end_error()
        try:
            answered = waiter.event.wait(timeout)
        except BaseException:
            # Interrupted (Ctrl-C, a notebook's stop): the server need not go on.
            self._cancel(request_id, "the caller stopped waiting")
            raise
        if not answered:
            self._cancel(request_id, f"no answer within {timeout:g} s")
            raise CallTimeout(
                f"{self._what(method, params)}: no answer within {timeout:g} s; the request "
                "was cancelled. A larger timeout: lifesciences_mcp.configure(timeout=…) or "
                "LIFESCIENCES_MCP_TIMEOUT (seconds)"
            )
        if waiter.error is not None:
            raise waiter.error
        message = waiter.message or {}
        error = message.get("error")
        if error is not None:
            if not isinstance(error, dict):
                error = {"message": str(error)}
            raise ProtocolError(
                self._what(method, params),
                error.get("code"),
                str(error.get("message", "")),
                error.get("data"),
            )
        result = message.get("result")
        return result if isinstance(result, dict) else {}

    def notify(self, method: str, params: Dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def close(self, grace: float = 5.0) -> None:
        """Close stdin (the server ends at its end), wait ``grace`` seconds, then stop it."""
        self._end(ServerError("the lifesciences-mcp server was closed"))
        with self._write_lock:
            try:
                if self.process.stdin is not None:
                    self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=2)
        self._stderr_reader.join(timeout=2)
        for stream in (self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    @staticmethod
    def _what(method: str, params: Dict[str, Any]) -> str:
        if method == "tools/call":
            return f"tools/call {params.get('name')}"
        if method == "resources/read":
            return f"resources/read {params.get('uri')}"
        return method

    def _cancel(self, request_id: int, reason: str) -> None:
        with self._lock:
            self._pending.pop(request_id, None)
        try:
            self.notify("notifications/cancelled", {"requestId": request_id, "reason": reason})
        except OSError:
            pass

    def _send(self, message: Dict[str, Any]) -> None:
        self._write(_encode(message))

    def _write(self, line: bytes) -> None:
        with self._write_lock:
            stdin = self.process.stdin
            if stdin is None or stdin.closed:
                raise BrokenPipeError("the server's stdin is closed")
            stdin.write(line)
            stdin.flush()

    def _drain_stderr(self) -> None:
        # Read so that the server never blocks on a full pipe; keep the tail for errors.
        stream = self.process.stderr
        if stream is None:
            return
        try:
            for raw in stream:
                self._stderr.append(raw.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _read(self) -> None:
        stream = self.process.stdout
        if stream is not None:
            try:
                for line in stream:
                    self._dispatch(line)
            except (OSError, ValueError):
                pass
        with self._lock:
            self._stdout_closed = True
        self._end(self._end_error())

    def _end_error(self) -> ServerError:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_reader.join(timeout=1)
        if code is None:
            what = "stopped answering (its stdout closed)"
        else:
            what = f"exited with code {code}"
        return ServerError(
            f"the lifesciences-mcp server ({self.command[0]}, pid {self.pid}) {what}; "
            "the next call starts a new one",
            returncode=code,
            stderr=self.stderr_tail(),
        )

    def _end(self, error: ServerError) -> None:
        with self._lock:
            if self._ended is None:
                self._ended = error
            pending, self._pending = self._pending, {}
        for waiter in pending.values():
            waiter.error = self._ended
            waiter.event.set()

    def _dispatch(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            log.debug("the server wrote a line that is not JSON: %r", line[:200])
            return
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:
                self._answer_server_request(message["id"], method)
            else:
                self._notification(method, message.get("params"))
            return
        with self._lock:
            waiter = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        if waiter is not None:
            waiter.message = message
            waiter.event.set()

    def _answer_server_request(self, request_id: Any, method: str) -> None:
        if method == "ping":
            reply: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": {}}
        else:
            reply = {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32601, "message": f"this client does not serve {method}"},
            }
        try:
            self._send(reply)
        except OSError:
            pass

    @staticmethod
    def _notification(method: str, params: Any) -> None:
        if method == "notifications/message" and isinstance(params, dict):
            level = _LEVELS.get(str(params.get("level")), logging.INFO)
            data = params.get("data")
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            source = params.get("logger")
            log.log(level, "%s%s", f"{source}: " if source else "", text)
        else:
            log.debug("%s %s", method, params)
