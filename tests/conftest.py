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
