"""Chapters link to the API reference (tools/api_links.py, book/api).

Every chapter whose code uses the package carries, after its imports, a folded box that
links each function and class it uses to its entry in the reference; the box is derived
from the code, so it must be up to date.  (The HTML build, nitpicky and with warnings as
errors, checks that every link resolves.)
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat

from tools import api_links
from tools.notebook_edit import chapter_notebooks

ROOT = Path(__file__).resolve().parents[2]


def test_every_chapter_box_is_up_to_date():
    stale = []
    for path in chapter_notebooks(ROOT / "book"):
        nb = nbformat.read(path, as_version=4)
        if api_links.apply(copy.deepcopy(nb)):
            stale.append(str(path.relative_to(ROOT)))
    assert not stale, "run `python -m tools.api_links`:\n" + "\n".join(stale)


def test_the_boxes_name_what_the_code_uses_where_the_reference_documents_it():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title"),
        nbformat.v4.new_code_cell("from lecture_pkg.linear import Perceptron, augment\n"
                                  "from lecture_pkg.neurons import hopfield as hp\n"
                                  "from lecture_pkg import datasets, plotting\n"
                                  "from lecture_pkg.results import report\n"
                                  "from lecture_pkg.linear.adatron import AdaTron\n"
                                  "from lecture_pkg.kernel_machines import kernel_perceptron"),
        nbformat.v4.new_code_cell("%matplotlib inline\nX, y = datasets.xor()\n"
                                  "hp.run\nplotting.use_book_style()\nhp.ALPHA_R"),
    ]
    assert api_links.used_names(nb) == [
        "lecture_pkg.neurons.run", "lecture_pkg.linear.AdaTron", "lecture_pkg.linear.augment",
        "lecture_pkg.linear.Perceptron", "lecture_pkg.kernel_machines.kernel_perceptron",
        "lecture_pkg.datasets.xor"]
    assert api_links.apply(nb) and not api_links.apply(nb)     # idempotent
    box = nb.cells[2]
    assert box.id == api_links.CELL_ID and box.cell_type == "markdown"
    assert "[`Perceptron`](#lecture_pkg.linear.Perceptron)" in box.source
    assert "[`lecture_pkg.linear`](#api-linear)" in box.source


def test_every_family_the_boxes_name_has_a_reference_page():
    for family in api_links.FAMILIES:
        page = ROOT / "book" / "api" / f"{family}.md"
        assert page.is_file(), page
        text = page.read_text(encoding="utf-8")
        assert f"(api-{family.replace('_', '-')})=" in text
        assert f".. automodule:: lecture_pkg.{family}" in text
