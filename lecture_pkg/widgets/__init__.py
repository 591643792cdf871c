"""Interactive explorers for the notebooks (ipywidgets), one submodule per topic.

Each explorer keeps its logic in a plain class that can be tested without a browser;
its ``.widget()`` method only wires buttons and sliders to that logic and redraws a
figure (``_live.live_figure``).  Notebooks import the explorers from here.

For the static HTML book, each explorer's ``.static()`` sweeps its most instructive
controls when the notebook executes and returns a :class:`StaticExplorer`: the pictures
drawn by the same ``figure()`` as the live widget, behind sliders and buttons that work
in the page without a kernel (``_static.static_explorer``, usable for any explorer).
"""

from ._static import Control, StaticExplorer, control, static_explorer
from .adaline import AdalineExplorer
from .hopfield import HopfieldExplorer
from .lp_machine import LPMExplorer
from .naive_bayes import MEstimateExplorer
from .perceptron import PerceptronExplorer
from .prototypes import PrototypeExplorer
from .regression import RegressionExplorer
from .roc import ROCExplorer
from .svm import SVMExplorer
from .version_space import VersionSpaceExplorer

__all__ = ["AdalineExplorer", "Control", "StaticExplorer", "control", "static_explorer",
           "HopfieldExplorer", "LPMExplorer", "MEstimateExplorer", "PerceptronExplorer",
           "PrototypeExplorer", "ROCExplorer", "RegressionExplorer", "SVMExplorer",
           "VersionSpaceExplorer"]
