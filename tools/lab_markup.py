"""Fold in JupyterLab what the HTML book folds or hides.

With ``jupyterlab-myst`` (``make lab``) JupyterLab renders the notebooks' MyST markup:
admonitions, maths, ``{prf:}`` boxes, exercises, and a gated solution's opening cell as
a folded "Solution" box.  What it cannot do from the markup alone: the rest of a gated
solution (every cell between ``{solution-start}`` and ``{solution-end}``: code, its
outputs and the text after the code) is made of separate cells that it shows in plain
view, and the cell tags the HTML book uses (``hide-input``, ``remove-cell``, ...) mean
nothing to JupyterLab.

What JupyterLab 4 keeps folded (tried in JupyterLab 4.5 and 4.6 with jupyterlab-myst in
headless Chromium, ``tests/book/test_lab.py``):

* ``jupyter.source_hidden`` of a code cell: folded on opening and after running it;
* ``jupyter.outputs_hidden`` of a code cell, and ``jupyter.source_hidden`` of a markdown
  cell: folded on opening, but *unfolded* when the cell runs (Run All unfolds them all);
* ``jp-MarkdownHeadingCollapsed`` of a markdown cell with a heading: every following cell
  up to the next heading is hidden behind a "+ N cells hidden" button, on opening and
  after Run All, until the reader clicks.

So a gated solution that spans cells is folded by a collapsed heading: the cell of its
``{solution-start}`` ends in :data:`MARKER`, an empty heading that the browser hides
(the ``hidden`` attribute; the HTML book shows nothing of it) and JupyterLab counts as a
heading, and gets ``jp-MarkdownHeadingCollapsed``; the cell of its ``{solution-end}``
carries the same empty heading, which ends the fold.  Where a markdown cell holds the
end of one solution and what follows it, or what precedes a solution and its start, the
tool splits it there, so that a solution's text is in cells of its own (the HTML book
is the same: MyST-NB reads the cells one after another).  A solution within one
markdown cell is folded by jupyterlab-myst's own Solution box and is left alone.

Code cells fold by their tags, as the HTML book does:

* ``hide-input``, ``remove-input``, ``remove-cell`` (the install guard): source folded;
* ``hide-output``: outputs folded; ``hide-cell``: both.

(``remove-output`` is not mirrored: it marks live widgets, whose output is the point in a
running notebook.)  ``collapsed`` mirrors ``jupyter.outputs_hidden``, as JupyterLab
writes it on saving.  The metadata and markers are a function of the tags and the
solution markers, so re-running the tool after a merge makes them right again.

Run ``python -m tools.lab_markup [--check] [NOTEBOOK ...]`` from the repository root;
without notebooks it takes every notebook of the book except the ledger.
"""

from __future__ import annotations

import re
import sys

from tools.notebook_edit import run

SOURCE_TAGS = {"hide-input", "remove-input", "remove-cell", "hide-cell"}
OUTPUT_TAGS = {"hide-output", "hide-cell"}
OPENING = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>solution-start|solution-end)\}[^\n]*$",
                     re.MULTILINE)
COLLAPSED = "jp-MarkdownHeadingCollapsed"

MARKER = '<h6 class="lab-fold" hidden aria-hidden="true"></h6>'
"""The empty heading that starts (collapsed) and ends a solution's fold in JupyterLab.
A raw HTML block: MyST passes it to the HTML book, where ``hidden`` hides it."""


def _source(cell) -> str:
    return "".join(cell.get("source", ""))


def _strip_markers(text: str) -> str:
    """``text`` without the markers :func:`_with_marker` put in."""
    text = text.replace("\n" + MARKER + "\n\n", "\n")
    return text[:-len(MARKER) - 1] if text.endswith("\n" + MARKER) else text


def _directives(text: str) -> list[tuple[str, int, int]]:
    """The gated solution directives of ``text``: (name, start of the opening fence line,
    end of the closing fence line, newline excluded)."""
    found = []
    for m in OPENING.finditer(text):
        fence = m.group("fence")
        close = re.compile(r"^" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$",
                           re.MULTILINE).search(text, m.end())
        found.append((m.group("name"), m.start(), close.end() if close else m.end()))
    return found


def _new_cell(cell, source: str, suffix: str, taken: set[str]):
    import copy

    new = copy.deepcopy(cell)
    new["source"] = source
    new["metadata"] = {}
    base = str(cell.get("id", "cell"))[:56]
    ident, k = f"{base}-{suffix}", 1
    while ident in taken:
        k += 1
        ident = f"{base}-{suffix}{k}"
    taken.add(ident)
    new["id"] = ident
    return new


def _split(nb) -> list:
    """The cells with markers removed and every spanning solution's start and end at the
    beginning of a markdown cell of its own; the text is unchanged otherwise."""
    cells = []
    for cell in nb["cells"]:
        if cell.get("cell_type") == "markdown":
            text = _strip_markers(_source(cell))
            if text != _source(cell):
                cell["source"] = text
        cells.append(cell)
    events = [(i, name, a) for i, cell in enumerate(cells) if cell.get("cell_type") == "markdown"
              for name, a, _ in _directives(_source(cell))]
    cuts: dict[int, set[int]] = {}
    opened = None
    for i, name, a in events:
        if name == "solution-start":
            opened = (i, a)
        elif opened is not None:
            if opened[0] != i:                     # spans cells: cut before start and end
                cuts.setdefault(opened[0], set()).add(opened[1])
                cuts.setdefault(i, set()).add(a)
            opened = None
    taken = {str(c.get("id")) for c in cells}
    out = []
    for i, cell in enumerate(cells):
        text = _source(cell)
        points = sorted(p for p in cuts.get(i, ()) if text[:p].strip())
        if not points:
            out.append(cell)
            continue
        pieces = [text[a:b] for a, b in zip([0] + points, points + [len(text)])]
        cell["source"] = pieces[0].rstrip("\n")
        out.append(cell)
        for piece in pieces[1:]:
            piece = piece.rstrip("\n")
            suffix = "sol" if OPENING.match(piece).group("name") == "solution-start" else "end"
            out.append(_new_cell(cell, piece, suffix, taken))
    return out


def _with_marker(text: str, end: int) -> str:
    """``text`` with :data:`MARKER` after the directive that ends at ``end``."""
    rest = text[end:].lstrip("\n")
    if not rest.strip():
        return text[:end] + "\n" + MARKER
    return text[:end] + "\n" + MARKER + "\n\n" + rest


def fold_solutions(nb) -> None:
    """Split, mark and collapse the spanning solutions (see the module's docstring)."""
    cells = _split(nb)
    starts, ends = set(), set()
    opened = None
    for i, cell in enumerate(cells):
        if cell.get("cell_type") != "markdown":
            continue
        for name, a, _ in _directives(_source(cell)):
            if name == "solution-start":
                opened = i
            elif opened is not None:
                if opened != i:
                    starts.add(opened)
                    ends.add(i)
                opened = None
    for i, cell in enumerate(cells):
        if cell.get("cell_type") != "markdown":
            continue
        meta = cell.setdefault("metadata", {})
        if i in starts or i in ends:
            text = _source(cell)
            cell["source"] = _with_marker(text, _directives(text)[0][2])
        if i in starts:
            meta[COLLAPSED] = True
        else:
            meta.pop(COLLAPSED, None)
    nb["cells"] = cells


def code_folding(cell) -> dict:
    """The ``jupyter`` folding a code cell should have, from its tags ({} for none)."""
    tags = set(cell.get("metadata", {}).get("tags", []))
    want = {}
    if tags & SOURCE_TAGS:
        want["source_hidden"] = True
    if tags & OUTPUT_TAGS:
        want["outputs_hidden"] = True
    return want


def fold_code(cell) -> None:
    """Set a code cell's folding from its tags; ``collapsed`` as JupyterLab writes it."""
    meta = cell.setdefault("metadata", {})
    jupyter = {k: v for k, v in meta.get("jupyter", {}).items()
               if k not in ("source_hidden", "outputs_hidden")}
    jupyter.update(code_folding(cell))
    if jupyter:
        meta["jupyter"] = jupyter
    else:
        meta.pop("jupyter", None)
    if jupyter.get("outputs_hidden"):
        meta["collapsed"] = True
    else:
        meta.pop("collapsed", None)


def apply(nb) -> bool:
    """Fold every solution and code cell as the HTML book does; return whether anything changed."""
    import copy

    before = copy.deepcopy(nb["cells"])
    fold_solutions(nb)
    for cell in nb["cells"]:
        if cell.get("cell_type") == "code":
            fold_code(cell)
    return nb["cells"] != before


def main(argv: list[str] | None = None) -> int:
    return run(apply, "tools.lab_markup", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
