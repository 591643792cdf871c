"""Tests of tools/refresh.py (the engine of `make refresh`) and the toc reading it shares with
the ledger."""

import json
import re
from pathlib import Path

import nbformat

from tools import ledger
from tools import refresh as notebooks

ROOT = Path(__file__).resolve().parents[2]


def test_book_notebooks_puts_the_ledger_last(tmp_path):
    for name in ["b/z.ipynb", "ledger.ipynb", "a/x.ipynb",
                 "a/.ipynb_checkpoints/x-checkpoint.ipynb"]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    order = [p.relative_to(tmp_path).as_posix() for p in ledger.book_notebooks(tmp_path)]
    assert order == ["a/x.ipynb", "b/z.ipynb", "ledger.ipynb"]


def test_the_real_book_ends_with_its_ledger():
    order = ledger.book_notebooks(ROOT / "book")
    assert order[-1].name == "ledger.ipynb" and len(order) >= 2


def test_execute_stores_outputs_without_timings_or_widget_state(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import os, sys, time\n"
                                          "print(os.path.basename(os.getcwd()))\n"
                                          "sys.stdout.flush(); time.sleep(0.2); print('more')"),
                nbformat.v4.new_code_cell("1 + 1"),
                nbformat.v4.new_code_cell("import ipywidgets\nipywidgets.Button(description='go')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    folder = tmp_path / "chapter"
    folder.mkdir()
    path = folder / "nb.ipynb"
    nbformat.write(nb, path)
    notebooks.execute(path)
    saved = json.loads(path.read_text())
    first = saved["cells"][0]["outputs"]
    assert len(first) == 1  # the two flushed pieces of stdout are merged
    assert "".join(first[0]["text"]) == "chapter\nmore\n"  # and it ran in its own folder
    assert "".join(saved["cells"][1]["outputs"][0]["data"]["text/plain"]) == "2"
    assert "widgets" not in saved["metadata"]
    widget_output = saved["cells"][2]["outputs"][0]["data"]
    assert (list(widget_output) == ["text/plain"]
            and "Button" in "".join(widget_output["text/plain"]))
    assert all("execution" not in c["metadata"] for c in saved["cells"])


def test_the_table_of_contents_decides_what_belongs_to_the_book(tmp_path):
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: book/intro\nparts:\n  - caption: A\n    chapters:\n"
        "      - file: book/b/second\n      - file: book/a/first\n        sections:\n"
        "          - file: book/a/first_section\n  - caption: R\n    chapters:\n"
        "      - file: book/ledger\n")
    book = tmp_path / "book"
    for name in ["b/second.ipynb", "a/first.ipynb", "a/first_section.ipynb", "ledger.ipynb",
                 "a/draft_not_in_toc.ipynb", "intro.md"]:
        (book / name).parent.mkdir(parents=True, exist_ok=True)
        (book / name).write_text("{}")
    assert ledger.toc_documents(tmp_path / "_toc.yml") == [
        "book/intro", "book/b/second", "book/a/first", "book/a/first_section", "book/ledger"]
    order = [p.relative_to(book).as_posix() for p in ledger.book_notebooks(book)]
    assert order == ["b/second.ipynb", "a/first.ipynb", "a/first_section.ipynb", "ledger.ipynb"]


def test_no_code_line_is_wider_than_the_book_shows():
    """The HTML code column shows about 80 characters; longer lines scroll sideways."""
    too_long = []
    paths = ledger.book_notebooks(ROOT / "book", ROOT / "_toc.yml")
    assert len(paths) >= 10
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                too_long += [f"{path.relative_to(ROOT)} cell {index}: {line}"
                             for line in "".join(cell["source"]).splitlines() if len(line) > 80]
    assert not too_long, "\n".join(too_long)


def test_no_cell_stores_text_written_to_stderr():
    """Warnings and log lines are not for readers, and they carry the path of the machine
    that ran the notebook (strict nbval fails on any other machine)."""
    stderr = []
    for path in ledger.book_notebooks(ROOT / "book", ROOT / "_toc.yml"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            stderr += [f"{path.relative_to(ROOT)} cell {index}: {''.join(out['text'])[:200]}"
                       for out in cell.get("outputs", ())
                       if out.get("output_type") == "stream" and out.get("name") == "stderr"]
    assert not stderr, "\n".join(stderr)


def test_result_cells_show_their_result_and_fold_their_checking_code():
    """A `# result:` cell's code (the assertions) is folded behind a toggle; its output shows."""
    unfolded = []
    for path in ledger.book_notebooks(ROOT / "book", ROOT / "_toc.yml"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            tags = cell.get("metadata", {}).get("tags", [])
            if (cell["cell_type"] == "code" and "".join(cell["source"]).startswith("# result:")
                    and "hide-input" not in tags):
                unfolded.append(f"{path.relative_to(ROOT)} cell {index}")
    assert not unfolded, "result cells without the hide-input tag:\n" + "\n".join(unfolded)


PNG = notebooks.PNG
CHECKING_CODE = re.compile(r"\bassert\b|\breport\(")
FOLDED = {"hide-input", "hide-cell", "remove-input", "remove-cell"}


def test_no_checking_code_is_shown_without_a_click():
    """Code that checks a result (an ``assert`` or ``report(``) sits in a cell whose code
    is folded (hide-input) or not shown at all, out of the reading path."""
    shown = []
    for path in ledger.book_notebooks(ROOT / "book", ROOT / "_toc.yml"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            source = "".join(cell["source"])
            if (cell["cell_type"] == "code" and CHECKING_CODE.search(source)
                    and not FOLDED & set(cell.get("metadata", {}).get("tags", []))):
                line = next(x for x in source.splitlines() if CHECKING_CODE.search(x))
                shown.append(f"{path.relative_to(ROOT)} cell {index}: {line.strip()}")
    assert not shown, "checking code shown without a click:\n" + "\n".join(shown)


# Text below 9 pt: an explicit size under 9 or a relative size smaller than "medium".
SMALL_TEXT = re.compile(
    r"""\b(?:fontsize|labelsize|title_fontsize)\s*=\s*(?:(?P<n>\d+(?:\.\d+)?)\b"""
    r"""|["'](?:xx?-)?small["']|["']smaller["'])""")


def _small_text(source):
    return [m.group(0) for m in SMALL_TEXT.finditer(source)
            if m.group("n") is None or float(m.group("n")) < 9]


def test_figures_are_drawn_for_the_column_and_stored_at_twice_their_size():
    """Every stored figure is shown at most as wide as the text column (688 px at 1280 px,
    so that it is never shrunk and its text keeps the size it was drawn with) and stored
    with twice as many pixels (crisp on high-density screens); no figure code asks for
    text under 9 pt."""
    import base64

    from lecture_pkg.plotting import COLUMN_WIDTH_IN
    from lecture_pkg.widgets._static import png_width

    column_px = COLUMN_WIDTH_IN * 100 + 0.5
    bad = []
    for path in ledger.book_notebooks(ROOT / "book", ROOT / "_toc.yml"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            where = f"{path.relative_to(ROOT)} cell {index}"
            if cell["cell_type"] == "code":
                bad += [f"{where}: text under 9 pt ({t})"
                        for t in _small_text("".join(cell["source"]))]
            for output in cell.get("outputs", []):
                if PNG not in output.get("data", {}):
                    continue
                pixels = png_width(base64.b64decode(output["data"][PNG]))
                shown = output.get("metadata", {}).get(PNG, {}).get("width", pixels)
                if shown > column_px:
                    bad.append(f"{where}: figure shown {shown} px wide, wider than the "
                               f"column ({column_px:.0f} px)")
                if pixels < 1.5 * shown:
                    bad.append(f"{where}: figure of {pixels} px shown {shown} px wide")
    assert not bad, "\n".join(bad)


def test_the_package_figures_ask_for_no_text_under_9_pt():
    """The plotting helpers and the explorers' figures use text of at least 9 pt."""
    package = ROOT / "lecture_pkg"
    bad = [f"{path.relative_to(ROOT)}: {t}"
           for path in [package / "plotting.py", *sorted((package / "widgets").glob("*.py"))]
           for t in _small_text(path.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def _png(pixels):
    import base64
    import io

    import numpy as np
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.asarray(pixels, dtype=np.uint8)).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def _figure_notebook(png, source="plot()"):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png,
                                                                 "text/plain": "<Figure>"})]
    nb.cells = [cell]
    return nb


def test_refresh_keeps_a_stored_figure_that_differs_only_by_anti_aliasing_noise():
    import numpy as np

    base = np.full((60, 80, 3), 255)
    base[30, :] = 0                                       # a line
    noisy = base.copy()
    noisy[29, 10:13] = 252                                # three edge pixels a few levels off
    noisy[31, 40:70] = 200                                # the line's edge moved by a fraction
                                                          # of a pixel
    changed = base.copy()
    changed[10:20, 10:20] = 0                             # a new square: another figure
    stored = _figure_notebook(_png(base))
    same = _figure_notebook(_png(noisy))
    assert notebooks.keep_stored_images(stored, same) == 1
    assert (same.cells[0].outputs[0]["data"]["image/png"]
            == stored.cells[0].outputs[0]["data"]["image/png"])
    other = _figure_notebook(_png(changed))
    assert notebooks.keep_stored_images(stored, other) == 0
    assert other.cells[0].outputs[0]["data"]["image/png"] == _png(changed)
    edited = _figure_notebook(_png(noisy), source="plot(new=True)")    # the code changed
    assert notebooks.keep_stored_images(stored, edited) == 0


def test_refresh_keeps_figures_after_an_inserted_cell():
    import nbformat
    import numpy as np

    base = np.full((60, 80, 3), 255)
    base[30, :] = 0
    noisy = base.copy()
    noisy[31, 40:70] = 200
    stored = _figure_notebook(_png(base))
    new = _figure_notebook(_png(noisy))
    new.cells.insert(0, nbformat.v4.new_code_cell("x = 1", execution_count=1))
    new.cells[1].execution_count = 2
    assert notebooks.keep_stored_images(stored, new) == 1   # matched by source, not position
