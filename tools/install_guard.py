"""The install guard: every chapter notebook's first code cell.

A student who downloads a chapter from the HTML book and runs it without the course's
package should be told how to get it, not shown a ``ModuleNotFoundError`` traceback.
This tool puts :data:`GUARD_SOURCE` into every chapter notebook as its first code cell:
it imports ``lecture_pkg`` and, when that fails, stops with a short message naming
``pip install`` and the page of the book that links the wheel, with its address
(:func:`running_address`: the published URL if ``_config.yml`` sets ``html.baseurl``,
otherwise the page's place relative to the chapter's page).  The cell is tagged
``remove-cell``, so the HTML book does not show it, and its code is folded in JupyterLab;
with the package installed it prints nothing.

Run ``python -m tools.install_guard [--check] [NOTEBOOK ...]`` from the repository root.
Without notebooks it takes every notebook of the book (the table of contents' order)
except the ledger, which is generated.  The tool is idempotent and is the source of truth:
after merging branches that edited the notebooks, run it again; ``--check`` only reports
notebooks whose first code cell is not the guard (``tests/tools/test_install_guard.py`` does
the same).  This is book tooling, not part of the installed package.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools.notebook_edit import run

ROOT = Path(__file__).resolve().parents[1]

GUARD_ID = "install-guard"
"""The guard cell's id in every notebook (a fixed id keeps merges and diffs readable)."""

GUARD_TAGS = ["remove-cell"]
GUARD_METADATA = {"tags": GUARD_TAGS, "jupyter": {"source_hidden": True}}
"""``remove-cell`` keeps it out of the HTML book; ``source_hidden`` folds its code in
JupyterLab (a click on the bar shows it), while its message, if any, stays visible."""

RUNNING_PAGE = "Running the notebooks yourself"
"""The title of the page (book/running.md) that links the wheel and says how to install."""

RUNNING_PATH = "book/running.html"
"""Where the HTML book puts that page, relative to the site's root."""

CHAPTER_TO_RUNNING = "../running.html"
"""The page's address relative to a chapter's page (every chapter is ``book/<part>/<name>``)."""


def running_address(config_path: str | Path = ROOT / "_config.yml") -> str:
    """The running page's address as the guard gives it: ``html.baseurl`` of the book's
    configuration joined with :data:`RUNNING_PATH` when the book declares where it is
    published, otherwise :data:`CHAPTER_TO_RUNNING` (from the chapter's page)."""
    import yaml

    config = yaml.safe_load(Path(config_path).read_text(encoding="utf-8")) or {}
    base = str((config.get("html") or {}).get("baseurl") or "").strip()
    if base:
        return f"{base.rstrip('/')}/{RUNNING_PATH}"
    return f"{CHAPTER_TO_RUNNING} from this chapter's page"


ADDRESS = running_address()

GUARD_SOURCE = f'''\
# Stops with a short message if lecture_pkg, the course's package, is missing.
try:
    import lecture_pkg  # noqa: F401
except ModuleNotFoundError as error:
    if error.name != "lecture_pkg":
        raise

    class LecturePkgMissing(Exception):
        def _render_traceback_(self):  # IPython shows only the message
            return [str(self)]

    raise LecturePkgMissing(
        "This notebook needs lecture_pkg, the course's Python package.\\n"
        "Download its wheel (lecture_pkg-<version>-py3-none-any.whl) from the\\n"
        "page '{RUNNING_PAGE}' of the HTML book\\n"
        "({ADDRESS})\\n"
        "and install it into this kernel's Python, for example in a cell:\\n"
        "    %pip install lecture_pkg-<version>-py3-none-any.whl\\n"
        "(pip also installs numpy, scipy, scikit-learn, matplotlib, pandas\\n"
        "and ipywidgets); then restart the kernel and run the notebook again.\\n"
        "In a clone of the course's repository, `make lab` does all of this."
    ) from None
'''
"""The first code cell of every chapter notebook."""

FIRST_LINE = GUARD_SOURCE.splitlines()[0]


def is_guard(cell) -> bool:
    """Whether ``cell`` is a guard cell, current or from an older version of this tool."""
    source = "".join(cell.get("source", ""))
    return cell.get("cell_type") == "code" and (
        cell.get("id") == GUARD_ID or source.splitlines()[:1] == [FIRST_LINE])


def has_guard(nb) -> bool:
    """Whether the notebook's first code cell is exactly the current guard, and the only one."""
    code = [cell for cell in nb["cells"] if cell.get("cell_type") == "code"]
    guards = [cell for cell in nb["cells"] if is_guard(cell)]
    if not code or len(guards) != 1 or code[0] is not guards[0]:
        return False
    cell = code[0]
    return ("".join(cell["source"]) == GUARD_SOURCE and not cell.get("outputs")
            and cell.get("metadata") == GUARD_METADATA)


def new_guard_cell():
    """A fresh guard cell (no outputs; the next refresh gives it an execution count)."""
    import nbformat

    import copy

    cell = nbformat.v4.new_code_cell(GUARD_SOURCE, metadata=copy.deepcopy(GUARD_METADATA))
    cell["id"] = GUARD_ID
    return cell


def apply(nb) -> bool:
    """Make the notebook's first code cell the guard; return whether anything changed.

    Old or duplicate guard cells are removed and one current guard is put just before
    the first other code cell (the imports), with the execution count of the guard it
    replaces (it prints nothing, so the stored notebook stays as if it had run).  A notebook
    that already has it is left alone.
    """
    if has_guard(nb):
        return False
    old = [cell for cell in nb["cells"] if is_guard(cell)]
    cells = [cell for cell in nb["cells"] if not is_guard(cell)]
    first_code = next((i for i, cell in enumerate(cells) if cell.get("cell_type") == "code"),
                      len(cells))
    guard = new_guard_cell()
    if old and old[0].get("execution_count"):       # an updated guard keeps its place in the run
        guard["execution_count"] = old[0]["execution_count"]
    cells.insert(first_code, guard)
    nb["cells"] = cells
    return True


def main(argv: list[str] | None = None) -> int:
    return run(apply, "tools.install_guard", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
