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

.PHONY: help install book test lab refresh bench lighthouse clean distclean

help:
	@echo "make book       build the HTML book into _build/html"
	@echo "make test       run every check: unit tests, notebooks (nbval, also under other floating-point configurations and other seeds), browser tests"
	@echo "make lab        open JupyterLab on the book, with lecture_pkg installed"
	@echo "make refresh    re-execute every notebook in place (deterministic)"
	@echo "make bench      time lecture_pkg against scikit-learn/SciPy (a few minutes); updates the Performance appendix"
	@echo "make lighthouse score every page of the built site with Lighthouse as a phone loads it (npm, chromium)"
	@echo "make clean      remove build outputs and caches (distclean also removes .venv)"

install: $(STAMP)

# setuptools announces every editable install with an "Editable installation" note (not a
# problem: lecture_pkg is installed editable on purpose); PYTHONWARNINGS keeps it out.
$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed, found " + sys.version.split()[0]'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" \
		$(BIN)/python -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $(STAMP)

# The site also serves lecture_pkg's wheel and sdist (book/running.md links them), built
# from this checkout into _build/dist and copied next to the pages: _build/html/dist/.
book: $(STAMP)
	rm -rf _build
	mkdir -p _build
	$(BIN)/python -m build --no-isolation --outdir _build/dist . >_build/dist.log 2>&1 \
		|| { cat _build/dist.log; exit 1; }
	$(BIN)/jupyter-book build . -n -W --keep-going
	$(BIN)/python -m tools.static_math _build/html
	$(BIN)/python -m tools.bundle_css _build/html
	mkdir -p _build/html/dist
	cp _build/dist/lecture_pkg-* _build/html/dist/
	cp book/appendix/benchmark_run.json book/appendix/lighthouse.json _build/html/book/appendix/

# Ruff (configured in pyproject.toml) checks the Python code first, and the notebooks' code
# for Pyflakes' errors (unused imports and names, undefined names); then pytest runs.
# After the native run, the notebooks run again under another floating-point configuration
# of this machine (numpy's SIMD dispatch off, OpenBLAS on an old CPU's kernels): tests/portability.py;
# then every chapter runs again with its SEED shifted twice, failing on any error, so that
# every claim is shown to hold for other seeds than the printed one: tests/any_seed.py.
test: book
	$(BIN)/ruff check lecture_pkg tests tools
	$(BIN)/ruff check --select F book
	$(BIN)/python -m pytest -n 2 --dist loadscope --durations=15
	$(BIN)/python tests/portability.py
	$(BIN)/python tests/any_seed.py --offsets 2000

# JupyterLab refuses to run as root unless told to (containers, CI machines).  Kernels talk
# to it over local IPC sockets: over TCP, ipykernel warns that the traffic is unencrypted.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root) --KernelManager.transport=ipc

# jupyterlab-myst (in requirements.txt) renders the notebooks' MyST markup; enabling it
# again here undoes a `jupyter labextension disable` left over from an earlier session.
# The notebooks are trusted (signed in your Jupyter data folder) so that their stored HTML
# outputs show as they are, without "not trusted" warnings.
lab: $(STAMP)
	$(BIN)/jupyter labextension enable jupyterlab-myst >/dev/null
	$(BIN)/jupyter trust $$(find book -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*') >/dev/null
	$(BIN)/jupyter lab $(LAB_FLAGS) book

# Before executing: every chapter's first cell is the install guard, and JupyterLab folds
# what the HTML book folds (tools/install_guard.py, tools/lab_markup.py; both idempotent).
refresh: $(STAMP)
	$(BIN)/python -m tools.install_guard
	$(BIN)/python -m tools.lab_markup
	$(BIN)/python -m tools.api_links
	$(BIN)/python -m tools.refresh book

bench: $(STAMP)
	$(BIN)/python -m tools.benchmarks --notebooks book --output book/appendix/benchmark_run.json
	$(BIN)/python -m tools.refresh book book/appendix/performance.ipynb

# Lighthouse (npm, pinned in tools/npm) over every page, served gzipped; a benchmark, not a
# test: it writes book/appendix/lighthouse.json for the Performance appendix.
lighthouse: $(STAMP)
	test -d _build/html/book || $(MAKE) book
	$(BIN)/python -m tools.lighthouse

clean:
	rm -rf _build .pytest_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
	find book -name .ipynb_checkpoints -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
