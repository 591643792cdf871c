"""Model neurons and networks of them (Biehl ch. 1; the course's "Neurons and Hopfield networks").

* :mod:`~lecture_pkg.neurons.units` -- activation functions (the package's one logistic
  sigmoid), McCulloch-Pitts units, Hebb's rule, layered feed-forward networks;
* :mod:`~lecture_pkg.neurons.hopfield` -- Hopfield networks: Hebbian storage, parallel and
  sequential dynamics, energy, retrieval and capacity.
"""

from .units import (sigmoid, sigmoid_activation, sigmoid_derivative, tanh_activation,
                    tanh_derivative, mcculloch_pitts, hebb_update, layer_forward, feed_forward,
                    one_hidden_layer, perceptron_output)
from .hopfield import (TIE_RTOL, ALPHA_R, check_patterns, check_weights, random_patterns,
                       hebb_weights, hebb_weights_incremental, local_fields, energy, overlap,
                       corrupt, update_parallel, sequential_sweep, HopfieldRun, run,
                       RetrievalResult, retrieval_experiment, demo_images)

__all__ = [
    "sigmoid", "sigmoid_activation", "sigmoid_derivative", "tanh_activation", "tanh_derivative",
    "mcculloch_pitts", "hebb_update", "layer_forward", "feed_forward", "one_hidden_layer",
    "perceptron_output", "TIE_RTOL", "ALPHA_R", "check_patterns", "check_weights",
    "random_patterns", "hebb_weights", "hebb_weights_incremental", "local_fields", "energy",
    "overlap", "corrupt", "update_parallel", "sequential_sweep", "HopfieldRun", "run",
    "RetrievalResult", "retrieval_experiment", "demo_images",
]
