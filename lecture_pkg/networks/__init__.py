"""Networks of perceptrons (Biehl §4.2, slides 003): committee and parity machines, the multilayer perceptron.

* :mod:`~lecture_pkg.networks.machines` -- committee and parity machines, growing a parity
  machine (:class:`ParityMachine`);
* :mod:`~lecture_pkg.networks.mlp` -- a multilayer perceptron of sigmoid units trained by
  backpropagation (:class:`MLP`), the slides' worked example and the XOR network.
"""

from .machines import (hidden_states, committee_output, parity_output, xor_parity_machine,
                       lift_to_sphere, grandmother_unit, grow_parity_machine, ParityMachine)
from .mlp import MLP, numerical_gradient, slides_example, xor_threshold_network, train_xor

__all__ = [
    "hidden_states", "committee_output", "parity_output", "xor_parity_machine",
    "lift_to_sphere", "grandmother_unit", "grow_parity_machine", "ParityMachine", "MLP",
    "numerical_gradient", "slides_example", "xor_threshold_network", "train_xor",
]
