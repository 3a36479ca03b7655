"""Run lifesciences.ipynb's code cells in order, as one script, without Jupyter: printing
each cell's last expression as a notebook would show it. `cargo xtask dist` runs it with
the installed wheel (and pandas) to check that the notebook still runs; by hand:
`python docs/notebook/run_notebook.py` in an environment with `lifesciences-mcp[pandas]`.
Ends with an error at the first cell that raises."""

import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOK = os.path.join(HERE, "lifesciences.ipynb")


def run(notebook=NOTEBOOK, show=print):
    """Execute the code cells; returns how many ran."""
    sys.path.insert(0, HERE)
    with open(notebook, encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    namespace = {"__name__": "__main__"}
    for number, cell in enumerate(cells, 1):
        tree = ast.parse("".join(cell["source"]), filename=f"code cell {number}")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, f"code cell {number}", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), f"code cell {number}", "eval"), namespace)
            if value is not None:
                show(f"[{number}] {value!r}")
    return len(cells)


if __name__ == "__main__":
    print(f"{run()} code cells ran")
