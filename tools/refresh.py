"""Re-executing the book's notebooks in place (``make refresh``).

Run as ``python -m tools.refresh [BOOK_DIR] [NOTEBOOK ...]`` from the repository root
(``make refresh``).  This is book tooling, not part of the installed package.  Every notebook
is executed top to bottom in a fresh kernel and saved with its outputs; the ledger page
runs last because it reads the other notebooks' stored outputs.  What is saved is made
reproducible: no execution timings, and no widget state (a live widget belongs to a
running kernel; stored state would make the HTML book load widget code from a CDN).
A figure that comes out the same to the eye keeps its stored bytes (:func:`keep_stored_images`),
so that re-executing on another CPU leaves the notebooks unchanged.

The notebooks are written in the form JupyterLab writes when it saves them
(:func:`lab_form`), so that opening a chapter in JupyterLab and saving it unchanged leaves
``git diff`` empty.  ``python -m tools.refresh --normalise [NOTEBOOK ...]`` puts notebooks
in that form without executing them (default: every notebook of the book); with
``--check`` it only lists the notebooks that are not (exit 1).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

from tools.ledger import book_notebooks

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def normalise(nb) -> None:
    """Drop what varies between runs without changing what a reader sees.

    Execution timings, the widget state and the references to it (random model ids)
    go; a widget output keeps its plain-text form.  Consecutive pieces of the same
    stream are merged, since how printed text is split into messages depends on timing.
    """
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        merged = []
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
            previous = merged[-1] if merged else None
            if (output.get("output_type") == "stream" and previous is not None
                    and previous.get("output_type") == "stream"
                    and previous.get("name") == output.get("name")):
                previous["text"] = "".join(previous["text"]) + "".join(output["text"])
            else:
                merged.append(output)
        if cell.cell_type == "code":
            cell.outputs = merged


KERNEL_NAME = "python3"


def kernel_display_name(name: str = KERNEL_NAME) -> str:
    """The kernel's name as JupyterLab shows it and writes it into ``kernelspec``: the
    installed kernelspec's ``display_name`` ("Python 3 (ipykernel)" for ipykernel's)."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        return KernelSpecManager().get_kernel_spec(name).display_name
    except NoSuchKernel:
        return "Python 3 (ipykernel)"


def _collapse_state(cell) -> None:
    """A cell's folding metadata as JupyterLab 4 writes it (``Cell.saveCollapseState``):
    ``jupyter.source_hidden``/``outputs_hidden`` and ``jp-MarkdownHeadingCollapsed`` are
    ``true`` or absent, ``collapsed`` is ``true`` exactly when the outputs are hidden,
    ``scrolled`` is ``true`` or absent, and an empty ``jupyter`` goes."""
    meta = cell.setdefault("metadata", {})
    jupyter = dict(meta.get("jupyter") or {})
    code = cell.get("cell_type") == "code"
    for key in ("source_hidden", "outputs_hidden") if code else ("source_hidden",):
        if jupyter.get(key) is not True:
            jupyter.pop(key, None)
    if jupyter:
        meta["jupyter"] = jupyter
    else:
        meta.pop("jupyter", None)
    if cell.get("cell_type") == "code":
        if jupyter.get("outputs_hidden") is True:
            meta["collapsed"] = True
        else:
            meta.pop("collapsed", None)
        if meta.get("scrolled") is not True:
            meta.pop("scrolled", None)
    if cell.get("cell_type") == "markdown" and meta.get("jp-MarkdownHeadingCollapsed") is not True:
        meta.pop("jp-MarkdownHeadingCollapsed", None)


def lab_form(nb, display_name: str | None = None) -> None:
    """Put ``nb`` in the form JupyterLab 4 saves it in, so that a save without an edit
    changes nothing: the kernelspec with the installed kernel's display name (JupyterLab
    writes it when the kernel starts), each cell's folding metadata as JupyterLab writes
    it (:func:`_collapse_state`), nbformat 4.5.  The file itself is ``nbformat.write``'s
    (one-space indentation, sorted keys, a final newline), which is also how the
    Jupyter server writes what JupyterLab saves."""
    spec = nb.metadata.setdefault("kernelspec", {})
    spec["name"] = spec.get("name") or KERNEL_NAME
    spec["language"] = spec.get("language") or "python"
    spec["display_name"] = display_name or kernel_display_name(spec["name"])
    nb.nbformat, nb.nbformat_minor = 4, max(5, nb.get("nbformat_minor", 5))
    for cell in nb.cells:
        _collapse_state(cell)


PNG = "image/png"
IMAGE_TOLERANCE = 32
"""How far a re-rendered PNG may differ from the stored one and still count as the same
figure: after averaging each picture over 3 x 3 pixel blocks, no channel differs by more
than this many levels (of 255).  Plotted coordinates computed on another CPU differ in
their last bits (and an iterative solver's answer within its tolerance), which moves
anti-aliased edges and contour lines by a fraction of a pixel: about 10 levels after the
averaging.  A changed digit in a label, or a marker moved by a few pixels, differs by
80 levels or more."""


def _same_picture(stored: str, new: str) -> bool:
    """Whether two base64 PNGs show the same figure up to sub-pixel shifts of its lines."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    def blurred(data):
        a = np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGBA"), dtype=float)
        padded = np.pad(a, ((1, 1), (1, 1), (0, 0)), mode="edge")
        h, w = a.shape[:2]
        return a.shape, sum(padded[i:i + h, j:j + w] for i in range(3) for j in range(3)) / 9

    (shape_a, a), (shape_b, b) = blurred(stored), blurred(new)
    return shape_a == shape_b and float(np.abs(a - b).max()) <= IMAGE_TOLERANCE


def keep_stored_images(stored, new) -> int:
    """Put the stored PNG back wherever the new one shows the same figure; return how many.

    A new cell is matched with the first unused stored cell of the same source, so that
    inserting or removing cells keeps the other figures; outputs are matched by position.
    """
    unused: dict[str, list] = {}
    for old_cell in stored.cells:
        if old_cell.cell_type == "code":
            unused.setdefault(old_cell.get("source", ""), []).append(old_cell)
    kept = 0
    for cell in new.cells:
        candidates = unused.get(cell.get("source", "")) if cell.cell_type == "code" else None
        if not candidates:
            continue
        old_cell = candidates.pop(0)
        for old_out, out in zip(old_cell.get("outputs", []), cell.get("outputs", [])):
            old_png, png = old_out.get("data", {}).get(PNG), out.get("data", {}).get(PNG)
            if old_png and png and old_png != png and _same_picture(old_png, png):
                out["data"][PNG] = old_png
                kept += 1
    return kept


def execute(path: str | Path, timeout: int = 120) -> float:
    """Execute one notebook in place with its own directory as working directory; return seconds."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    stored = copy.deepcopy(nb)
    start = time.perf_counter()
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    normalise(nb)
    keep_stored_images(stored, nb)
    lab_form(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def normalise_files(paths, check: bool = False) -> list[Path]:
    """Put notebooks in the stored form (:func:`normalise`, :func:`lab_form`) without
    executing them; return those that were not (with ``check``, change nothing)."""
    import nbformat

    name = kernel_display_name()
    stale = []
    for path in map(Path, paths):
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=4)
        normalise(nb)
        lab_form(nb, name)
        new = nbformat.writes(nb)
        new += "" if new.endswith("\n") else "\n"
        if new != text:
            stale.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book_dir", nargs="?", default="book")
    parser.add_argument("notebooks", nargs="*",
                        help="only these notebooks (default: all, ledger last)")
    parser.add_argument("--normalise", action="store_true",
                        help="do not execute: only write the notebooks in JupyterLab's form")
    parser.add_argument("--check", action="store_true",
                        help="with --normalise: only list the notebooks not in that form (exit 1)")
    args = parser.parse_args(argv)
    if args.book_dir.endswith(".ipynb"):          # `--normalise NOTEBOOK ...` without BOOK_DIR
        args.notebooks.insert(0, args.book_dir)
        args.book_dir = "book"
    paths = [Path(p) for p in args.notebooks] or book_notebooks(args.book_dir)
    if args.normalise or args.check:
        stale = normalise_files(paths, check=args.check)
        for path in stale:
            print(f"{'not in JupyterLab form' if args.check else 'normalised'}: {path}")
        return 1 if args.check and stale else 0
    for path in paths:
        print(f"executing {path} ...", end=" ", flush=True)
        print(f"{execute(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
