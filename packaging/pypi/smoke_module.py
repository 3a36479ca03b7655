"""The installed module as a user meets it: run with the Python of a fresh virtual
environment where the wheel was installed (`cargo xtask dist`, and the publishing workflow
on each platform), against the notebook's recorded answers (docs/notebook/), offline.

It checks that importing needs no pandas, that the server started is the binary installed
beside that Python, that a call returns the structured content and an error raises
ToolError with the envelope's code and hint, that calls share one process, and that table()
without pandas says how to install it. When the server takes an `export` argument, rows()
must read as many rows as the JSON answer holds; with pandas present, table() too, and the
notebook (docs/notebook/lifesciences.ipynb) must run. Prints one line saying what it saw.
"""

import os
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "docs", "notebook"))

import recorded_upstream  # noqa: E402

recorded_upstream.start()
os.environ.pop("LIFESCIENCES_MCP_BINARY", None)

import lifesciences_mcp as lsm  # noqa: E402

assert "pandas" not in sys.modules, "importing lifesciences_mcp imported pandas"
installed = os.path.join(sysconfig.get_path("scripts"), "lifesciences-mcp")
binary = lsm.find_binary()
assert os.path.splitext(binary)[0] == installed, f"starts {binary}, not {installed}"

gene = lsm.call("ensembl_get_gene", ensembl_id="ENSG00000141510")
assert gene["symbol"] == "TP53", gene
assert gene["provenance"]["sources"][0]["database"] == "Ensembl", gene["provenance"]
pid = lsm.client().pid

try:
    lsm.call("string_get_interactions", string_id="9606.ENSP00000269305")
    raise AssertionError("a bare STRING ID was accepted")
except lsm.ToolError as e:
    assert e.code == "UNRESOLVED_ENTITY", e
    assert "STRING:9606.ENSP00000269305" in (e.hint or ""), e

partners = lsm.call(
    "string_get_interactions", string_id="STRING:9606.ENSP00000269305", required_score=400
)
assert lsm.client().pid == pid, "a second server process was started"

try:
    import pandas  # noqa: F401

    has_pandas = True
except ImportError:
    has_pandas = False
    try:
        lsm.table("string_get_interactions", string_id="STRING:9606.ENSP00000269305")
        raise AssertionError("table() without pandas did not raise")
    except ImportError as e:
        assert 'pip install "lifesciences-mcp[pandas]"' in str(e), e

seen = ["call → dict", "ToolError UNRESOLVED_ENTITY with its hint", "one process, the installed binary"]
if not has_pandas:
    seen.append("table() without pandas names the install")

tool = next(t for t in lsm.tools() if t["name"] == "string_get_interactions")
exports = "export" in tool["inputSchema"].get("properties", {})
arguments = {"string_id": "STRING:9606.ENSP00000269305", "required_score": 400}
if exports:
    rows = lsm.rows("string_get_interactions", **arguments)
    assert len(rows) == partners["total"], (len(rows), partners["total"])
    seen.append(f"rows() {len(rows)} = the JSON's {partners['total']}")
    if has_pandas:
        frame = lsm.table("string_get_interactions", **arguments)
        assert len(frame) == partners["total"], len(frame)
        seen.append(f"table() {frame.shape[0]}×{frame.shape[1]}")
else:
    seen.append("rows() and table() not tried: this server takes no export argument")
lsm.close()

if exports and has_pandas:
    import run_notebook

    seen.append(f"the notebook's {run_notebook.run(show=lambda shown: None)} code cells ran")
print(f"import lifesciences_mcp {lsm.__version__}: " + "; ".join(seen))
