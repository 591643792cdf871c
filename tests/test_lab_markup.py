"""tools/lab_markup.py: JupyterLab folds what the HTML book folds (solutions, hidden code)."""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat

from tools import lab_markup
from tools.notebook_edit import chapter_notebooks

ROOT = Path(__file__).resolve().parents[1]


def test_every_chapter_is_folded_as_its_tags_and_solutions_say():
    stale = [str(p.relative_to(ROOT)) for p in chapter_notebooks(ROOT / "book")
             if lab_markup.apply(nbformat.read(p, as_version=4))]
    assert not stale, ("JupyterLab folding not up to date; run `python -m tools.lab_markup`:\n"
                       + "\n".join(stale))


def _nb():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        code("import numpy"),
        md("```{exercise-start}\n:label: ex\n```\nDo it.\n```{exercise-end}\n```\n\n"
           "```{solution-start} ex\n:class: dropdown\n```\nLike this:"),
        code("answer = 42"),
        md("```{solution-end}\n```\nAfter the solution."),
        code("hidden = 1", metadata={"tags": ["hide-input"]}),
        code("shown = 1", metadata={"jupyter": {"source_hidden": True, "other": 1}}),
        code("widget()", metadata={"tags": ["remove-output"]}),
        code("out()", metadata={"tags": ["hide-output"]}),
    ]
    return nb


def test_solution_code_and_hidden_input_fold_and_the_rest_unfolds():
    nb = _nb()
    assert lab_markup.apply(nb) is True
    jupyter = [c.metadata.get("jupyter") for c in nb.cells]
    both = {"source_hidden": True, "outputs_hidden": True}
    assert jupyter == [None, None, both, None, {"source_hidden": True}, {"other": 1},
                       None, {"outputs_hidden": True}]
    again = copy.deepcopy(nb)
    assert lab_markup.apply(again) is False and again == nb
