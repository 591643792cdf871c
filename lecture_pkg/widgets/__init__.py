"""Interactive explorers for the notebooks (ipywidgets), one submodule per topic.

Each explorer keeps its logic in a plain class that can be tested without a browser;
its ``.widget()`` method only wires buttons and sliders to that logic and redraws a
figure.  Notebooks import the explorers from here.
"""

from .perceptron import PerceptronExplorer

__all__ = ["PerceptronExplorer"]
