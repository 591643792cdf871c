"""The install guard (tools/install_guard.py): every chapter's first code cell, and its message.

A chapter run without lecture_pkg must stop in its first code cell with a short message
naming ``pip install`` and the page that links the wheel, not with a traceback.
(``tests/book/test_wheel.py`` also runs a downloaded chapter in a fresh environment that has
no lecture_pkg at all.)
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tools import install_guard as guard
from tools.notebook_edit import chapter_notebooks

ROOT = Path(__file__).resolve().parents[2]


def test_every_chapter_starts_with_the_same_guard():
    paths = chapter_notebooks(ROOT / "book")
    assert len(paths) >= 10
    missing = [str(p.relative_to(ROOT)) for p in paths
               if not guard.has_guard(nbformat.read(p, as_version=4))]
    assert not missing, ("first code cell is not the install guard; run "
                         "`python -m tools.install_guard`:\n" + "\n".join(missing))


def test_the_guard_is_hidden_in_the_html_and_fits_the_code_column():
    assert guard.GUARD_METADATA == {"tags": ["remove-cell"], "jupyter": {"source_hidden": True}}
    assert max(len(line) for line in guard.GUARD_SOURCE.splitlines()) <= 80


def _notebook(*sources, markdown_first=True):
    nb = nbformat.v4.new_notebook()
    nb.cells = ([nbformat.v4.new_markdown_cell("# Title")] if markdown_first else [])
    nb.cells += [nbformat.v4.new_code_cell(s) for s in sources]
    return nb


def test_apply_inserts_once_before_the_imports_and_is_idempotent():
    nb = _notebook("import numpy as np", "x = 1")
    assert guard.apply(nb) is True
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "code", "code"]
    assert nb.cells[1].id == guard.GUARD_ID and guard.has_guard(nb)
    assert nb.cells[2].source == "import numpy as np"
    assert guard.apply(nb) is False and len(nb.cells) == 4


def test_apply_replaces_an_old_or_moved_guard():
    old = guard.FIRST_LINE + "\nimport lecture_pkg  # an older guard\n"
    nb = _notebook("import numpy as np", old)
    nb.cells[2].id = "something-else"
    assert not guard.has_guard(nb)
    assert guard.apply(nb) is True
    assert [guard.is_guard(c) for c in nb.cells] == [False, True, False]
    assert guard.has_guard(nb) and len(nb.cells) == 3


def test_an_updated_guard_keeps_its_execution_count():
    nb = _notebook(guard.FIRST_LINE + "\nimport lecture_pkg  # an older guard\n",
                   "import numpy as np")
    nb.cells[1].execution_count = 1
    assert guard.apply(nb) and nb.cells[1].execution_count == 1 and guard.has_guard(nb)


def test_a_notebook_without_code_gets_the_guard_at_the_end():
    nb = _notebook(markdown_first=True)
    assert guard.apply(nb) and guard.has_guard(nb) and nb.cells[-1].id == guard.GUARD_ID


@pytest.mark.parametrize("installed", [False, True])
def test_a_chapters_first_cell_without_the_package(installed):
    """The first code cell of a real chapter, run in a kernel: without lecture_pkg it stops
    with the message only (IPython shows no traceback); with it, it prints nothing."""
    from nbclient import NotebookClient

    chapter = chapter_notebooks(ROOT / "book")[0]
    first = next(c for c in nbformat.read(chapter, as_version=4).cells if c.cell_type == "code")
    hide = "" if installed else "import sys\nsys.modules['lecture_pkg'] = None  # not installed"
    nb = _notebook(hide, first.source, "print('the next cell')", markdown_first=False)
    NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True).execute()
    outputs = nb.cells[1].outputs
    if installed:
        assert outputs == []
        return
    assert len(outputs) == 1 and outputs[0].output_type == "error"
    shown = "\n".join(outputs[0].traceback)
    assert outputs[0].ename == "LecturePkgMissing"
    assert "pip install" in shown and guard.RUNNING_PAGE in shown and "make lab" in shown
    assert guard.running_address() in shown and "pandas" in shown
    assert "Traceback" not in shown and "ModuleNotFoundError" not in shown
    assert len(shown.splitlines()) <= 10


def test_the_guard_gives_the_running_pages_address(tmp_path):
    """Relative to the chapter's page (every chapter is book/<part>/<name>), or the
    published URL when _config.yml declares one (html.baseurl)."""
    chapters = chapter_notebooks(ROOT / "book")
    assert all(len(p.relative_to(ROOT / "book").parts) == 2 for p in chapters)
    for chapter in chapters:
        assert (chapter.parent / guard.CHAPTER_TO_RUNNING).with_suffix(".md").resolve() == (
            ROOT / guard.RUNNING_PATH).with_suffix(".md")
    config = tmp_path / "_config.yml"
    config.write_text("title: x\n")
    assert guard.running_address(config) == "../running.html from this chapter's page"
    config.write_text("title: x\nhtml:\n  baseurl: https://example.org/course/\n")
    assert guard.running_address(config) == "https://example.org/course/book/running.html"


def test_the_command_line_checks_and_then_fixes_a_notebook(tmp_path, capsys):
    path = tmp_path / "chapter.ipynb"
    nbformat.write(_notebook("import numpy as np"), path)
    assert guard.main(["--check", str(path)]) == 1
    assert "python -m tools.install_guard" in capsys.readouterr().out
    assert guard.main([str(path)]) == 0
    assert guard.main(["--check", str(path)]) == 0
    assert guard.has_guard(nbformat.read(path, as_version=4))
