"""Tests of tools/ledger.py: the ledger page of stated results, read from the notebooks'
stored outputs."""

import json
import re
from pathlib import Path

import pytest

from lecture_pkg import results
from tools import ledger

ROOT = Path(__file__).resolve().parents[2]


def _notebook(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text, out=None, error=False):
    outputs = []
    if out is not None:
        outputs.append({"output_type": "stream", "name": "stdout", "text": out})
    if error:
        outputs.append({"output_type": "error", "ename": "AssertionError", "evalue": "",
                        "traceback": []})
    return {"cell_type": "code", "metadata": {}, "source": text, "outputs": outputs,
            "execution_count": 1}


def test_ledger_finds_result_cells_sections_and_values(tmp_path):
    (tmp_path / "part").mkdir()
    nb = _notebook([
        _md("# Chapter\n\n(sec-koski)=\n## Koski's example"),
        _code("# result: P.1\nassert True\nreport(...)",
              "P.1 | reproduced: (0.2, 0.5, 1) | stated: (0.2, 0.5, 1) | exact\n"),
        _md("## The R² bias"),
        _code("# result: P.3\nassert False", error=True),
        _code("x = 1  # result: P.4 is not a marker on a later line"),
    ])
    (tmp_path / "part" / "chapter.ipynb").write_text(json.dumps(nb))
    reps = ledger.find_reproductions(tmp_path)
    assert [(r.id, r.anchor, r.ok) for r in reps] == [("P.1", "sec-koski", True),
                                                      ("P.3", "the-r2-bias", False)]
    assert reps[0].page == "Chapter" and reps[0].section == "Koski's example"
    rows = {r["id"]: r for r in ledger.ledger(tmp_path)}
    assert rows["P.1"]["status"] == "reproduced"
    assert rows["P.3"]["status"] == "failed"
    assert rows["P.4"]["status"] == "not yet"
    page = ledger.ledger_html(tmp_path, "ledger.ipynb")
    assert 'href="part/chapter.html#sec-koski">Chapter: Koski\'s example</a>' in page
    assert "(0.2, 0.5, 1)" in page and "cell failed" in page
    assert reps[0].kind == "exact" and '<td data-label="Kind">exact</td>' in page
    # the sources by name, and the stated result without the list's column of what to check
    assert "(Koski, Deckert, the slides, Biehl §3.3)" in page and "001" not in page
    p1 = {r.id: r for r in results.stated_results()}["P.1"]
    assert p1.check and f"[{p1.check}]" not in page
    assert f"<strong>1 of {len(rows)}</strong>" in page


def test_ledger_writes_maths_in_section_titles_as_text(tmp_path):
    nb = _notebook([
        _md("# Capacity\n\n## Capacity at $\\alpha = 2$ & beyond"),
        _code("# result: P.1\nreport(...)", "P.1 | reproduced: 1 | stated: 1\n"),
    ])
    (tmp_path / "c.ipynb").write_text(json.dumps(nb))
    page = ledger.ledger_html(tmp_path, "ledger.ipynb")
    assert "Capacity: Capacity at α = 2 &amp; beyond</a>" in page
    assert ledger._tex_to_text(r"\sqrt M") == "√M" and ledger._tex_to_text("x^2") == "x²"
    assert ledger._tex_to_text(r"\sqrt{\mathcal M}") == "√ℳ"
    assert ledger._tex_to_text(r"\mathbf w\cdot\mathbf w^*") == "w·w*"


def test_ledger_rejects_unknown_ids(tmp_path):
    nb = _notebook([_code("# result: Z.99", "Z.99 | reproduced: 1 | stated: 1\n")])
    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    with pytest.raises(ValueError, match="Z.99"):
        ledger.ledger(tmp_path)


def test_ledger_of_the_book_lists_every_stated_result():
    rows = ledger.ledger(ROOT / "book")
    assert [r["id"] for r in rows] == [r.id for r in results.stated_results()]
    assert not [r["id"] for r in rows if r["status"] == "failed"]


def test_every_result_of_the_book_says_what_kind_of_result_it_is():
    """Exact, statistical with the bound that makes it hold for any seed, or illustrative."""
    kinds = {rep.id: rep.kind for rep in ledger.find_reproductions(ROOT / "book")}
    pattern = re.compile(r"exact( \(within .+\))?|statistical \(.+\)|illustrative")
    assert {rid: k for rid, k in kinds.items() if not pattern.fullmatch(k)} == {}


def test_the_page_names_the_sources_from_the_packages_one_table():
    assert ledger._named("(000 ch. 1; 004)") == (f"({results.SOURCES['000'].name} ch. 1; "
                                                f"{results.SOURCES['004'].name})")
    assert not hasattr(ledger, "SOURCE_NAMES")
