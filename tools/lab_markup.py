"""Fold in JupyterLab what the HTML book folds or hides.

With ``jupyterlab-myst`` (``make lab``) JupyterLab renders the notebooks' MyST markup:
admonitions, maths, ``{prf:}`` boxes, exercises, and a gated solution's opening cell as
a folded "Solution" box.  Two things it cannot do from the markup alone: a gated
solution's *code* cells (between ``{solution-start}`` and ``{solution-end}``) are
separate cells that it shows in plain view, and the cell tags the HTML book uses
(``hide-input``, ``remove-cell``, ...) mean nothing to JupyterLab.

JupyterLab folds a code cell's source or outputs by the cell metadata
``jupyter.source_hidden`` and ``jupyter.outputs_hidden`` (a bar to click; the HTML book
ignores them).  This tool sets them from the tags and the solution markers, so that a
reader in JupyterLab sees what a reader of the HTML book sees first:

* code inside a gated solution: source and outputs folded;
* ``hide-input``, ``remove-input``, ``remove-cell`` (the install guard): source folded;
* ``hide-output``: outputs folded; ``hide-cell``: both.

(``remove-output`` is not mirrored: it marks live widgets, whose output is the point in a
running notebook.)  Every other code cell is unfolded, so the metadata is a function of
the tags and markers and re-running the tool after a merge makes it right again.

Run ``python -m tools.lab_markup [--check] [NOTEBOOK ...]`` from the repository root;
without notebooks it takes every notebook of the book except the ledger.
"""

from __future__ import annotations

import re
import sys

from tools.notebook_edit import run

SOURCE_TAGS = {"hide-input", "remove-input", "remove-cell", "hide-cell"}
OUTPUT_TAGS = {"hide-output", "hide-cell"}
MARKER = re.compile(r"^(?:```+|:::+)\{(solution-start|solution-end)\}", re.MULTILINE)


def folding(nb) -> list[dict]:
    """For each cell, the ``jupyter`` metadata it should have ({} for none)."""
    wanted = []
    in_solution = False
    for cell in nb["cells"]:
        want = {}
        if cell.get("cell_type") == "code":
            tags = set(cell.get("metadata", {}).get("tags", []))
            if in_solution or tags & SOURCE_TAGS:
                want["source_hidden"] = True
            if in_solution or tags & OUTPUT_TAGS:
                want["outputs_hidden"] = True
        elif cell.get("cell_type") == "markdown":
            for marker in MARKER.findall("".join(cell.get("source", ""))):
                in_solution = marker == "solution-start"
        wanted.append(want)
    return wanted


def apply(nb) -> bool:
    """Set every code cell's folding; return whether anything changed."""
    changed = False
    for cell, want in zip(nb["cells"], folding(nb)):
        if cell.get("cell_type") != "code":
            continue
        meta = cell.setdefault("metadata", {})
        jupyter = {k: v for k, v in meta.get("jupyter", {}).items()
                   if k not in ("source_hidden", "outputs_hidden")}
        jupyter.update(want)
        if jupyter != meta.get("jupyter", {}):
            changed = True
            if jupyter:
                meta["jupyter"] = jupyter
            else:
                meta.pop("jupyter", None)
    return changed


def main(argv: list[str] | None = None) -> int:
    return run(apply, "tools.lab_markup", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
