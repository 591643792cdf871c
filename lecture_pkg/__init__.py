"""lecture_pkg: the algorithms of the executable course on supervised learning.

Modules are organised by algorithm family:

* :mod:`lecture_pkg.neurons` -- activation functions, Hebb's rule, feed-forward networks
* :mod:`lecture_pkg.hopfield` -- Hopfield networks: Hebbian storage, dynamics, energy, capacity
* :mod:`lecture_pkg.regression` -- linear regression: least squares, ridge, ML, MAP, Bayesian
* :mod:`lecture_pkg.version_space` -- the integer toy example of learning in version space
* :mod:`lecture_pkg.probability` -- joint probability tables, the Bayes classifier, Bayesian networks
* :mod:`lecture_pkg.naive_bayes` -- categorical (m-estimate) and Gaussian naive Bayes
* :mod:`lecture_pkg.perceptron` -- Rosenblatt's perceptron, margins and the convergence bound
* :mod:`lecture_pkg.separability` -- linear separability by LP, Boolean functions, Cover's count
* :mod:`lecture_pkg.teacher_student` -- generalisation error, version space, learning curves
* :mod:`lecture_pkg.stability` -- optimal stability: MinOver, Adaline, AdaTron, support vectors
* :mod:`lecture_pkg.nonseparable` -- minimal errors, the Pocket algorithm, the soft-margin AdaTron
* :mod:`lecture_pkg.machines` -- committee and parity machines, growing a parity machine
* :mod:`lecture_pkg.mlp` -- a small multilayer perceptron with backpropagation
* :mod:`lecture_pkg.kernels` -- kernels, Gram matrices, explicit feature maps
* :mod:`lecture_pkg.svm` -- the kernel AdaTron SVM and the dual (kernel) perceptron
* :mod:`lecture_pkg.kernel_perceptron` -- the kernel perceptron (method of potential functions)
* :mod:`lecture_pkg.lp_machine` -- linear programming machines (Frieß and Harrison)
* :mod:`lecture_pkg.mesr` -- minimal expansion set reduction
* :mod:`lecture_pkg.kernel_data` -- two spirals, mirror symmetry, breast cancer; the paper's protocol
* :mod:`lecture_pkg.distances` -- distance measures for prototype methods (Minkowski, kernel, relevance)
* :mod:`lecture_pkg.prototypes` -- nearest neighbours, nearest prototypes, LVQ1, GLVQ, GMLVQ
* :mod:`lecture_pkg.evaluation` -- bias and variance, cross-validation, ROC/AUC, confusion matrices
* :mod:`lecture_pkg.datasets` -- the lecture notes' example data and generators
* :mod:`lecture_pkg.plotting` -- figure helpers for a consistent look
* :mod:`lecture_pkg.widgets` -- interactive explorers for the notebooks
* :mod:`lecture_pkg.results` -- reporting reproduced results and the ledger page
* :mod:`lecture_pkg.benchmarks` -- timing against scikit-learn and SciPy (``make bench``)
* :mod:`lecture_pkg.notebooks` -- re-executing the book's notebooks (``make refresh``)
* :mod:`lecture_pkg.validation` -- input checks shared by the modules
"""

__version__ = "0.1.0"
