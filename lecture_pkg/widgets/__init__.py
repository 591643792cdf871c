"""Interactive explorers for the notebooks (ipywidgets), one submodule per topic.

Each explorer is a plain class: its ``set(...)`` changes a setting and recomputes,
``figure()`` draws the current state, and ``.widget()`` puts buttons and sliders on top of
that in Jupyter (ipywidgets, with a running kernel).

For the static HTML book, each explorer's ``.static()`` sweeps its most instructive
controls when the notebook executes and returns a :class:`StaticExplorer`: the pictures
drawn by the same ``figure()`` as the live widget, behind sliders and buttons that work
in the page without a kernel.
"""

import importlib

from ._static import Control, StaticExplorer, control, static_explorer

#: Each explorer and the submodule that defines it.  A submodule is imported when its
#: explorer is first asked for (PEP 562), so that a notebook with one explorer does not
#: import the algorithms behind all the others.
_EXPLORERS = {
    "AdalineExplorer": "adaline",
    "HopfieldExplorer": "hopfield",
    "LPMExplorer": "lp_machine",
    "MEstimateExplorer": "naive_bayes",
    "PerceptronExplorer": "perceptron",
    "PrototypeExplorer": "prototypes",
    "RegressionExplorer": "regression",
    "ROCExplorer": "roc",
    "SVMExplorer": "svm",
    "VersionSpaceExplorer": "version_space",
}

__all__ = ["AdalineExplorer", "Control", "StaticExplorer", "control", "static_explorer",
           "HopfieldExplorer", "LPMExplorer", "MEstimateExplorer", "PerceptronExplorer",
           "PrototypeExplorer", "ROCExplorer", "RegressionExplorer", "SVMExplorer",
           "VersionSpaceExplorer"]


def __getattr__(name: str):
    if name not in _EXPLORERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    explorer = getattr(importlib.import_module(f".{_EXPLORERS[name]}", __name__), name)
    globals()[name] = explorer
    return explorer


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
