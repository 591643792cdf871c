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
