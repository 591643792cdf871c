"""Shared test configuration."""

import os

# scikit-learn's estimator checks include an array-API input check that runs only in
# SciPy's array-API mode, which SciPy reads once at import.  Switch it on for this
# process, import SciPy, and remove the variable again so that the notebook kernels
# nbval starts run exactly as `make refresh` runs them.
os.environ["SCIPY_ARRAY_API"] = "1"
import scipy.optimize  # noqa: E402,F401

del os.environ["SCIPY_ARRAY_API"]

import matplotlib  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

matplotlib.use("Agg")


def pytest_terminal_summary(terminalreporter):
    """The slowest notebooks: nbval reports one test per cell, so add them up per file."""
    totals = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            nodeid = getattr(rep, "nodeid", "")
            if getattr(rep, "when", None) in ("setup", "call", "teardown") and ".ipynb" in nodeid:
                path = nodeid.split("::")[0]
                totals[path] = totals.get(path, 0.0) + rep.duration
    if totals:
        terminalreporter.write_sep("=", "slowest notebooks (seconds, summed over cells)")
        for path, seconds in sorted(totals.items(), key=lambda kv: -kv[1])[:15]:
            terminalreporter.write_line(f"{seconds:7.1f}  {path}")


# The longest single tests, each several minutes of one core: started first, so that with
# `pytest -n 2` they run beside the rest of the suite rather than alone at its end.
LONG_TESTS = ("tests/book/test_wheel.py::test_downloaded_chapters_run_with_the_wheel",)


def pytest_collection_modifyitems(config, items):
    """Move the long tests to the front of the run (xdist hands out work in this order)."""
    items.sort(key=lambda item: item.nodeid not in LONG_TESTS)


@pytest.fixture(scope="module")
def teacher_data():
    """40 examples in 20 dimensions labelled by a random teacher (the solver tests)."""
    from lecture_pkg import datasets

    rng = np.random.default_rng(0)
    X, y, _ = datasets.teacher_student(40, 20, random_state=rng)
    return X, y


@pytest.fixture(scope="module")
def adatron_solution(teacher_data):
    """The AdaTron's perceptron of optimal stability on ``teacher_data``."""
    from lecture_pkg.linear import AdaTron

    X, y = teacher_data
    return AdaTron(fit_intercept=False).fit(X, y)


@pytest.fixture(scope="module")
def moons():
    """150 noisy moons with labels +-1 (the kernel solvers' tests)."""
    from sklearn.datasets import make_moons

    X, y = make_moons(150, noise=0.25, random_state=3)
    return X, np.where(y == 1, 1, -1)
