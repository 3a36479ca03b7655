"""The exceptions a call can raise: a tool's error envelope, the server process, the protocol."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


class LifesciencesError(Exception):
    """Anything that kept a call from returning an answer."""


class ToolError(LifesciencesError):
    """The tool answered with an error envelope: what failed, and the next step likely to work.

    ``code`` is one of the stable codes (``UNRESOLVED_ENTITY``, ``ENTITY_NOT_FOUND``,
    ``AMBIGUOUS_QUERY``, ``INVALID_INPUT``, ``RATE_LIMITED``, ``UPSTREAM_ERROR``),
    ``message`` names the source and what failed, ``hint`` is the envelope's
    ``recovery_hint``. ``invalid_input`` (what was sent for the offending argument),
    ``retry_after_secs`` (``RATE_LIMITED`` only) and ``suggestions`` are set when the
    envelope carries them. ``envelope`` is the whole envelope as the server sent it.
    """

    def __init__(self, tool: str, envelope: Dict[str, Any]) -> None:
        error = envelope.get("error")
        if not isinstance(error, dict):
            error = {}
        self.tool = tool
        self.envelope = envelope
        self.code: Optional[str] = error.get("code")
        self.message: str = str(error.get("message", ""))
        self.hint: Optional[str] = error.get("recovery_hint")
        self.invalid_input: Optional[str] = error.get("invalid_input")
        self.retry_after_secs: Optional[int] = error.get("retry_after_secs")
        self.suggestions: List[str] = list(error.get("suggestions") or [])
        shown = f"{tool}: {self.code}: {self.message}" if self.code else f"{tool}: {self.message}"
        if self.hint:
            shown += f" (hint: {self.hint})"
        super().__init__(shown)


class ServerError(LifesciencesError):
    """The server process could not be found or started, exited, or did not speak MCP.

    ``returncode`` is its exit code once it has exited, and ``stderr`` the last lines it
    wrote there (its log), which usually say why.
    """

    def __init__(
        self, message: str, returncode: Optional[int] = None, stderr: str = ""
    ) -> None:
        self.returncode = returncode
        self.stderr = stderr
        if stderr:
            message = f"{message}\nIts last lines on stderr:\n{stderr}"
        super().__init__(message)


class ProtocolError(LifesciencesError):
    """The server answered a request with a JSON-RPC error (an unknown tool, an unknown
    resource, arguments that are not an object): ``code``, ``message`` and ``data`` as sent."""

    def __init__(self, method: str, code: Any, message: str, data: Any = None) -> None:
        self.method = method
        self.code = code
        self.message = message
        self.data = data
        super().__init__(f"{method}: JSON-RPC error {code}: {message}")


class CallTimeout(LifesciencesError, TimeoutError):
    """No answer within the timeout; the request was cancelled (``notifications/cancelled``)."""
