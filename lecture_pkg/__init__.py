"""lecture_pkg: the algorithms of the executable course on supervised learning.

One subpackage per family of algorithms, in the order of the course.  Each subpackage
re-exports its public names, so ``from lecture_pkg.linear import Perceptron`` works;
the modules inside say where each name is defined.  The estimators follow
scikit-learn's API (``fit``/``predict``/``score``, hyper-parameters checked when ``fit``
starts).

Part I, foundations
    :mod:`lecture_pkg.neurons`
        model neurons (:func:`~lecture_pkg.neurons.sigmoid`, McCulloch-Pitts units, Hebb's
        rule, feed-forward layers) and :mod:`~lecture_pkg.neurons.hopfield` networks.
    :mod:`lecture_pkg.learning`
        learning from examples: linear :mod:`~lecture_pkg.learning.regression`
        (``RidgeRegression``, ``BayesianLinearRegression``) and the
        :mod:`~lecture_pkg.learning.version_space` toy example.
    :mod:`lecture_pkg.probabilistic`
        Bayes' rule and the Bayes classifier (:mod:`~lecture_pkg.probabilistic.bayes`),
        ``CategoricalNaiveBayes`` and ``GaussianNaiveBayes``.

Part II, the perceptron, and linear classifiers beyond it
    :mod:`lecture_pkg.linear`
        ``Perceptron`` and ``RosenblattTrainer`` (Rosenblatt's rule, convergence),
        linear separability and Cover's count, student-teacher learning curves,
        optimal stability (``MinOver``, ``Adaline``, ``AdaTron``), and for data that are
        not separable ``Pocket`` and ``SoftMarginAdaTron``; Deckert's gradient-descent
        demonstrations (:mod:`~lecture_pkg.linear.gradient_descent`).

Part III, beyond linear separability
    :mod:`lecture_pkg.networks`
        committee and parity machines (``ParityMachine``) and the multilayer perceptron
        with backpropagation (``MLP``; as estimators ``MLPClassifier``, ``MLPRegressor``).
    :mod:`lecture_pkg.kernel_machines`
        the kernels and the AdaTron/SMO solvers (from :mod:`lecture_pkg.core`), the
        support vector machine
        ``KernelAdaTron``, the kernel perceptron ``KernelPerceptron``, the linear
        programming machine ``LPMachine``, minimal expansion set reduction
        (:mod:`~lecture_pkg.kernel_machines.mesr`) and Frieß and Harrison's experiments.

Part IV, prototypes and evaluation
    :mod:`lecture_pkg.prototypes`
        distances (:mod:`~lecture_pkg.prototypes.distances`),
        ``NearestNeighborClassifier``, ``NearestPrototypeClassifier``, ``LVQ1``, ``GLVQ``
        and ``GMLVQ``.
    :mod:`lecture_pkg.evaluation`
        bias and variance, cross-validation and model selection, ROC curves and
        confusion matrices.

Shared by all
    :mod:`lecture_pkg.core`
        the ground floor the families build on and that imports none of them: kernels,
        the AdaTron/SMO solvers on embedding strengths, the order of presentation.
    :mod:`lecture_pkg.datasets`
        every data set of the course: the notes' examples, generators, real data.
    :mod:`lecture_pkg.plotting`
        figure helpers for one look (decision regions, prototypes, hyperplanes).
    :mod:`lecture_pkg.widgets`
        the interactive explorers of the notebooks (ipywidgets).
    :mod:`lecture_pkg.results`
        reporting a reproduced result beside the stated one, and the ledger page.
    :mod:`lecture_pkg.validation`
        input checks, the hyper-parameter tables (``check_params``), the estimators'
        mixin that checks them when ``fit`` starts (``ParamValidationMixin``) and the
        functions' decorator that checks their arguments on every call (``validate_args``).

The tools that build the book (``make refresh``, ``make bench``) are not part of the
package; they live in ``tools/`` in the repository.
"""

__version__ = "0.1.0"
