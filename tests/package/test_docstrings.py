"""The docstrings of lecture_pkg: every doctest passes, every estimator cites its sources.

* every ``>>>`` example in every module of the package runs and prints what it shows;
* every estimator of ``test_common.ESTIMATORS`` (and :class:`~lecture_pkg.networks.MLP`)
  has a numpydoc ``References`` section whose entries name bib keys of
  ``book/references.bib`` -- in the form ``(bib key: biehl2019supervised)`` -- and an
  ``Examples`` section with at least one doctest line.
"""

import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before any module of the package imports pyplot

import pytest  # noqa: E402

import lecture_pkg  # noqa: E402
from lecture_pkg.networks import MLP  # noqa: E402
from tests.package.test_common import ESTIMATORS  # noqa: E402

BIB = Path(__file__).resolve().parents[2] / "book" / "references.bib"
BIB_KEYS = set(re.findall(r"^@\w+\{([^,\s]+),", BIB.read_text(encoding="utf-8"), re.MULTILINE))
KEY = re.compile(r"\(bib key: ([^()\s]+)\)")
OPTIONFLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

MODULES = sorted(m.name for m in pkgutil.walk_packages(lecture_pkg.__path__, "lecture_pkg."))
DOCUMENTED = list(ESTIMATORS) + [MLP]


def test_the_bibliography_is_read():
    assert len(BIB_KEYS) > 10 and "biehl2019supervised" in BIB_KEYS


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    failed = []
    for test in finder.find(module, name):
        runner.run(test, out=failed.append)
    assert not failed, f"doctests of {name} failed:\n" + "".join(failed)


def _sections(doc):
    """numpydoc sections of a docstring: {title: body}."""
    lines = inspect.cleandoc(doc).splitlines()
    heads = [i for i in range(len(lines) - 1)
             if lines[i].strip() and set(lines[i + 1].strip()) == {"-"}
             and len(lines[i + 1].strip()) == len(lines[i].strip())]
    sections = {}
    for k, i in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        sections[lines[i].strip()] = "\n".join(lines[i + 2:end])
    return sections, [lines[i].strip() for i in heads]


@pytest.mark.parametrize("cls", DOCUMENTED, ids=lambda c: c.__name__)
def test_estimator_docstring_cites_sources_and_has_examples(cls):
    sections, order = _sections(cls.__doc__ or "")
    assert "References" in sections, f"{cls.__name__} has no References section"
    assert "Examples" in sections, f"{cls.__name__} has no Examples section"
    assert order.index("References") < order.index("Examples"), \
        "numpydoc order: References, then Examples"

    entries = re.split(r"^\.\. \[\d+\]", sections["References"], flags=re.MULTILINE)[1:]
    assert entries, f"{cls.__name__}: no '.. [n]' entries in References"
    for entry in entries:
        keys = KEY.findall(" ".join(entry.split()))
        assert keys, f"{cls.__name__}: reference without '(bib key: ...)': {entry.strip()!r}"
        unknown = set(keys) - BIB_KEYS
        assert not unknown, f"{cls.__name__}: bib keys not in {BIB.name}: {sorted(unknown)}"

    assert any(line.lstrip().startswith(">>>") for line in sections["Examples"].splitlines()), \
        f"{cls.__name__}: Examples has no '>>>' line"
