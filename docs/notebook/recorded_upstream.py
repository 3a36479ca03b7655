"""Recorded answers of the databases, served on 127.0.0.1, so that the notebook beside this
file runs offline and gives the same results every time.

`start()` serves the responses the project's tests use (`crates/*/tests/fixtures/`; each
folder's README.md says where each file comes from, and which were constructed) for the
few requests the notebook makes, answers any other request with 404, and points every
database's `*_API_URL` variable at itself, so the lifesciences-mcp server the notebook
starts asks it and never the network. It also gives the server a cache folder of its own,
so recorded answers never mix with real ones. Only the standard library is used.
"""

import os
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

REPOSITORY = Path(__file__).resolve().parents[2]

# Every database the gateway asks: its variable, and the path prefix it gets here.
UPSTREAMS = {
    "STRING_API_URL": "/string",
    "ENSEMBL_API_URL": "/ensembl",
    "EBI_SEARCH_API_URL": "/ebisearch",
    "CHEMBL_API_URL": "/chembl",
    "UNICHEM_API_URL": "/unichem",
    "IGVF_CATALOG_API_URL": "/igvf",
    "UNIPROT_API_URL": "/uniprot",
}

# (path, parameters the request must carry, fixture under crates/).
ROUTES = [
    # Each source's release, which provenance names.
    ("/string/json/version", {}, "string-mcp/tests/fixtures/version.json"),
    ("/ensembl/info/data", {}, "ensembl-mcp/tests/fixtures/info_data.json"),
    ("/chembl/status.json", {}, "chembl-mcp/tests/fixtures/status.json"),
    # TP53's Ensembl record and its cross-references.
    (
        "/ensembl/lookup/id/ENSG00000141510",
        {},
        "ensembl-mcp/tests/fixtures/lookup_id__ENSG00000141510.json",
    ),
    (
        "/ensembl/xrefs/id/ENSG00000141510",
        {},
        "ensembl-mcp/tests/fixtures/xrefs_id__ENSG00000141510.json",
    ),
    # TP53 in STRING, and its interaction partners.
    (
        "/string/json/get_string_ids",
        {"identifiers": "TP53"},
        "string-mcp/tests/fixtures/get_string_ids__TP53.json",
    ),
    (
        "/string/json/interaction_partners",
        {"identifiers": "9606.ENSP00000269305"},
        "string-mcp/tests/fixtures/interaction_partners__TP53.json",
    ),
]


class _Recorded(BaseHTTPRequestHandler):
    def _answer(self, parameters):
        path = urlsplit(self.path).path
        for at, needs, fixture in ROUTES:
            if path == at and all(parameters.get(k) == [v] for k, v in needs.items()):
                body = (REPOSITORY / "crates" / fixture).read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                break
        else:
            body = f"no recorded answer for {self.command} {self.path}\n".encode()
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._answer(parse_qs(urlsplit(self.path).query))

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        form = self.rfile.read(length).decode("utf-8", "replace")
        parameters = parse_qs(urlsplit(self.path).query)
        parameters.update(parse_qs(form))
        self._answer(parameters)

    def log_message(self, *args):
        pass


def start():
    """Serve the recorded answers in a background thread and point the databases'
    variables (and the cache folder) at them; returns the server's base URL. Call it before
    the first `lifesciences_mcp` call: the server reads its environment when it starts."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorded)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    for variable, prefix in UPSTREAMS.items():
        os.environ[variable] = base + prefix
    os.environ["LIFESCIENCES_CACHE_DIR"] = tempfile.mkdtemp(prefix="lifesciences-notebook-")
    return base
