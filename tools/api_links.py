"""Link every chapter to the reference entries of the package names its code uses.

Each chapter notebook gets, right after its imports, a folded box (a MyST ``dropdown``
admonition) that lists the functions and classes of ``lecture_pkg`` the chapter's code
uses, family by family, each a link (``[`Perceptron`](#lecture_pkg.linear.Perceptron)``,
which MyST resolves as a cross-reference) to its entry in the API reference
(``book/api``); the HTML build, nitpicky, checks that every one of them resolves.

What counts as used is read from the notebook's code (every cell): names imported from a
family (``from lecture_pkg.linear import Perceptron``, also from a module inside it) and
attributes of an imported family or module (``neurons.sigmoid``, ``hp.run`` after
``from lecture_pkg.neurons import hopfield as hp``), each taken where the reference
documents it, ``lecture_pkg.<family>.<name>``.  The book's own plumbing (``results``,
``plotting``, ``validation``) is left out.

The tool also writes the reference's family pages, ``book/api/<family>.md``: each
documents its family's public functions and classes (``automodule`` over the family's
``__all__``), except an object that an earlier family of :data:`FAMILIES` re-exports too,
which is documented there only (a name is documented once, and every link to it goes to
that one entry).

Run ``python -m tools.api_links [--check] [NOTEBOOK ...]`` from the repository root
(default: every chapter notebook); it is idempotent, and ``--check`` lists the pages and
notebooks that are missing or out of date (``tests/book/test_api_links.py`` does the same).
This is book tooling, not part of the installed package.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import sys
import types
from pathlib import Path

from tools.notebook_edit import run

ROOT = Path(__file__).resolve().parents[1]

CELL_ID = "api-links"
"""The box's cell id in every notebook."""

#: The families the reference documents, in the order of the course (book/api).
FAMILIES = ("neurons", "learning", "probabilistic", "linear", "networks", "kernel_machines",
            "prototypes", "evaluation", "datasets", "widgets")
#: Modules of the package that are the book's plumbing, not the course's algorithms.
PLUMBING = ("results", "plotting", "validation", "_ties")

TITLE = "The package's functions and classes in this chapter"


def _family_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "lecture_pkg" and parts[1] in FAMILIES:
        return parts[1]
    return None


#: Members that every estimator inherits from scikit-learn (metadata routing): not ours.
INHERITED = ("set_fit_request", "set_score_request", "set_predict_request",
             "set_predict_proba_request", "set_decision_function_request",
             "set_transform_request", "set_partial_fit_request", "set_split_request")

PAGE_TITLES = {
    "neurons": "Neurons and Hopfield networks", "learning": "Learning from examples",
    "probabilistic": "Probabilistic classification",
    "linear": "The perceptron and linear classifiers", "networks": "Networks of perceptrons",
    "kernel_machines": "Kernel machines", "prototypes": "Prototype-based classifiers",
    "evaluation": "Evaluation", "datasets": "Data sets", "widgets": "Explorers",
}


def _anchor(family: str) -> str:
    return f"api-{family.replace('_', '-')}"


@functools.cache
def documented() -> dict[int, str]:
    """``id(obj) -> "lecture_pkg.<family>.<name>"`` for every function and class the
    reference documents (a module's constants are not listed), each under the first family
    of :data:`FAMILIES` that exports it."""
    found: dict[int, str] = {}
    for family in FAMILIES:
        fam = importlib.import_module(f"lecture_pkg.{family}")
        for name in getattr(fam, "__all__", ()):
            obj = getattr(fam, name)
            if callable(obj) and id(obj) not in found:
                found[id(obj)] = f"lecture_pkg.{family}.{name}"
    return found


def _documented(obj) -> str | None:
    """Where the reference documents ``obj``, if it does."""
    return documented().get(id(obj)) if callable(obj) else None


def family_page(family: str) -> str:
    """The markdown of ``book/api/<family>.md``."""
    fam = importlib.import_module(f"lecture_pkg.{family}")
    targets = documented()
    elsewhere = sorted(name for name in getattr(fam, "__all__", ())
                       if callable(getattr(fam, name))
                       and targets[id(getattr(fam, name))] != f"lecture_pkg.{family}.{name}")
    exclude = ", ".join(INHERITED + tuple(elsewhere))
    return "\n".join([
        f"({_anchor(family)})=",
        f"# `lecture_pkg.{family}`: {PAGE_TITLES[family]}",
        "",
        "```{eval-rst}",
        f".. automodule:: lecture_pkg.{family}",
        "   :members:",
        "   :imported-members:",
        f"   :exclude-members: {exclude}",
        "```",
        "",
    ])


def _masked(source: str) -> str:
    """A cell's source with IPython magics and shell lines commented out (same length)."""
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):
            i = len(line) - len(stripped)
            line = line[:i] + "#" + line[i + 1:]
        lines.append(line)
    return "\n".join(lines)


def used_names(nb) -> list[str]:
    """The documented names (``lecture_pkg.<family>.<name>``) the notebook's code uses,
    in the order of the families, alphabetically within a family."""
    aliases: dict[str, str] = {}          # local name -> module it stands for
    found: dict[str, None] = {}
    trees = []
    for cell in nb["cells"]:
        if cell.get("cell_type") != "code" or cell.get("id") == "install-guard":
            continue
        try:
            trees.append(ast.parse(_masked("".join(cell["source"]))))
        except SyntaxError:
            continue
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    local = alias.asname or alias.name
                    if not node.module.startswith("lecture_pkg"):
                        continue
                    # a family's function may share its name with the family's module of
                    # that name (kernel_machines.kernel_perceptron): the import decides
                    module = importlib.import_module(node.module)
                    obj = getattr(module, alias.name, None)
                    if obj is None:          # a subpackage not imported by its parent
                        obj = importlib.import_module(f"{node.module}.{alias.name}")
                    if isinstance(obj, types.ModuleType):
                        aliases[local] = obj.__name__
                    elif (family := _family_of(node.module)) is not None:
                        if (target := _documented(obj)) is not None:
                            found[target] = None
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("lecture_pkg.") and alias.asname:
                        aliases[alias.asname] = alias.name
    for tree in trees:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                module = aliases[node.value.id]
                family = _family_of(module)
                if family is None:
                    continue
                obj = getattr(importlib.import_module(module), node.attr, None)
                if obj is not None and (target := _documented(obj)) is not None:
                    found[target] = None
    order = {family: i for i, family in enumerate(FAMILIES)}
    return sorted(found, key=lambda t: (order[t.split(".")[1]], t.split(".")[2].lower()))


def box_source(targets: list[str]) -> str:
    """The box's markdown: one line per family, each name a cross-reference."""
    lines = [f":::{{admonition}} {TITLE}", ":class: dropdown", ""]
    by_family: dict[str, list[str]] = {}
    for target in targets:
        by_family.setdefault(target.split(".")[1], []).append(target)
    for family, names in by_family.items():
        refs = ", ".join(f"[`{t.rsplit('.', 1)[1]}`](#{t})" for t in names)
        lines.append(f"- [`lecture_pkg.{family}`](#{_anchor(family)}): {refs}")
    lines += ["", "Each name links to its entry in the [reference of the package](#api),",
              "which says what it computes and how to call it.", ":::"]
    return "\n".join(lines)


def apply(nb) -> bool:
    """Put the box, up to date, right after the imports; return whether anything changed."""
    import nbformat

    targets = used_names(nb)
    cells = [c for c in nb["cells"] if c.get("id") != CELL_ID]
    old = [c for c in nb["cells"] if c.get("id") == CELL_ID]
    if not targets:
        changed = bool(old)
        nb["cells"] = cells
        return changed
    source = box_source(targets)
    imports = next((i for i, c in enumerate(cells)
                    if c.get("cell_type") == "code" and c.get("id") != "install-guard"
                    and re.search(r"^\s*(from|import) lecture_pkg", "".join(c["source"]), re.M)),
                   None)
    if imports is None:
        return False
    position = imports + 1
    if (len(old) == 1 and "".join(old[0]["source"]) == source
            and nb["cells"].index(old[0]) == position):
        return False
    cell = nbformat.v4.new_markdown_cell(source)
    cell["id"] = CELL_ID
    cells.insert(position, cell)
    nb["cells"] = cells
    return True


def write_pages(api_dir: Path = ROOT / "book" / "api", check: bool = False) -> list[Path]:
    """Write the family pages (or with ``check`` only list those out of date)."""
    stale = []
    for family in FAMILIES:
        path = api_dir / f"{family}.md"
        text = family_page(family)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
                print(f"updated: {path.relative_to(ROOT)}")
    return stale


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stale = write_pages(check="--check" in argv)
    if stale and "--check" in argv:
        print("not up to date (run `python -m tools.api_links`):")
        print("\n".join(f"    {p.relative_to(ROOT)}" for p in stale))
    status = run(apply, "tools.api_links", __doc__.splitlines()[0], argv)
    return 1 if stale and "--check" in argv else status


if __name__ == "__main__":
    sys.exit(main())
