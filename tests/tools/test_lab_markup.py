"""tools/lab_markup.py: JupyterLab folds what the HTML book folds (solutions, hidden code).

What JupyterLab does with the markup is tested in a browser by ``tests/book/test_lab.py``;
these tests check the notebooks' markup itself.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat

from tools import lab_markup
from tools.lab_markup import COLLAPSED, MARKER
from tools.notebook_edit import chapter_notebooks

ROOT = Path(__file__).resolve().parents[2]


def test_every_chapter_is_folded_as_its_tags_and_solutions_say():
    stale = [str(p.relative_to(ROOT)) for p in chapter_notebooks(ROOT / "book")
             if lab_markup.apply(nbformat.read(p, as_version=4))]
    assert not stale, ("JupyterLab folding not up to date; run `python -m tools.lab_markup`:\n"
                       + "\n".join(stale))


EXERCISE = "```{exercise-start}\n:label: ex\n```\nDo it.\n```{exercise-end}\n```\n\n"
START = "```{solution-start} ex\n:class: dropdown\n```\n"
END = "```{solution-end}\n```\n"


def _nb():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        code("import numpy"),
        md("Some text.\n\n" + EXERCISE + START + "Like this:"),
        code("answer = 42", metadata={"jupyter": {"source_hidden": True, "outputs_hidden": True}}),
        code("check()", metadata={"tags": ["remove-input"]}),
        md("Which is the answer.\n" + END + "\nAfter the solution.\n\n" + EXERCISE + START
           + "One cell: the answer is 1.\n" + END + "\n## Key ideas"),
        code("hidden = 1", metadata={"tags": ["hide-input"]}),
        code("shown = 1", metadata={"jupyter": {"source_hidden": True, "other": 1}}),
        code("widget()", metadata={"tags": ["remove-output"]}),
        code("out()", metadata={"tags": ["hide-output"]}),
        md("## Heading", metadata={COLLAPSED: True}),
    ]
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    return nb


def _text(nb) -> str:
    """All markdown without the markers, whitespace normalised: what the HTML book reads."""
    return " ".join(" ".join(lab_markup._strip_markers(c.source).split())
                    for c in nb.cells if c.cell_type == "markdown")


def test_a_solution_spanning_cells_gets_cells_of_its_own_a_collapsed_start_and_an_end():
    nb = _nb()
    text = _text(nb)
    assert lab_markup.apply(nb) is True
    kinds = [(c.id, c.cell_type) for c in nb.cells]
    assert kinds == [("c0", "code"), ("c1", "markdown"), ("c1-sol", "markdown"),
                     ("c2", "code"), ("c3", "code"), ("c4", "markdown"), ("c4-end", "markdown"),
                     ("c5", "code"), ("c6", "code"), ("c7", "code"), ("c8", "code"),
                     ("c9", "markdown")]
    cells = dict(zip([k for k, _ in kinds], nb.cells))
    assert cells["c1"].source == "Some text.\n\n" + EXERCISE.rstrip("\n")
    assert cells["c1-sol"].source == START + MARKER + "\n\nLike this:"
    assert cells["c1-sol"].metadata == {COLLAPSED: True}
    assert cells["c4"].source == "Which is the answer." and cells["c4"].metadata == {}
    end = cells["c4-end"]
    assert end.source.startswith(END + MARKER + "\n\nAfter the solution.")
    assert end.metadata == {}, "the end of the fold is not collapsed"
    # the solution within one cell is left to jupyterlab-myst's Solution box
    assert end.source.count(MARKER) == 1 and "One cell: the answer is 1." in end.source
    assert _text(nb) == text, "the text the HTML book reads is unchanged"
    # every heading JupyterLab sees outside the markers is the authors'; their fold goes
    assert cells["c9"].metadata == {}


def test_code_folds_by_its_tags_only_and_collapsed_follows_the_outputs():
    nb = _nb()
    lab_markup.apply(nb)
    meta = {c.id: c.metadata for c in nb.cells if c.cell_type == "code"}
    assert meta["c0"] == {}
    assert meta["c2"] == {}, "code in a solution is hidden by the fold, not folded itself"
    assert meta["c3"] == {"tags": ["remove-input"], "jupyter": {"source_hidden": True}}
    assert meta["c5"] == {"tags": ["hide-input"], "jupyter": {"source_hidden": True}}
    assert meta["c6"] == {"jupyter": {"other": 1}}
    assert meta["c7"] == {"tags": ["remove-output"]}
    assert meta["c8"] == {"tags": ["hide-output"], "jupyter": {"outputs_hidden": True},
                          "collapsed": True}


def test_the_markup_is_idempotent_and_survives_a_changed_solution():
    nb = _nb()
    lab_markup.apply(nb)
    again = copy.deepcopy(nb)
    assert lab_markup.apply(again) is False and again == nb
    # an author moves the solution's last text into the start cell: the old split stays,
    # the markers and the fold follow the markup
    nb.cells[1].source += "\n\n" + START
    nb.cells[2].source = nb.cells[2].source.replace(START, "Start moved up.\n\n")
    nb.cells[2].source = lab_markup._strip_markers(nb.cells[2].source)
    lab_markup.apply(nb)
    sources = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert sum(s.count(MARKER) for s in sources) == 2
    folds = [c.metadata.get(COLLAPSED) for c in nb.cells if c.cell_type == "markdown"]
    assert folds.count(True) == 1
    assert lab_markup.apply(copy.deepcopy(nb)) is False


def test_the_marker_is_an_empty_hidden_heading():
    assert re.fullmatch(r'<h6 [^>]*\bhidden\b[^>]*></h6>', MARKER)
