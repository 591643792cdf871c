"""The multilayer perceptron of :mod:`~lecture_pkg.networks.mlp` as scikit-learn estimators.

:class:`MLPClassifier` and :class:`MLPRegressor` build an :class:`~lecture_pkg.networks.MLP`
for the data they are given (inputs, the hidden layers asked for, the outputs the targets
need), train it by backpropagation and gradient descent on the summed squared error
``E = sum_k 1/2 sum_j (y_j(x_k) - d_kj)^2`` (or by L-BFGS on the same ``E``), and keep it
as ``network_``.  They can stand in a pipeline, a cross-validation or a grid search like
any other estimator of the package.

* Classifier: two classes are one sigmoid output unit with target 1 for ``classes_[1]``
  and 0 for ``classes_[0]``; ``K > 2`` classes are ``K`` sigmoid output units with one-hot
  targets, and the predicted class is the unit with the largest output.
* Regressor: identity output units, one per target column.

Random draws, in this order, all from ``random_state``: the validation examples (with
``validation_fraction``), the starting weights, the order of the mini-batches.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import (COUNT, POSITIVE, Interval, Options, ParamValidationMixin, resolve_rng,
                          warn_user)
from .mlp import MLP

__all__ = ["MLPClassifier", "MLPRegressor"]


class _LayerSizes:
    """A constraint of the hyper-parameter table: the sizes of the hidden layers."""

    def is_satisfied_by(self, value) -> bool:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            return False
        return all(COUNT.is_satisfied_by(n) for n in value)

    def __str__(self) -> str:
        return "a sequence of integers >= 1 (units per hidden layer; empty: no hidden layer)"


class _MLPEstimator(ParamValidationMixin, BaseEstimator):
    """What the classifier and the regressor share: the table, the training, the checks."""

    _parameter_constraints = {
        "hidden_layer_sizes": [_LayerSizes()],
        "activation": [Options("sigmoid", "tanh")],
        "solver": [Options("gd", "lbfgs")],
        "eta": [POSITIVE],
        "max_epochs": [COUNT],
        "batch_size": [COUNT, None],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither"), None],
        "patience": [COUNT, None],
        "init": [Options("uniform", "glorot")],
        "init_scale": [POSITIVE],
        "random_state": ["random_state"],
    }

    #: The output units (set by the subclass).
    _output_activation = "identity"

    def __init__(self, hidden_layer_sizes=(8,), *, activation="tanh", solver="gd", eta=0.01,
                 max_epochs=200, batch_size=16, validation_fraction=None, patience=None,
                 init="glorot", init_scale=0.5, random_state=None):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.eta = eta
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.validation_fraction = validation_fraction
        self.patience = patience
        self.init = init
        self.init_scale = init_scale
        self.random_state = random_state

    def _check_parameter_combination(self) -> None:
        """Early stopping needs a validation set, and works with gradient descent only."""
        if self.patience is not None and self.validation_fraction is None:
            raise ValueError(f"{type(self).__name__}: the parameter 'patience' needs a "
                             "validation set: give 'validation_fraction' too")
        if self.solver == "lbfgs" and self.validation_fraction is not None:
            raise ValueError(f"{type(self).__name__}: the parameter 'validation_fraction' (early "
                             "stopping) works with solver='gd' only")

    def _train(self, X: np.ndarray, D: np.ndarray) -> None:
        """Build the network for ``X`` and the targets ``D`` (P, n_outputs) and train it."""
        rng = resolve_rng(self.random_state)
        P = len(X)
        validation = None
        if self.validation_fraction is not None:
            n_val = int(np.floor(self.validation_fraction * P))
            if not 1 <= n_val < P:
                raise ValueError(f"{type(self).__name__}: "
                                 f"validation_fraction={self.validation_fraction} "
                                 f"of {P} examples leaves {n_val} for validation and "
                                 f"{P - n_val} for training: each needs at least one")
            val = rng.permutation(P) < n_val
            validation = (X[val], D[val])
            X, D = X[~val], D[~val]
        sizes = (X.shape[1], *map(int, self.hidden_layer_sizes), D.shape[1])
        net = MLP(sizes, random_state=rng, init=self.init, init_scale=self.init_scale,
                  activation=self.activation, output_activation=self._output_activation)
        if self.solver == "lbfgs":
            losses = [net.loss(X, D)]
            losses.append(net.fit_lbfgs(X, D, max_iter=self.max_epochs))
            self.n_iter_ = net.n_iter_
            self.validation_loss_curve_ = []
            self.best_epoch_ = None
        else:
            losses = net.fit(X, D, eta=self.eta, n_epochs=self.max_epochs,
                             batch_size=self.batch_size, random_state=rng, validation=validation,
                             patience=self.patience)
            self.n_iter_ = net.n_epochs_
            self.validation_loss_curve_ = net.validation_losses_
            self.best_epoch_ = net.best_epoch_
        self.network_ = net
        self.loss_curve_ = losses
        if self.solver == "gd" and losses[-1] > losses[0]:
            warn_user(f"{type(self).__name__}: the training loss rose from {losses[0]:.3g} to "
                      f"{losses[-1]:.3g} in {self.n_iter_} epochs: "
                      f"the learning rate eta={self.eta} "
                      "is too large for these data (the gradient is summed over a batch)",
                      ConvergenceWarning)

    def _inputs(self, X) -> np.ndarray:
        check_is_fitted(self)
        return validate_data(self, X, reset=False)

    def _outputs(self, X) -> np.ndarray:
        X = self._inputs(X)
        return self.network_.predict_proba(X)


class MLPClassifier(ClassifierMixin, _MLPEstimator):
    """A multilayer perceptron trained by backpropagation, as a scikit-learn classifier.

    Parameters
    ----------
    hidden_layer_sizes : sequence of int, default (8,)
        Units per hidden layer, lowest first; ``()`` is a single layer of output units.
    activation : {"sigmoid", "tanh"}, default "tanh"
        The hidden units; the output units are sigmoid units.
    solver : {"gd", "lbfgs"}, default "gd"
        ``"gd"``: gradient descent ``w <- w - eta dE_B/dw`` on mini-batches ``B`` (the
        gradient summed over the batch), as :meth:`MLP.fit`; ``"lbfgs"``: SciPy's L-BFGS on
        the same ``E`` (:meth:`MLP.fit_lbfgs`).
    eta : float, default 0.01
        The learning rate of ``"gd"``.
    max_epochs : int, default 200
        Passes through the training set (``"gd"``), or L-BFGS's iterations.
    batch_size : int or None, default 16
        Examples per step; ``None`` is batch descent on the whole training set.
    validation_fraction : float in (0, 1), optional
        Early stopping: this fraction of the examples (drawn at random) is held out, the
        loss on it is recorded after every epoch, and the weights of the epoch with the
        smallest validation loss are kept.
    patience : int, optional
        With ``validation_fraction``: stop when the validation loss has not improved for
        this many epochs.
    init : {"uniform", "glorot"}, default "glorot"
        The random start (see :class:`MLP`); ``init_scale`` is the half-width of the
        ``"uniform"`` start.
    random_state : seed, Generator or None

    Attributes
    ----------
    network_ : MLP
        The trained network.
    classes_ : array (n_classes,)
        The class labels.
    loss_curve_ : list of float
        Training loss ``E`` after 0, 1, ... epochs (``"lbfgs"``: at the start and the end).
    validation_loss_curve_ : list of float
        Validation loss after every epoch (early stopping only).
    best_epoch_ : int or None
        The epoch whose weights were kept (``"gd"``).
    n_iter_ : int
        Epochs run (``"gd"``) or L-BFGS iterations.

    Raises
    ------
    FloatingPointError
        From ``fit``, when gradient descent diverges (the loss overflows); a loss that ends
        higher than it started gives a ``ConvergenceWarning``.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on the
       multilayer perceptron and backpropagation. (bib key: mooney_probabilistic)

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from lecture_pkg.networks import MLPClassifier
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = MLPClassifier((16,), eta=0.05, max_epochs=300, random_state=0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.95)
    True
    """

    _output_activation = "sigmoid"

    def fit(self, X: np.ndarray, y: np.ndarray) -> MLPClassifier:
        """Train a network on ``X`` (n_samples, n_features) and the class labels ``y``."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            raise ValueError(f"MLPClassifier needs at least two classes to learn, y has "
                             f"{len(self.classes_)} class")
        index = np.searchsorted(self.classes_, y)
        if len(self.classes_) == 2:
            D = index[:, None].astype(float)
        else:
            D = np.eye(len(self.classes_))[index]
        self._train(X, D)
        return self

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """Class probabilities: ``(1 - y, y)`` of the one output unit for two classes; for
        more, the outputs of the class units divided by their sum."""
        Y = self._outputs(X)
        if Y.shape[1] == 1:
            return np.hstack([1.0 - Y, Y])
        total = Y.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            proba = np.where(total > 0, Y / total, 1.0 / Y.shape[1])
        return proba

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The class of the largest output (two classes: ``classes_[1]`` where ``y >= 1/2``)."""
        Y = self._outputs(X)
        if Y.shape[1] == 1:
            return self.classes_[(Y[:, 0] >= 0.5).astype(int)]
        return self.classes_[np.argmax(Y, axis=1)]


class MLPRegressor(RegressorMixin, _MLPEstimator):
    """A multilayer perceptron with linear output units, as a scikit-learn regressor.

    The same parameters and attributes as :class:`MLPClassifier`; the output units are
    identity units, one per column of ``y``, and the network is trained on the summed
    squared error of its outputs.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on the
       multilayer perceptron and backpropagation. (bib key: mooney_probabilistic)
    .. [2] Rumelhart, D. E., Hinton, G. E. and Williams, R. J. (1986). Learning representations
       by back-propagating errors. *Nature* 323, 533--536. (bib key: rumelhart1986learning)

    Examples
    --------
    >>> import numpy as np
    >>> from lecture_pkg.networks import MLPRegressor
    >>> x = np.linspace(0, 1, 50)[:, None]
    >>> reg = MLPRegressor((8,), solver="lbfgs", random_state=0).fit(x, np.sin(3 * x[:, 0]))
    >>> bool(reg.score(x, np.sin(3 * x[:, 0])) > 0.99)
    True
    """

    _output_activation = "identity"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True        # one output unit per column of y
        return tags

    def fit(self, X: np.ndarray, y: np.ndarray) -> MLPRegressor:
        """Train a network on ``X`` (n_samples, n_features) and the targets ``y`` (one or
        more columns)."""
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        self._one_column = y.ndim == 1
        self._train(X, y.reshape(len(y), -1).astype(float))
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The network's outputs (1-d when ``y`` was 1-d)."""
        Y = self._outputs(X)
        return Y[:, 0] if self._one_column else Y
