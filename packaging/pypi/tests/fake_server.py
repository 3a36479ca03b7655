"""A tiny MCP server over stdio for the module's tests: newline-delimited JSON-RPC, the
answers shaped as lifesciences-mcp shapes them (structured content with provenance, error
envelopes as text with isError, an export object with a resource link, the table as a
resource with # provenance lines), and tools that misbehave on purpose."""

import json
import os
import sys
import threading
import time

write_lock = threading.Lock()
# Every method received, in order (notifications too): what fake_seen answers.
seen = []

PROVENANCE = {"sources": [{"database": "Fake", "requests": ["GET /fake"]}]}

# The export of fake_list: three rows, one whose text holds the delimiter, quotes and a
# line break, one whose symbol is "NA" and whose score is missing.
COLUMNS = ["symbol", "score", "note"]
ROWS = [
    ["TP53", "0.999", 'a "quoted", text\nover two lines'],
    ["NA", "", "a gene named NA"],
    ["MDM2", "0.9", "plain"],
]


def send(message):
    line = json.dumps(message) + "\n"
    with write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def result(request_id, value):
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def tool_result(structured):
    return {
        "content": [{"type": "text", "text": json.dumps(structured)}],
        "structuredContent": structured,
    }


def envelope(code, message, hint, **more):
    error = {"code": code, "message": message, "recovery_hint": hint}
    error.update(more)
    body = {"success": False, "error": error}
    return {"content": [{"type": "text", "text": json.dumps(body)}], "isError": True}


def table_text(export_format):
    delimiter = "," if export_format == "csv" else "\t"

    def cell(value):
        if any(c in value for c in (delimiter, '"', "\n", "\r")):
            return '"' + value.replace('"', '""') + '"'
        return value

    lines = ["# Fake export of fake_list", "# source: Fake, release 1"]
    lines.append(delimiter.join(COLUMNS))
    lines.extend(delimiter.join(cell(v) for v in row) for row in ROWS)
    return "\n".join(lines) + "\n"


def call_tool(request_id, name, args):
    if name == "fake_lookup":
        answer = {"id": args.get("id"), "pid": os.getpid(), "provenance": PROVENANCE}
        result(request_id, tool_result(answer))
    elif name == "fake_echo":
        time.sleep(float(args.get("delay", 0)))
        result(request_id, tool_result({"echo": args, "provenance": PROVENANCE}))
    elif name == "fake_env":
        values = {k: os.environ.get(k) for k in args.get("names", [])}
        result(request_id, tool_result({"env": values, "provenance": PROVENANCE}))
    elif name == "fake_seen":
        result(request_id, tool_result({"seen": list(seen), "provenance": PROVENANCE}))
    elif name == "fake_fail":
        result(
            request_id,
            envelope(
                "UNRESOLVED_ENTITY",
                "STRING IDs take the form 'STRING:9606.ENSP00000269305'.",
                "Use format 'STRING:9606.ENSP00000269305'",
                invalid_input="9606.ENSP00000269305",
            ),
        )
    elif name == "fake_rate_limited":
        result(
            request_id,
            envelope(
                "RATE_LIMITED",
                "Fake answered 429.",
                "Wait 7 second(s) before calling this tool again",
                retry_after_secs=7,
            ),
        )
    elif name == "fake_slow":
        time.sleep(float(args.get("seconds", 30)))
        result(request_id, tool_result({"late": True, "provenance": PROVENANCE}))
    elif name == "fake_exit":
        # Dies with the call in flight, after a last word on stderr.
        sys.stderr.write("fake_server: exiting on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    elif name == "fake_list":
        export_format = args.get("export")
        answer = {"items": [{"symbol": "TP53"}], "provenance": PROVENANCE}
        blocks = []
        if export_format in ("csv", "tsv"):
            uri = f"export://fake-{export_format}.{export_format}"
            rows = len(ROWS) - int(args.get("rows_short", 0))
            answer["export"] = {
                "format": export_format,
                "rows": rows,
                "columns": COLUMNS,
                "complete": not args.get("incomplete", False),
                "uri": uri,
                "expires_at": "2030-01-01T00:00:00Z",
            }
            blocks.append({"type": "resource_link", "uri": uri, "name": f"fake_list.{export_format}"})
        elif export_format is not None:
            result(request_id, envelope("INVALID_INPUT", "Bad export.", "Use tsv or csv"))
            return
        reply = tool_result(answer)
        reply["content"].extend(blocks)
        # A log message first, as a server's warning reaches a client.
        send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "warning", "logger": "fake", "data": "fake_list warns"},
            }
        )
        result(request_id, reply)
    elif name == "fake_picture":
        result(request_id, {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]})
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32602, "message": f"tool not found: {name}"},
            }
        )


def main():
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        seen.append(method)
        request_id = message.get("id")
        params = message.get("params") or {}
        if method == "initialize":
            if os.environ.get("FAKE_REFUSE_INITIALIZE"):
                send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32600, "message": "no"}})
                continue
            result(
                request_id,
                {
                    "protocolVersion": params.get("protocolVersion"),
                    "capabilities": {"tools": {}, "resources": {}},
                    "serverInfo": {"name": "fake-lifesciences", "version": "0.0.1"},
                },
            )
        elif method == "tools/list":
            result(request_id, {"tools": [{"name": "fake_lookup", "inputSchema": {"type": "object"}}]})
        elif method == "tools/call":
            name = params.get("name")
            args = params.get("arguments") or {}
            # Each call on its own thread, so answers can come out of order.
            threading.Thread(target=call_tool, args=(request_id, name, args), daemon=True).start()
        elif method == "resources/read":
            uri = params.get("uri", "")
            for export_format in ("csv", "tsv"):
                if uri == f"export://fake-{export_format}.{export_format}":
                    mime = "text/csv" if export_format == "csv" else "text/tab-separated-values"
                    result(
                        request_id,
                        {"contents": [{"uri": uri, "mimeType": mime, "text": table_text(export_format)}]},
                    )
                    break
            else:
                send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32002, "message": f"unknown resource {uri}"}})
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": method}})


if __name__ == "__main__":
    main()
