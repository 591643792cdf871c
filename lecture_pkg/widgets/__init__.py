"""Interactive explorers for the notebooks (ipywidgets), one submodule per topic.

Each explorer keeps its logic in a plain class that can be tested without a browser;
its ``.widget()`` method only wires buttons and sliders to that logic and redraws a
figure (``_live.live_figure``).  Notebooks import the explorers from here.
"""

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

__all__ = ["AdalineExplorer", "HopfieldExplorer", "LPMExplorer", "MEstimateExplorer", "PerceptronExplorer",
           "PrototypeExplorer", "ROCExplorer", "RegressionExplorer", "SVMExplorer",
           "VersionSpaceExplorer"]
