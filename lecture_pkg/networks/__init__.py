"""Networks of perceptrons (Biehl §4.2, Mooney's slides): committee and parity machines, the
multilayer perceptron.

* :mod:`~lecture_pkg.networks.machines` -- committee and parity machines, growing a parity
  machine (:class:`ParityMachine`);
* :mod:`~lecture_pkg.networks.mlp` -- a multilayer perceptron of sigmoid units trained by
  backpropagation (:class:`MLP`) of any depth (sigmoid or tanh units, batch and mini-batch
  gradient descent, early stopping, L-BFGS), the slides' worked example and the XOR network;
* :mod:`~lecture_pkg.networks.mlp_estimators` -- the same network as scikit-learn estimators
  (:class:`MLPClassifier`, :class:`MLPRegressor`);
* :mod:`~lecture_pkg.networks.alvinn` -- a small ALVINN: synthetic road images, the
  Gaussian steering targets and the centre-of-gravity readout.
"""

from .machines import (hidden_states, committee_output, parity_output, xor_parity_machine,
                       lift_to_sphere, grandmother_unit, grow_parity_machine, ParityMachine)
from .mlp import MLP, numerical_gradient, slides_example, xor_threshold_network, train_xor
from .mlp_estimators import MLPClassifier, MLPRegressor
from .alvinn import (alvinn_targets, centre_of_gravity, road_images, shifted_copies,
                     buffer_replacements)

__all__ = [
    "hidden_states", "committee_output", "parity_output", "xor_parity_machine",
    "lift_to_sphere", "grandmother_unit", "grow_parity_machine", "ParityMachine", "MLP",
    "MLPClassifier", "MLPRegressor",
    "numerical_gradient", "slides_example", "xor_threshold_network", "train_xor",
    "alvinn_targets", "centre_of_gravity", "road_images", "shifted_copies", "buffer_replacements",
]
