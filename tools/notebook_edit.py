"""The command line shared by the tools that edit every chapter notebook in place.

``tools.install_guard`` and ``tools.lab_markup`` each define an idempotent
``apply(nb) -> bool`` (whether it changed the notebook); :func:`run` reads the notebooks
given (default: every chapter notebook, that is every notebook of the book but the
ledger), applies it and writes back what changed, or with ``--check`` only lists the
notebooks it would change and exits 1.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable
from pathlib import Path

from tools.ledger import LEDGER_NAME, book_notebooks


def chapter_notebooks(book_dir: str | Path = "book") -> list[Path]:
    """The notebooks these tools edit: every notebook of the book except the ledger."""
    return [p for p in book_notebooks(book_dir) if p.name != LEDGER_NAME]


def run(apply: Callable, module: str, description: str, argv: list[str] | None = None) -> int:
    """Apply ``apply`` to the notebooks on the command line; return the exit status."""
    import nbformat

    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    parser.add_argument("--check", action="store_true",
                        help="only list the notebooks it would change (exit 1 if any)")
    parser.add_argument("notebooks", nargs="*", help="default: every chapter notebook")
    args = parser.parse_args(argv)
    stale = []
    for path in [Path(p) for p in args.notebooks] or chapter_notebooks():
        nb = nbformat.read(path, as_version=4)
        if args.check:
            if apply(copy.deepcopy(nb)):
                stale.append(path)
        elif apply(nb):
            nbformat.write(nb, path)
            print(f"updated: {path}")
    if stale:
        print(f"not up to date (run `python -m {module}`):")
        print("\n".join(f"    {p}" for p in stale))
        return 1
    return 0
