"""The order in which a sequential algorithm presents the examples in each epoch.

Shared by the kernel perceptron and the condensed nearest-neighbour rule, which both
cycle through the training set in a natural, random or given order.
"""

from __future__ import annotations

import numpy as np

from ..validation import COUNT, Options, resolve_rng, validate_args


@validate_args(n=COUNT, order=[None, Options("random"), "array-like"], random_state="random_state")
def presentation_order(n: int, order: str | np.ndarray | None = None, *,
                       random_state: np.random.Generator | int | None = None) -> np.ndarray:
    """The order in which the ``n`` patterns are presented in every epoch.

    ``order=None`` is the natural order ``0, ..., n-1``; ``"random"`` one random
    permutation from ``random_state``; an array must be a permutation of ``range(n)``.
    """
    if order is None:
        return np.arange(n)
    if isinstance(order, str):                       # "random"
        return resolve_rng(random_state).permutation(n)
    perm = np.asarray(order)
    if perm.shape != (n,) or not np.array_equal(np.sort(perm), np.arange(n)):
        raise ValueError(f"order must be a permutation of range({n})")
    return perm.astype(int)
