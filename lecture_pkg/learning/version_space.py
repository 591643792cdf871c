"""Learning in version space on a toy problem: sorting integers into classes "A" and "B".

Biehl's lecture notes (section 2.2) illustrate *learning in version space* -- keep every
hypothesis that reproduces all training labels, discard the rest -- with integers
assigned to two classes.  The training set itself is in a figure missing from the text;
what the text says fixes its properties: "A = even, B = odd" and "i < 11 is A, the rest
B" are both consistent with it, and adding the example 2 -> B rules both out while
"primes are B" survives.  :func:`integer_toy_examples` is a **reconstruction** with
exactly these properties: A = {4, 6, 8, 10}, B = {11, 13, 17, 19}.

The hypothesis class (:func:`hypothesis_class`) is deliberately small: parity,
thresholds ``i < k``, primality and multiples of ``m``, each with both assignments of
the two classes.  Restricting the class is what makes learning possible at all: a
look-up table (:func:`lookup_table_hypothesis`) is consistent with any training set and
predicts nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numbers

import numpy as np

from ..validation import COUNT, Interval, Options, validate_args

__all__ = [
    "LABELS",
    "Hypothesis",
    "is_prime",
    "integer_toy_examples",
    "hypothesis_class",
    "consistent",
    "version_space_sizes",
    "lookup_table_hypothesis",
]

LABELS = ("A", "B")


@dataclass(frozen=True)
class Hypothesis:
    """A rule ``integer -> "A" | "B"``: ``in_a(i)`` is true for the integers it calls A."""

    name: str
    in_a: Callable[[int], bool]

    def __call__(self, i: int) -> str:
        return "A" if self.in_a(int(i)) else "B"

    def agrees_with(self, examples: Iterable[tuple[int, str]]) -> bool:
        """True if the rule reproduces every ``(integer, label)`` example."""
        return all(self(i) == label for i, label in examples)


@validate_args(i=Interval(numbers.Integral))
def is_prime(i: int) -> bool:
    """Primality by trial division (1, 0 and the negative integers are not prime)."""
    i = int(i)
    if i < 2:
        return False
    return all(i % d for d in range(2, int(i ** 0.5) + 1))


def _check_examples(examples) -> list[tuple[int, str]]:
    out = []
    for item in examples:
        try:
            i, label = item
        except (TypeError, ValueError):
            raise ValueError(f"examples must be (integer, label) pairs, got {item!r}") from None
        if label not in LABELS:
            raise ValueError(f"labels must be 'A' or 'B', got {label!r}")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise ValueError(f"the toy problem labels integers, got {i!r}")
        out.append((int(i), label))
    seen: dict[int, str] = {}
    for i, label in out:
        if seen.setdefault(i, label) != label:
            raise ValueError(f"contradictory examples: {i} is labelled both A and B")
    return out


def integer_toy_examples() -> list[tuple[int, str]]:
    """The training set of the integer example, **reconstructed** (the source's figure is missing).

    A = {4, 6, 8, 10}, B = {11, 13, 17, 19}: even non-primes below 11 and odd primes
    above it, the smallest sets with the properties the text states.
    """
    return [(i, "A") for i in (4, 6, 8, 10)] + [(i, "B") for i in (11, 13, 17, 19)]


@validate_args(max_threshold=COUNT, max_multiple=Interval(numbers.Integral, 2, None))
def hypothesis_class(max_threshold: int = 50, max_multiple: int = 10) -> list[Hypothesis]:
    """A small hypothesis class over the integers, each rule with both class assignments.

    * parity: "even -> A" and "odd -> A";
    * thresholds: "i < k -> A" and "i < k -> B" for ``k = 1, ..., max_threshold``;
    * primality: "prime -> B" and "prime -> A";
    * multiples: "multiple of m -> A" and "... -> B" for ``m = 3, ..., max_multiple``
      (``m = 2`` is parity).
    """
    hyps = [Hypothesis("even -> A, odd -> B", lambda i: i % 2 == 0),
            Hypothesis("odd -> A, even -> B", lambda i: i % 2 == 1)]
    for k in range(1, max_threshold + 1):
        hyps.append(Hypothesis(f"i < {k} -> A, rest -> B", lambda i, k=k: i < k))
        hyps.append(Hypothesis(f"i < {k} -> B, rest -> A", lambda i, k=k: i >= k))
    hyps.append(Hypothesis("prime -> B, rest -> A", lambda i: not is_prime(i)))
    hyps.append(Hypothesis("prime -> A, rest -> B", is_prime))
    for m in range(3, max_multiple + 1):
        hyps.append(Hypothesis(f"multiple of {m} -> A, rest -> B", lambda i, m=m: i % m == 0))
        hyps.append(Hypothesis(f"multiple of {m} -> B, rest -> A", lambda i, m=m: i % m != 0))
    return hyps


def consistent(hypotheses: Sequence[Hypothesis],
               examples: Iterable[tuple[int, str]]) -> list[Hypothesis]:
    """The version space: the hypotheses that reproduce every example."""
    examples = _check_examples(examples)
    return [h for h in hypotheses if h.agrees_with(examples)]


def version_space_sizes(hypotheses: Sequence[Hypothesis],
                        examples: Iterable[tuple[int, str]]) -> list[int]:
    """Size of the version space after 0, 1, ..., P examples (presented in the given order).

    The sequence never increases: each new example can only remove hypotheses.
    """
    examples = _check_examples(examples)
    return [len(consistent(hypotheses, examples[:p])) for p in range(len(examples) + 1)]


@validate_args(default=Options(*LABELS))
def lookup_table_hypothesis(examples: Iterable[tuple[int, str]], default: str = "A") -> Hypothesis:
    """Pure storage: answer from the list of examples, ``default`` for every other integer.

    Consistent with its training set by construction, and useless beyond it.
    """
    table = dict(_check_examples(examples))
    return Hypothesis(f"look-up table, otherwise {default}",
                      lambda i: table.get(i, default) == "A")
