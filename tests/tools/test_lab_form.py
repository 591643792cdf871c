"""tools/refresh.py stores the notebooks in the form JupyterLab saves them in (issue 28).

Opening a chapter in JupyterLab and saving it without an edit must leave ``git diff``
empty (``tests/book/test_lab.py`` checks that in a browser); these tests check the form
itself: the kernelspec's display name, the folding metadata, the file's layout.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from tools.ledger import book_notebooks
from tools import refresh

ROOT = Path(__file__).resolve().parents[2]


def test_every_notebook_is_stored_in_jupyterlabs_form():
    stale = refresh.normalise_files(book_notebooks(ROOT / "book"), check=True)
    assert not stale, ("not in the form JupyterLab saves; run "
                       "`python -m tools.refresh --normalise`:\n"
                       + "\n".join(str(p.relative_to(ROOT)) for p in stale))


def test_the_kernel_is_named_as_jupyterlab_names_it():
    assert refresh.kernel_display_name() == "Python 3 (ipykernel)"


def _nb():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.cells = [
        md("# A", metadata={"jp-MarkdownHeadingCollapsed": False,
                            "jupyter": {"source_hidden": False}}),
        md("## B", metadata={"jp-MarkdownHeadingCollapsed": True}),
        code("x", metadata={"jupyter": {"outputs_hidden": True}, "scrolled": False}),
        code("y", metadata={"jupyter": {"source_hidden": True, "outputs_hidden": False},
                            "collapsed": False}),
        code("z", metadata={"collapsed": True, "scrolled": True}),
    ]
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    return nb


def test_lab_form_writes_folding_as_jupyterlab_does():
    nb = _nb()
    refresh.lab_form(nb, "Python 3 (ipykernel)")
    assert nb.metadata.kernelspec == {"display_name": "Python 3 (ipykernel)",
                                      "language": "python", "name": "python3"}
    assert [c.metadata for c in nb.cells] == [
        {},
        {"jp-MarkdownHeadingCollapsed": True},
        {"jupyter": {"outputs_hidden": True}, "collapsed": True},
        {"jupyter": {"source_hidden": True}},
        {"scrolled": True},
    ]
    assert (nb.nbformat, nb.nbformat_minor) == (4, 5)


def test_normalise_files_rewrites_once_and_checks(tmp_path, capsys):
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps(_nb(), indent=2))                 # not nbformat's layout
    assert refresh.main(["--normalise", "--check", str(path)]) == 1
    assert "not in JupyterLab form" in capsys.readouterr().out
    assert refresh.main(["--normalise", str(path)]) == 0
    text = path.read_text()
    assert text.endswith("}\n") and text.startswith('{\n "cells": [\n  {\n')
    assert '"display_name": "Python 3 (ipykernel)"' in text
    assert refresh.normalise_files([path], check=True) == []
    assert refresh.main(["--normalise", str(path)]) == 0 and path.read_text() == text
