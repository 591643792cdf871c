"""The book's ledger of stated results, and the book's notebooks in reading order.

Book tooling (not part of ``lecture_pkg``): every stated result of ``RESULTS.md`` is
reproduced in a notebook cell whose first line is ``# result: <ID>``, and that cell
prints one line through :func:`lecture_pkg.results.report`.  :func:`ledger` reads those
lines from the stored outputs of the notebooks the table of contents lists, so the
ledger page (``book/ledger.ipynb``, which calls :func:`ledger_html`) always shows what the
executed notebooks actually reproduced.  :func:`book_notebooks` gives the notebooks in
the order ``make refresh``, the tests and the benchmarks run them.
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from lecture_pkg.plotting import SCRIPT_CAPITALS
from lecture_pkg.results import SOURCES, ledger_anchor, stated_results

__all__ = ["LEDGER_NAME", "toc_documents", "book_notebooks", "find_reproductions", "ledger",
           "ledger_html"]

RESULT_MARKER = re.compile(r"^#\s*result:\s*([A-Z]\.\d+)\s*$")

LEDGER_NAME = "ledger.ipynb"


def toc_documents(toc_path: str | Path) -> list[str]:
    """The documents a Jupyter Book ``_toc.yml`` lists (``root`` and every ``file:``), in order.

    Paths are as written in the toc, relative to the book's source directory and
    without suffix.  A plain line scan: the toc format needs no YAML parser for this.
    """
    docs = []
    for line in Path(toc_path).read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^\s*(?:-\s*)?(?:root|file):\s*(\S+)\s*$", line):
            docs.append(m.group(1))
    return docs


def book_notebooks(book_dir: str | Path, toc_path: str | Path | None = None) -> list[Path]:
    """The notebooks of the book in execution order: chapters in toc order, the ledger last.

    Only notebooks the table of contents lists belong to the book; ``toc_path`` defaults
    to ``_toc.yml`` beside ``book_dir``.  Without a toc file every notebook under
    ``book_dir`` is taken, sorted by path.
    """
    book_dir = Path(book_dir)
    toc_path = Path(toc_path) if toc_path is not None else book_dir.resolve().parent / "_toc.yml"
    if toc_path.exists():
        root = toc_path.resolve().parent
        paths = [root / f"{doc}.ipynb" for doc in toc_documents(toc_path)]
        paths = [book_dir / p.relative_to(book_dir.resolve()) for p in paths if p.exists()]
    else:
        paths = sorted(p for p in book_dir.rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts and "_build" not in p.parts)
    return [p for p in paths if p.name != LEDGER_NAME] + [p for p in paths if p.name == LEDGER_NAME]


@dataclass
class Reproduction:
    id: str
    notebook: Path          # relative to the book directory
    page: str               # title of the notebook (its first heading)
    section: str            # heading text of the section holding the cell
    anchor: str             # html id of that section
    output: str             # the line printed by report()
    ok: bool                # printed a report line and raised no error

    @property
    def kind(self) -> str:
        """The kind of check the line records: ``exact``, ``statistical (...)``, ..."""
        fields = [f.strip() for f in self.output.split(" | ")]
        return fields[3] if len(fields) > 3 else ""


def _section_of(markdown: str) -> tuple[str, str] | None:
    """Last heading in a markdown cell and the id Sphinx gives it (an explicit label wins)."""
    from docutils.nodes import make_id

    found, label = None, None
    for line in markdown.splitlines():
        if m := re.match(r"^\(([^)]+)\)=\s*$", line.strip()):
            label = m.group(1)
        elif m := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line):
            title = m.group(1)
            found = (title, make_id(label) if label else make_id(re.sub(r"[`*$]", "", title)))
            label = None
    return found


def find_reproductions(book_dir: str | os.PathLike) -> list[Reproduction]:
    """Scan the book's notebooks for ``# result: <ID>`` cells and their stored output.

    The book's notebooks are those its table of contents lists (see
    :func:`book_notebooks`), in toc order.
    """

    book_dir = Path(book_dir)
    found = []
    for path in book_notebooks(book_dir):
        nb = json.loads(path.read_text(encoding="utf-8"))
        section, page = (path.stem, ""), None
        for cell in nb.get("cells", []):
            source = "".join(cell.get("source", []))
            if cell.get("cell_type") == "markdown":
                if page is None and (m := re.search(r"^#\s+(.+?)\s*$", source, re.M)):
                    page = m.group(1)
                section = _section_of(source) or section
                continue
            if cell.get("cell_type") != "code" or not source.strip():
                continue
            m = RESULT_MARKER.match(source.splitlines()[0])
            if not m:
                continue
            rid = m.group(1)
            outputs = cell.get("outputs", [])
            text = "".join("".join(o.get("text",
                                         [])) for o in outputs if o.get("output_type") == "stream")
            text += "\n" + "\n".join("".join(o.get("data", {}).get("text/plain",
                                                                   [])) for o in outputs
                                     if o.get("output_type") == "display_data")
            lines = [ln for ln in text.splitlines() if ln.startswith(f"{rid} | reproduced:")]
            error = any(o.get("output_type") == "error" for o in outputs)
            found.append(Reproduction(rid, path.relative_to(book_dir), page or path.stem,
                                      section[0], section[1],
                                      lines[-1] if lines else "", bool(lines) and not error))
    return found


def ledger(book_dir: str | os.PathLike) -> list[dict]:
    """One row per stated result: where the book reproduces it and the value it printed."""
    where: dict[str, list[Reproduction]] = {}
    for rep in find_reproductions(book_dir):
        where.setdefault(rep.id, []).append(rep)
    rows = []
    for res in stated_results():
        reps = where.get(res.id, [])
        rows.append({"id": res.id, "group": res.group, "result": res.result, "check": res.check,
                     "reproductions": reps,
                     "status": "reproduced" if reps and all(r.ok for r in reps)
                     else ("failed" if reps else "not yet")})
    unknown = sorted(set(where) - {r["id"] for r in rows})
    if unknown:
        raise ValueError(f"notebooks report results that are not in the results list: {unknown}")
    return rows


_INLINE_MATH = re.compile(r"\$([^$]+)\$")
_TEX_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "eta": "η", "theta": "θ",
    "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "Phi": "Φ", "psi": "ψ", "Psi": "Ψ", "omega": "ω", "Omega": "Ω",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "approx": "≈", "cdot": "·",
    "times": "×", "infty": "∞", "to": "→", "sqrt": "√", "sum": "Σ", "pm": "±",
}
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _tex_to_text(tex: str) -> str:
    """Inline TeX of a heading as plain Unicode text: ``\\sqrt{\\mathcal M}`` -> ``√ℳ``.

    The ledger is an HTML output, which the book's MathJax does not typeset (a page
    without maths of its own does not even load MathJax), and the headings it quotes use
    only simple inline maths: Greek letters, script capitals, relations, roots and digit
    powers.
    """
    text = re.sub(r"\\mathcal\s*\{?([A-Z])\}?", lambda m: SCRIPT_CAPITALS[m.group(1)], tex)
    text = re.sub(r"\\(mathbf|boldsymbol|mathrm)\s*", "{}", text)   # bold is not kept
    text = re.sub(r"\^\{?\*\}?", "*", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _TEX_SYMBOLS.get(m.group(1), m.group(1)), text)
    text = re.sub(r"√\s+", "√", text)
    text = re.sub(r"\^\{?(\d+)\}?", lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    return text.replace("{", "").replace("}", "").replace("\\,", " ")


def _html_with_math(text: str) -> str:
    """Escape ``text`` for HTML, writing its ``$...$`` maths as plain Unicode text."""
    return html.escape(_INLINE_MATH.sub(lambda m: _tex_to_text(m.group(1)), text), quote=False)


#: The number of a source in RESULTS.md (000-004), named on the page by ``SOURCES[code].name``.
_SOURCE_CODE = re.compile(r"\b(" + "|".join(map(re.escape, SOURCES)) + r")\b")


def _named(text: str) -> str:
    """``text`` with the sources' numbers written as their names: ``(000 ch. 1)`` ->
    ``(Biehl ch. 1)``."""
    return _SOURCE_CODE.sub(lambda m: SOURCES[m.group(1)].name, text)


def ledger_html(book_dir: str | os.PathLike, page: str | os.PathLike) -> str:
    """The ledger as an HTML table, with links relative to the page ``page`` (a path in the book).

    Maths in the section titles it links to is written as plain text (:func:`_tex_to_text`);
    the sources are named, not numbered (:func:`_named`).  The stated result is the
    source's claim alone: the results list's column of what agreement to check is for the
    cells that check it, and the Kind column says what agreement the book found.  Each
    cell carries its column's name (``data-label``), which a phone shows above it when
    book.css lays the rows out as cards.
    """
    rows = ledger(book_dir)
    page_dir = Path(page).parent
    done = sum(r["status"] == "reproduced" for r in rows)
    parts = [f"<p><strong>{done} of {len(rows)}</strong> stated results are reproduced "
             "in the book.</p>"]
    group = None
    for r in rows:
        if r["group"] != group:
            if group is not None:
                parts.append("</tbody></table>")
            group = r["group"]
            parts.append(f"<h2>{html.escape(_named(group))}</h2>")  # under the page title
            parts.append('<table class="ledger"><thead><tr><th>ID</th><th>Stated result</th>'
                         "<th>Where</th><th>Reproduced</th><th>Kind</th></tr></thead><tbody>")
        links, values, kinds = [], [], []
        for rep in r["reproductions"]:
            target = Path(os.path.relpath(rep.notebook.with_suffix(".html"), page_dir)).as_posix()
            if rep.anchor:
                target += f"#{rep.anchor}"
            text = rep.page if rep.section == rep.page else f"{rep.page}: {rep.section}"
            links.append(f'<a href="{html.escape(target)}">{_html_with_math(text)}</a>')
            value = rep.output.split("| reproduced:", 1)[-1].split("| stated:", 1)[0].strip()
            values.append(html.escape(value) if rep.ok else "cell failed")
            kinds.append(html.escape(rep.kind))
        status = {"reproduced": "", "failed": " ✗", "not yet": "not yet reproduced"}[r["status"]]
        parts.append(
            f'<tr class="{r["status"].replace(" ", "-")}" id="{ledger_anchor(r["id"])}">'
            f'<td data-label="ID">{r["id"]}</td>'
            f'<td data-label="Stated result">{_html_with_math(_named(r["result"]))}</td>'
            f'<td data-label="Where">{"<br>".join(links) or "—"}</td>'
            f'<td data-label="Reproduced">{"<br>".join(values) or status}'
            f'{status if values else ""}</td>'
            f'<td data-label="Kind">{"<br>".join(kinds)}</td></tr>'
        )
    parts.append("</tbody></table>")
    return "\n".join(parts)
