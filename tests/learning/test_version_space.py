"""Tests of lecture_pkg.learning.version_space: the integer toy example of Biehl sec. 2.2."""

import pytest

from lecture_pkg.learning import version_space as vs


def test_is_prime_on_small_integers():
    assert [i for i in range(30) if vs.is_prime(i)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]


def test_reconstructed_training_set_has_the_properties_the_text_states():
    examples = vs.integer_toy_examples()
    names = {h.name for h in vs.consistent(vs.hypothesis_class(), examples)}
    assert names == {"even -> A, odd -> B", "i < 11 -> A, rest -> B", "prime -> B, rest -> A"}
    after = {h.name for h in vs.consistent(vs.hypothesis_class(), examples + [(2, "B")])}
    assert after == {"prime -> B, rest -> A"}


def test_hypotheses_predict_as_named():
    hyps = {h.name: h for h in vs.hypothesis_class()}
    assert hyps["even -> A, odd -> B"](4) == "A" and hyps["even -> A, odd -> B"](7) == "B"
    assert hyps["i < 11 -> A, rest -> B"](10) == "A" and hyps["i < 11 -> A, rest -> B"](11) == "B"
    assert hyps["prime -> B, rest -> A"](2) == "B" and hyps["prime -> B, rest -> A"](1) == "A"
    assert hyps["multiple of 3 -> A, rest -> B"](9) == "A"
    assert len(hyps) == len(vs.hypothesis_class())          # names are unique
    assert len(vs.hypothesis_class(10, 4)) == 2 + 20 + 2 + 4


def test_version_space_shrinks_monotonically_and_nests():
    examples = vs.integer_toy_examples() + [(2, "B"), (25, "A")]
    hyps = vs.hypothesis_class()
    sizes = vs.version_space_sizes(hyps, examples)
    assert sizes[0] == len(hyps)
    assert all(a >= b for a, b in zip(sizes, sizes[1:]))
    for p in range(len(examples)):
        later = {h.name for h in vs.consistent(hyps, examples[: p + 1])}
        earlier = {h.name for h in vs.consistent(hyps, examples[:p])}
        assert later <= earlier
    assert sizes[-1] == 1          # 25 is composite: "prime -> B" survives


def test_lookup_table_stores_but_does_not_generalise():
    examples = vs.integer_toy_examples()
    table = vs.lookup_table_hypothesis(examples, default="A")
    assert table.agrees_with(examples)
    assert table.agrees_with(examples + [(23, "A")])   # consistent with anything unseen... as A
    assert table(23) == "A" and vs.lookup_table_hypothesis(examples, "B")(23) == "B"


def test_bad_examples_are_rejected():
    hyps = vs.hypothesis_class(5, 3)
    with pytest.raises(ValueError, match="'A' or 'B'"):
        vs.consistent(hyps, [(3, "C")])
    with pytest.raises(ValueError, match="integers"):
        vs.consistent(hyps, [(2.5, "A")])
    with pytest.raises(ValueError, match="pairs"):
        vs.consistent(hyps, [3])
    with pytest.raises(ValueError, match="contradictory"):
        vs.consistent(hyps, [(3, "A"), (3, "B")])
    with pytest.raises(ValueError, match="default"):
        vs.lookup_table_hypothesis([], default="C")
    with pytest.raises(ValueError):
        vs.hypothesis_class(0)
