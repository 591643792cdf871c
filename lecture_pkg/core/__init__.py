"""The ground floor: what several families of algorithms share, importing none of them.

* :mod:`~lecture_pkg.core.kernels` -- the package's one set of kernels (linear,
  polynomial, RBF), Gram matrices, Mercer checks, explicit feature maps (used by the
  kernel machines and by the prototypes' kernel distances);
* :mod:`~lecture_pkg.core.solvers` -- the AdaTron/Adaline family on embedding strengths
  (sequential, parallel, and the greedy pair steps of SMO), with its Kuhn-Tucker checks:
  the solver of :class:`~lecture_pkg.linear.AdaTron`, :class:`~lecture_pkg.linear.Adaline`,
  :class:`~lecture_pkg.linear.SoftMarginAdaTron` and
  :class:`~lecture_pkg.kernel_machines.KernelAdaTron`;
* :mod:`~lecture_pkg.core.order` -- the order of presentation in each epoch (the kernel
  perceptron, the condensed nearest-neighbour rule).

A reader meets these names through the families that re-export them
(:mod:`lecture_pkg.kernel_machines`, :mod:`lecture_pkg.linear`).  The families build on
this floor and on :mod:`lecture_pkg.validation`; ``tests/package/test_import_graph.py`` checks
that no two subpackages import each other, directly or around a cycle.
"""
