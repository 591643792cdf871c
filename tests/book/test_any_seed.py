"""Every chapter draws all of its randomness from one SEED, which tests/any_seed.py shifts.

The re-seeded runs themselves are a separate step of `make test` (they execute the whole
book again per offset); these tests check the two things those runs rely on: that the
script re-seeds a notebook correctly, and that no chapter hides a seed of its own that
the shift would not reach.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
from pathlib import Path

import nbformat
import pytest

from tools.ledger import LEDGER_NAME, book_notebooks

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("any_seed", ROOT / "tests" / "any_seed.py")
any_seed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(any_seed)

CHAPTERS = [p for p in book_notebooks(ROOT / "book") if p.name != LEDGER_NAME]
SEED_ARGUMENTS = {"random_state", "seed"}
SEED_FUNCTIONS = {"default_rng", "RandomState", "SeedSequence", "Generator", "PCG64"}


def _notebook(*sources: str) -> dict:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="old\n")]
    return json.loads(nbformat.writes(nb))


def test_reseed_shifts_the_one_seed_and_drops_the_outputs():
    nb = _notebook("import numpy as np\nSEED = 1958\nrng = np.random.default_rng(SEED)",
                   "x = rng.normal()")
    shifted = any_seed.reseed(nb, 1000)
    assert "SEED = 2958\n" in "".join(shifted["cells"][0]["source"])
    assert shifted["cells"][0]["outputs"] == []
    assert "SEED = 1958" in "".join(nb["cells"][0]["source"])      # the original is untouched


def test_reseed_refuses_a_notebook_that_sets_seed_twice_or_never():
    with pytest.raises(ValueError, match="2 times"):
        any_seed.reseed(_notebook("SEED = 1", "SEED = 2"), 5)
    with pytest.raises(ValueError, match="no SEED"):
        any_seed.reseed(_notebook("x = 1"), 5)


def _loop_variables_over_range(tree: ast.AST) -> set[str]:
    """Names bound by ``for name in range(...)`` (statements and comprehensions)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            it = node.iter
            if isinstance(it, ast.Call) and getattr(it.func, "id", None) == "range":
                names.add(node.target.id)
    return names


def _package_defaults() -> dict[str, tuple[str, int]]:
    """Public callables of lecture_pkg with a fixed default seed: name -> (parameter, position)."""
    import inspect
    import pkgutil

    import lecture_pkg

    found = {}
    for info in pkgutil.walk_packages(lecture_pkg.__path__, "lecture_pkg."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("_") or not callable(obj):
                continue
            try:
                params = list(inspect.signature(obj).parameters.values())
            except (TypeError, ValueError):
                continue
            for position, param in enumerate(params):
                if (param.name in SEED_ARGUMENTS | {"rng"} and isinstance(param.default, int)
                        and not isinstance(param.default, bool)):
                    found[name] = (param.name, position)
    return found


PACKAGE_DEFAULT_SEEDS = _package_defaults()


def defined_names(source: str) -> set[str]:
    """Functions and classes that ``source`` defines (they shadow the package's names)."""
    return {node.name for node in ast.walk(ast.parse(_python(source)))
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


def _python(source: str) -> str:
    """``source`` without IPython magics and shell escapes (``%time``, ``!pip``)."""
    return "\n".join(line for line in source.splitlines()
                     if not re.match(r"\s*(%|!(?!=))", line))


def literal_seeds(source: str, local: set[str] = frozenset()) -> list[str]:
    """Seeds in ``source`` that do not come from the notebook's SEED.

    A literal number given as a seed, a bare loop counter over ``range`` given as one
    (``random_state=s for s in range(5)`` re-seeds nothing when SEED changes), a call of
    a lecture_pkg function that falls back on its fixed default seed (unless ``local``,
    the names the notebook defines itself, shadows it), and the global ``np.random.seed``.
    """
    tree = ast.parse(_python(source))
    counters = _loop_variables_over_range(tree)
    found = []

    def bad(arg: ast.AST) -> bool:
        return ((isinstance(arg, ast.Constant) and isinstance(arg.value, int))
                or (isinstance(arg, ast.Name) and arg.id in counters))

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
        if name == "seed" and isinstance(node.func, ast.Attribute):
            found.append(ast.unparse(node))
        if name in SEED_FUNCTIONS and node.args and bad(node.args[0]):
            found.append(ast.unparse(node))
        found += [ast.unparse(node) for kw in node.keywords
                  if kw.arg in SEED_ARGUMENTS and bad(kw.value)]
        if name in PACKAGE_DEFAULT_SEEDS and name not in local:           # a default seed of
                                                                          # lecture_pkg's
            param, position = PACKAGE_DEFAULT_SEEDS[name]
            if param not in {kw.arg for kw in node.keywords} and len(node.args) <= position:
                found.append(ast.unparse(node) + f"  (default {param})")
    return found


def test_literal_seeds_are_found():
    assert literal_seeds("rng = np.random.default_rng(0)") == ["np.random.default_rng(0)"]
    assert literal_seeds("m = [f(random_state=s) for s in range(5)]") == ["f(random_state=s)"]
    assert literal_seeds("np.random.seed(3)") == ["np.random.seed(3)"]
    assert literal_seeds("E(seed=7)") == ["E(seed=7)"]
    assert literal_seeds("X, y = moons(50)") == ["moons(50)  (default random_state)"]
    assert literal_seeds("X, y = moons(50, random_state=SEED)") == []
    assert literal_seeds("X, y = moons(50)", local=defined_names("def moons(n): pass")) == []
    assert literal_seeds("m = [f(random_state=SEED + k) for k in range(5)]\n"
                         "r = np.random.default_rng(SEED + 1)\nf(random_state=rng)") == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_random_source_of_a_chapter_derives_from_its_seed(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    uses_randomness = any(re.search(r"random|rng|random_state|seed", s) for s in sources)
    if uses_randomness:
        assert any_seed.seed_of(nb) is not None, "the chapter uses randomness but sets no SEED"
    local = set().union(*(defined_names(s) for s in sources))
    found = [seed for s in sources for seed in literal_seeds(s, local)]
    assert not found, f"seeds that do not derive from SEED: {found}"
