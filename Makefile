# The two commands a newcomer needs: `make book` and `make test`.
# Each creates .venv with the pinned dependencies on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
STAMP  := $(VENV)/.installed

# Deterministic numerics and a venv-first PATH (the notebook kernel is the venv's python).
export PATH := $(BIN):$(PATH)
export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export PYTHONHASHSEED := 0

.PHONY: help install book test lab refresh bench clean distclean

help:
	@echo "make book       build the HTML book into _build/html"
	@echo "make test       run every check: unit tests, notebooks (nbval, also under other floating-point configurations), browser tests"
	@echo "make lab        open JupyterLab on the book, with lecture_pkg installed"
	@echo "make refresh    re-execute every notebook in place (deterministic)"
	@echo "make bench      time lecture_pkg against scikit-learn/SciPy (a few minutes); updates the Performance appendix"
	@echo "make clean      remove build outputs and caches (distclean also removes .venv)"

install: $(STAMP)

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed, found " + sys.version.split()[0]'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $(STAMP)

book: $(STAMP)
	rm -rf _build
	$(BIN)/jupyter-book build . -n -W --keep-going

# After the native run, the notebooks run again under other floating-point configurations
# of this machine (numpy's SIMD dispatch off, OpenBLAS on older kernels): tests/portability.py.
test: book
	$(BIN)/python -m pytest -n 2 --dist loadscope --durations=15
	$(BIN)/python tests/portability.py

# JupyterLab refuses to run as root unless told to (containers, CI machines).
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS) book

refresh: $(STAMP)
	$(BIN)/python -m tools.refresh book

bench: $(STAMP)
	$(BIN)/python -m tools.benchmarks --output book/appendix/benchmark_run.json
	$(BIN)/python -m tools.refresh book book/appendix/performance.ipynb

clean:
	rm -rf _build .pytest_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
	find book -name .ipynb_checkpoints -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
