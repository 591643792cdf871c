"""The package's layout: subpackages by family, public names re-exported, private names kept
private."""

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

import lecture_pkg

PACKAGE_DIR = Path(lecture_pkg.__file__).parent
SUBPACKAGES = ["neurons", "learning", "probabilistic", "linear", "networks", "kernel_machines",
               "prototypes", "evaluation", "datasets", "widgets"]


def _modules():
    for info in pkgutil.walk_packages([str(PACKAGE_DIR)], prefix="lecture_pkg."):
        yield info.name


def test_every_subpackage_and_module_imports_on_its_own():
    """Each module imports first, with no other part of lecture_pkg loaded (no import cycles)."""
    import subprocess
    import sys
    names = sorted(_modules())
    assert {f"lecture_pkg.{s}" for s in SUBPACKAGES} <= set(names)
    script = (
        "import importlib, sys\n"
        "import numpy, scipy.optimize, sklearn.base, matplotlib\n"
        "matplotlib.use('Agg')\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('lecture_pkg')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        print(f'{name}: {type(exc).__name__}: {exc}')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0 and not out.stdout, out.stdout + out.stderr[-800:]


@pytest.mark.parametrize("subpackage", SUBPACKAGES)
def test_subpackage_reexports_the_public_names_of_its_public_modules(subpackage):
    package = importlib.import_module(f"lecture_pkg.{subpackage}")
    exported = set(package.__all__)
    assert len(exported) == len(package.__all__), "a name is exported twice"
    for name in package.__all__:
        assert hasattr(package,
                       name), f"lecture_pkg.{subpackage}.__all__ names {name!r}, which is missing"
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"lecture_pkg.{subpackage}.{info.name}")
        for name in getattr(module, "__all__", []):
            assert hasattr(module,
                           name), f"{module.__name__}.__all__ names {name!r}, which is missing"
            if not info.name.startswith("_") or subpackage == "datasets":
                assert name in exported, \
                    f"{module.__name__}.{name} is not re-exported by lecture_pkg.{subpackage}"


def _estimators():
    found = {}
    for subpackage in SUBPACKAGES:
        package = importlib.import_module(f"lecture_pkg.{subpackage}")
        for name in getattr(package, "__all__", []):
            obj = getattr(package, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator) and not name.startswith("_"):
                if not inspect.isabstract(obj) and name != "LinearBinaryClassifier":
                    found[name] = f"lecture_pkg.{subpackage}"
    return found


def test_the_top_level_docstring_names_every_estimator_and_subpackage():
    estimators = _estimators()
    assert len(estimators) >= 19
    doc = lecture_pkg.__doc__
    for name, where in estimators.items():
        assert f"``{name}``" in doc, f"{where}.{name} is not named in lecture_pkg's docstring"
    for subpackage in SUBPACKAGES:
        assert f":mod:`lecture_pkg.{subpackage}`" in doc


def test_private_names_do_not_cross_subpackages():
    """``from ..other import _name`` would tie two families to each other's internals."""
    offenders = []
    for path in PACKAGE_DIR.rglob("*.py"):
        rel = path.relative_to(PACKAGE_DIR)
        own = rel.parts[0] if len(rel.parts) > 1 else None
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.level > 0 and node.module):
                continue
            # the subpackage the import reaches into (None: a top-level module)
            depth = len(rel.parts) - 1
            parts = node.module.split(".")
            target = parts[0] if node.level > depth and len(parts) > 1 else own
            if node.level > depth and len(parts) == 1:
                target = None            # e.g. from .._ties import ...: top-level modules
            if target == own:
                continue
            for alias in node.names:
                if alias.name.startswith("_"):
                    offenders.append(f"{rel}: from {'.' * node.level}{node.module} "
                                     f"import {alias.name}")
    assert not offenders, "\n".join(offenders)


def test_book_tooling_is_not_in_the_installed_package():
    names = set(_modules())
    assert "lecture_pkg.benchmarks" not in names and "lecture_pkg.notebooks" not in names
    root = PACKAGE_DIR.parent
    assert (root / "tools" / "benchmarks.py").exists() and (root / "tools" / "refresh.py").exists()
