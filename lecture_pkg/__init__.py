"""lecture_pkg: the algorithms of the executable course on supervised learning.

Modules are organised by algorithm family:

* :mod:`lecture_pkg.perceptron` -- Rosenblatt's perceptron, margins and the convergence bound
* :mod:`lecture_pkg.datasets` -- the lecture notes' example data and generators
* :mod:`lecture_pkg.plotting` -- figure helpers for a consistent look
* :mod:`lecture_pkg.widgets` -- interactive explorers for the notebooks
* :mod:`lecture_pkg.results` -- reporting reproduced results and the ledger page
* :mod:`lecture_pkg.notebooks` -- re-executing the book's notebooks (``make refresh``)
"""

__version__ = "0.1.0"
