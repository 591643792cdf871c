"""Stated results of the lecture notes: reporting them in notebooks and the ledger page.

Every stated result (``RESULTS.md``, a copy of which ships in ``lecture_pkg/data``) is
reproduced in a notebook cell whose first line is ``# result: <ID>``.  The cell asserts
the value and then calls :func:`report`, which records one line

    ``<ID> | reproduced: <value> | stated: <value> | <kind>``

(the plain-text form of its output, which nbval compares and the ledger reads) and shows
the reader a short paragraph instead (:func:`result_html`).

The book's ledger page is generated from the stored outputs of those cells by
``tools/ledger.py`` in the repository (book tooling, not part of the package), so it
always shows what the executed notebooks actually reproduced.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .validation import COUNT, FINITE, POSITIVE, Options, validate_args

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["format_value", "format_limit", "below", "format_small", "report", "result_html",
           "source_of", "stated_results"]

_ROW = re.compile(r"^\|\s*([A-Z]\.\d+)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|\s*$")
_GROUP = re.compile(r"^##\s+([A-Z])\s+[—-]\s+(.*)$")


@validate_args(digits=COUNT)
def format_value(value: ArrayLike, digits: int = 6) -> str:
    """Format a number, array or nested sequence with ``digits`` significant digits, stably.

    Integers print as integers; floats are rounded so the text does not change with
    floating-point noise; sequences print as ``(a, b, c)``, nested ones as
    ``((a, b), (c, d))``; strings pass through.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(format_value(v, digits) for v in value) + ")"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    number = float(value)
    if number == 0.0:
        return "0"
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.{digits}g}"


@validate_args(limit=POSITIVE)
def format_limit(limit: float) -> str:
    """A limit as short text: ``1e-10``, ``5e-7``, ``0.001``, ``2.5``."""
    limit = float(limit)
    text = f"{limit:.2g}"
    if "e" in text:                                   # 1e-06 -> 1e-6, 2.5e-07 -> 2.5e-7
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


@validate_args(limit=POSITIVE)
def below(value: ArrayLike, limit: float) -> str:
    """Check ``|value| < limit`` and return the text ``"< limit"`` to print in its place.

    This is how a notebook prints a quantity that is zero in exact arithmetic (a residual,
    a gap, the angle between two solutions of one problem): its computed value is
    rounding error, whose digits differ from one CPU to the next, while the checked bound
    is the same everywhere (see CONTRIBUTING.md, Portable outputs).  ``value`` may be an
    array; its largest absolute entry is checked.

    Raises
    ------
    AssertionError
        If the value is not finite or not below the limit.
    """
    text = format_limit(limit)
    largest = float(np.max(np.abs(np.asarray(value, dtype=float))))
    if not largest < float(limit):
        raise AssertionError(f"expected |value| < {text}, got {largest!r}")
    return f"< {text}"


@validate_args(value=FINITE, floor=POSITIVE, digits=COUNT)
def format_small(value: float, floor: float, digits: int = 2) -> str:
    """``value`` with ``digits`` significant digits, or ``"< floor"`` when ``|value| < floor``.

    For a quantity that is sometimes real and sometimes only rounding error (a change
    that vanishes exactly when vectors are exactly dependent): above the floor its
    digits are meaningful, below it only the bound is.
    """
    value = float(value)
    if abs(value) < float(floor):
        return f"< {format_limit(floor)}"
    return f"{value:.{digits}g}"


RESULT_KINDS = ("exact", "statistical", "illustrative")


@validate_args(kind=Options(*RESULT_KINDS), digits=COUNT)
def report(result_id: str, reproduced: ArrayLike, stated: ArrayLike, *, kind: str,
           bound: str = "", digits: int = 6, note: str = "") -> None:
    """Print the line that records a reproduced result.

    Call it *after* the cell's assertions, so that only a checked value is reported.

    Parameters
    ----------
    result_id : str
        The result's id in ``RESULTS.md``, such as ``"P.3"``.
    reproduced, stated
        What the cell computed, and what the source states (or, for a result the book
        derives or extends, what the book states in its text).  ``stated`` is never built
        from ``reproduced``.
    kind : {"exact", "statistical", "illustrative"}
        ``"exact"``: equal to the stated value after rounding, or within ``bound`` (a
        numerical tolerance such as ``"1e-6"``) of it.  ``"statistical"``: a property of
        random data, not of this one draw; ``bound`` gives the evidence (a failure
        probability, a number of standard errors, a count over draws).  ``"illustrative"``: a
        demonstration on the printed data whose printed numbers are not themselves the
        claim (a measured ratio, a picture's content).
    bound : str
        The tolerance of an exact result (optional) or the bound of a statistical one
        (required).
    """
    if not re.fullmatch(r"[A-Z]\.\d+", result_id):
        raise ValueError(f"result ids look like 'P.1', got {result_id!r}")
    if kind == "statistical" and not bound:
        raise ValueError("a statistical result needs its bound (why it does not hang on the seed)")
    if kind == "illustrative" and bound:
        raise ValueError("an illustrative result has no bound")
    check = kind
    if bound:
        check += f" (within {bound})" if kind == "exact" else f" ({bound})"
    def field(text: str) -> str:            # " | " separates the fields: P(A | B) -> P(A|B)
        return text.replace(" | ", "|")

    line = (f"{result_id} | reproduced: {field(format_value(reproduced, digits))} | "
            f"stated: {field(format_value(stated, digits))} | {field(check)}")
    if note:
        line += f" | {field(note)}"
    shell = _ipython()
    if shell is None:
        print(line)
        return
    from IPython.display import display

    display({"text/plain": line,
             "text/html": result_html(result_id, format_value(reproduced, digits),
                                      format_value(stated, digits), kind, bound, note)},
            raw=True)


class Source(NamedTuple):
    """A source of the stated results: ``name`` as a table or citation gives it ("Biehl"),
    ``work`` as a sentence does ("Biehl's notes")."""

    name: str
    work: str


#: The sources of the stated results, by the numbers RESULTS.md gives them (000-004): the
#: one table of their names, for the result cells (:func:`source_of`) and the ledger page.
SOURCES = {"000": Source("Biehl", "Biehl's notes"),
           "001": Source("Koski", "Koski's lecture"),
           "002": Source("Deckert", "Deckert's chapter"),
           "003": Source("the slides", "the course slides based on Mooney's lecture"),
           "004": Source("Frieß and Harrison", "Frieß and Harrison's paper")}


#: How a row of RESULTS.md names its source in words, where its group has several.
_SOURCE_WORDS = {"000": r"Biehl|\([1-6]\.\d{1,2}\)|Fig\. ?\d|AdaTron|[Cc]ommittee|[Pp]arity"
                        r"|[Pp]ocket|Cover|dichotom|Gram matri|\bRBF\b",
                 "001": r"Koski|R²|Same data", "002": r"Deckert|iris|mislabelled point",
                 "003": r"Mooney|slide|two-layer network", "004": r"Frie(?:ß|ss)|Harrison"}


#: Results whose RESULTS.md row does not say that the book, not the source, states them
#: (the row's wording is the planner's and is vendored unchanged): the book's attribution.
_BOOK_ATTRIBUTIONS = {
    "B.3": "the book, answering the slides' question",        # the slides only ask it
    "S.2": "the book, answering Deckert's homework",          # Deckert only asks the question
    "E.3": "the book, extending Biehl's notes",               # Biehl has no XOR example
}


def source_of(result_id: str) -> str:
    """Which lecture notes state a result, in words: the row's own source, else its group's.

    A result the book derives from a source's data (``[derived]``) or adds to it
    (``[ext]``, or listed in ``_BOOK_ATTRIBUTIONS``) says so.
    """
    if result_id in _BOOK_ATTRIBUTIONS:
        return _BOOK_ATTRIBUTIONS[result_id]
    row = {r.id: r for r in stated_results()}[result_id]
    group = re.findall(r"\b(00[0-4])\b", row.group)
    codes = re.findall(r"\((00[0-4])", row.result)
    if not codes and len(group) > 1:           # a group of several sources: the row names one
        codes = [code for code, pattern in _SOURCE_WORDS.items()
                 if code in group and re.search(pattern, row.result)]
    codes = codes or group
    names = list(dict.fromkeys(SOURCES[c].work for c in codes))
    where = names[0] if len(names) == 1 else "the lecture notes"
    if "[ext]" in row.result:
        return f"the book, extending {where}"
    if "[derived" in row.result:                  # "[derived]", "[derived from the slide]"
        return f"the book, derived from {where}"
    return where


def ledger_anchor(result_id: str) -> str:
    """The id of a result's row on the ledger page: ``result-P-3``."""
    return "result-" + result_id.replace(".", "-")


@validate_args(kind=Options(*RESULT_KINDS))
def result_html(result_id: str, reproduced: str, stated: str, kind: str, bound: str = "",
                note: str = "", ledger: str = "../ledger.html") -> str:
    """What a reader sees of a result cell's report: a short paragraph of two lines.

    The first says what which source states, the second what this book computed and how
    it compares: exactly, up to rounding (within the tolerance), as a property of random
    draws, of data or of starts (with the evidence that it does not hang on the draw: a
    margin over the spread between seeds, or the chance that another seed breaks it) or as
    an illustration.  The result's id links its row on the ledger page.
    """
    def e(text: str) -> str:
        return html.escape(text, quote=False)

    how = {"exact": ("exactly as stated" if not bound
                     else f"as stated, up to rounding (differences below {e(bound)})"),
           "statistical": f"as stated, and not only for this one random draw: {e(bound)}",
           "illustrative": "an illustration on the data shown"}[kind]
    extra = f" ({e(note)})" if note else ""
    source = source_of(result_id)
    source = source[0].upper() + source[1:]
    return (f'<p class="result-report"><a href="{html.escape(ledger)}#{ledger_anchor(result_id)}">'
            f"Result {e(result_id)}</a>. {e(source)}: {e(stated)}.<br>"
            f"Computed here{extra}: {e(reproduced)} \N{EM DASH} {how}.</p>")


def _ipython():
    """The running IPython shell with a display publisher (a notebook kernel), else None."""
    try:
        from IPython import get_ipython
    except ImportError:                                  # pragma: no cover
        return None
    shell = get_ipython()
    return shell if shell is not None and type(shell).__name__ == "ZMQInteractiveShell" else None


@dataclass
class StatedResult:
    id: str
    group: str
    result: str
    check: str


def stated_results(path: str | os.PathLike | None = None) -> list[StatedResult]:
    """Parse the results list (the copy in ``lecture_pkg/data`` unless ``path`` is given)."""
    if path is None:
        text = (resources.files("lecture_pkg").joinpath("data/RESULTS.md")
                .read_text(encoding="utf-8"))
    else:
        text = Path(path).read_text(encoding="utf-8")
    rows, group = [], ""
    for line in text.splitlines():
        if m := _GROUP.match(line):
            group = f"{m.group(1)}: {m.group(2).strip()}"
        elif m := _ROW.match(line):
            rows.append(StatedResult(m.group(1), group, m.group(2), m.group(3)))
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError("the results list has duplicate ids")
    return rows
