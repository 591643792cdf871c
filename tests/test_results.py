"""Tests of result reporting (lecture_pkg.results); the ledger page's generator is tested in
test_ledger.py."""

from pathlib import Path

import numpy as np
import pytest

from lecture_pkg import results

ROOT = Path(__file__).resolve().parents[1]


def test_format_value_is_stable():
    assert results.format_value(8.000000000000002) == "8"
    assert results.format_value(0.69869569604) == "0.698696"
    assert results.format_value(np.array([0.2, 0.5, 1.0])) == "(0.2, 0.5, 1)"
    assert results.format_value(np.array([[1.0, 2.5], [3.0, 4.0]])) == "((1, 2.5), (3, 4))"
    assert results.format_value([(1, 1, 0), (0, 0, -3)]) == "((1, 1, 0), (0, 0, -3))"
    assert results.format_value([3, 3, 2]) == "(3, 3, 2)"
    assert results.format_value(np.int64(11)) == "11"
    assert results.format_value(True) == "True"
    assert results.format_value(-0.0) == "0"
    assert results.format_value("text") == "text"


def test_report_prints_one_line(capsys):
    results.report("P.3", 11, 11, kind="exact", note="bound 65.55")
    assert capsys.readouterr().out == "P.3 | reproduced: 11 | stated: 11 | exact | bound 65.55\n"
    results.report("K.2", 0.5, 0.5, kind="exact", bound="1e-6")
    assert capsys.readouterr().out == "K.2 | reproduced: 0.5 | stated: 0.5 | exact (within 1e-6)\n"
    results.report("G.3", 1, 1, kind="statistical", bound="20 of 20 draws")
    assert capsys.readouterr().out.endswith("| statistical (20 of 20 draws)\n")
    with pytest.raises(ValueError):
        results.report("P3", 1, 1, kind="exact")


def test_the_reader_sees_a_sentence_that_names_the_source_and_links_the_ledger():
    text = results.result_html("G.2", "(0.5, 0)", "(0.5, 0)", "exact")
    assert 'href="../ledger.html#result-G-2"' in text and "Biehl's notes" in text
    # two lines: what the source states, then what the book computed and how they compare
    assert ("Biehl's notes: (0.5, 0).<br>Computed here: (0.5, 0) \N{EM DASH} exactly as stated."
            in text)
    assert "up to rounding (differences below 1e-9)" in results.result_html("G.2", "0.5", "0.5",
                                                                          "exact", "1e-9")
    text = results.result_html("N.4", "1", ">= 0.95", "statistical", "mean of 8 networks")
    assert "as stated, and not only for this one random draw: mean of 8 networks." in text
    text = results.result_html("S.3", "1", "2", "exact", note="two sizes")
    assert "The book, extending Biehl's notes: 2.<br>Computed here (two sizes): 1" in text
    assert results.source_of("B.1") == "the course slides based on Mooney's lecture"
    assert results.source_of("P.1") == "Koski's lecture"          # a group of several sources
    assert results.source_of("K.5").startswith("the book, derived from")
    assert results.source_of("S.3") == "the book, extending Biehl's notes"
    # rows whose wording does not mark the book's own answer
    assert results.source_of("B.3") == "the book, answering the slides' question"
    assert results.source_of("S.2") == "the book, answering Deckert's homework"
    assert results.source_of("E.3") == "the book, extending Biehl's notes"
    assert set(results._BOOK_ATTRIBUTIONS) <= {r.id for r in results.stated_results()}
    assert results.source_of("P.3") == "Koski's lecture"
    assert results.source_of("P.9") == "Deckert's chapter"       # his claim, in other words
    assert results.source_of("P.4") == "the lecture notes"        # the row names no source


@pytest.mark.parametrize("kind, bound", [("close", ""), ("statistical", ""),
                                         ("illustrative", "3 sigma")])
def test_report_refuses_a_kind_without_its_bound(kind, bound):
    with pytest.raises(ValueError):
        results.report("P.3", 1, 1, kind=kind, bound=bound)


def test_stated_results_parse_the_vendored_list():
    rows = results.stated_results()
    ids = [r.id for r in rows]
    assert ids[:5] == ["N.1", "N.2", "N.3", "N.4", "N.5"]
    assert {"P.1", "P.9", "X.7"} <= set(ids)
    assert all(r.group for r in rows)
    p1 = next(r for r in rows if r.id == "P.1")
    assert "Koski" in p1.result and p1.group.startswith("P:")


def test_vendored_list_matches_the_shared_one_when_present():
    shared = ROOT.parent / "shared" / "RESULTS.md"
    vendored = ROOT / "lecture_pkg" / "data" / "RESULTS.md"
    if shared.exists():  # in the development layout; a reader's clone has only the copy
        assert shared.read_text() == vendored.read_text()
    assert len(results.stated_results(vendored)) == len(results.stated_results())


def test_a_conditional_bar_in_a_field_does_not_split_the_line(capsys):
    results.report("B.3", "P(3 | odd) = 0.33", "P(3 | odd)", kind="exact")
    line = capsys.readouterr().out.strip()
    assert line.split(" | ") == ["B.3", "reproduced: P(3|odd) = 0.33", "stated: P(3|odd)", "exact"]


def test_below_checks_and_prints_the_bound_not_the_rounding_error():
    assert results.below(2.4e-14, 1e-10) == "< 1e-10"
    assert results.below(np.array([1e-13, -3e-12]), 1e-10) == "< 1e-10"
    assert results.below(-2e-7, 1e-6) == "< 1e-6"
    with pytest.raises(AssertionError, match="1e-10"):
        results.below(2e-10, 1e-10)
    with pytest.raises(AssertionError):
        results.below(np.nan, 1e-10)
    with pytest.raises(ValueError):
        results.below(0.0, 0.0)


def test_format_small_shows_digits_only_above_the_floor():
    assert results.format_small(7.8e-16, 1e-8) == "< 1e-8"
    assert results.format_small(6.9e-05, 1e-8) == "6.9e-05"
    assert results.format_small(0.0, 1e-8) == "< 1e-8"
    assert results.format_limit(2.5e-7) == "2.5e-7"
    assert results.format_limit(0.001) == "0.001"


def test_one_table_names_every_source_by_its_number():
    """``SOURCES`` is the one table of the sources: every number the results list uses has a
    short name (the ledger page's) and the words a result cell's sentence uses."""
    import re

    codes = set()
    for row in results.stated_results():
        codes |= set(re.findall(r"\b(00\d)\b", row.group) + re.findall(r"\((00\d)", row.result))
    assert codes and codes <= set(results.SOURCES)
    for source in results.SOURCES.values():
        assert source.name and source.work and source.name != source.work
    assert results.SOURCES["000"] == ("Biehl", "Biehl's notes")
