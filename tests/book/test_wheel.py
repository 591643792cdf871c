"""lecture_pkg as a student gets it: the wheel the site serves, in a fresh environment.

``test_downloaded_chapters_run_with_the_wheel`` builds the wheel from this checkout,
creates a virtual environment outside the repository, installs the wheel there with
``pip`` from the package index, taking the dependency ranges the wheel declares (not the
repository's pins), and runs every chapter notebook as the site's download button serves
it (``_build/html/_sources/...ipynb`` after ``make book``, otherwise the same file under
``book/``), each in a folder of its own, two at a time, with its ``SEED`` shifted by
1000: a student who downloads a chapter and tries another seed.  This is the first of the
two re-seeded runs of every chapter that ``make test`` asks for (``tests/any_seed.py``
runs the second, at 2000, in the development environment); one run of the book serves
both purposes, which keeps CI within its time budget.  Outputs are not compared (other
versions and seeds print other numbers); a cell that raises fails the test, including
the checks of the stated results.  Before the wheel is installed, one chapter runs in the
same environment to show the install guard's message.  It needs the package index
(``pip install``), as ``make install`` does, and takes a few minutes.

The fast tests check what the site's page says about the wheel and what the wheel holds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from lecture_pkg import __version__

from tools.install_guard import RUNNING_PAGE
from tools.notebook_edit import chapter_notebooks

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("any_seed", ROOT / "tests" / "any_seed.py")
any_seed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(any_seed)
#: added to every downloaded chapter's SEED (tests/any_seed.py runs the book at 2000)
SEED_OFFSET = 1000
SOURCES = ROOT / "_build" / "html" / "_sources"
WHEEL = f"lecture_pkg-{__version__}-py3-none-any.whl"
SDIST = f"lecture_pkg-{__version__}.tar.gz"

# Notebooks that are not chapters a student runs alone: the appendix page reads a saved
# benchmark run (benchmark_run.json) that lives beside it in the repository.
NOT_STANDALONE = ("appendix/",)

RUNNER = textwrap.dedent('''\
    """Run one notebook in this environment's kernel; print the error and exit 1 if a cell fails."""
    import sys
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = Path(sys.argv[1])
    nb = nbformat.read(path, as_version=4)
    probe = nbformat.v4.new_code_cell("import sys\\nprint(sys.executable)")
    nb.cells.insert(0, probe)
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:
        print(error)
        shown = [o for cell in nb.cells for o in cell.get("outputs", [])
                 if o.output_type == "error"]
        print("=== what the notebook shows: " + error.ename)
        print("\\n".join(shown[0].traceback if shown else []))
        sys.exit(1)
    finally:
        kernel_python = "".join(o.get("text", "") for o in probe.outputs).strip()
        print(f"kernel python: {kernel_python}")
    ''')


def chapters() -> list[Path]:
    """The chapter notebooks, as paths relative to book/."""
    paths = [p.relative_to(ROOT / "book") for p in chapter_notebooks(ROOT / "book")]
    return [p for p in paths if not p.as_posix().startswith(NOT_STANDALONE)]


def served_notebook(rel: Path) -> Path:
    """The file the download button of the chapter's page serves (the source notebook)."""
    built = SOURCES / "book" / rel
    return built if built.is_file() else ROOT / "book" / rel


def clean_env(**extra) -> dict[str, str]:
    """The environment of a student's shell: nothing that points into this repository
    or pins its versions (PYTHONPATH, pip constraints, a virtual environment)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV", "JUPYTER", "MPL"))}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def venv_bin(python: Path) -> Path:
    """The folder of a virtual environment's executables (``bin``; ``Scripts`` on Windows)."""
    return Path(python).parent


def run(cmd, cwd, env, timeout=900) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=timeout)


def build_wheel(outdir: Path) -> Path:
    """Build lecture_pkg's wheel from this checkout, as `make book` does (from the sdist,
    so that nothing is built inside the checkout)."""
    result = run([sys.executable, "-m", "build", "--no-isolation",
                  "--outdir", outdir, ROOT], cwd=ROOT, env=dict(os.environ))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    wheel = outdir / WHEEL
    assert wheel.is_file(), f"no {WHEEL} in {sorted(p.name for p in outdir.iterdir())}"
    return wheel


def install_line() -> list[str]:
    """The arguments of the ``pip install`` lines of book/running.md's recipe, together.

    The recipe writes them on two lines (JupyterLab with its extension, then the wheel),
    each short enough for a phone's screen; one ``pip install`` of all of them is what
    they install."""
    page = (ROOT / "book" / "running.md").read_text(encoding="utf-8")
    lines = re.findall(r"^pip install (.+)$", page, flags=re.MULTILINE)
    assert 1 <= len(lines) <= 2, f"book/running.md's recipe has `pip install` lines {lines}"
    return [arg for line in lines for arg in line.split()]


def pinned(name: str) -> str:
    """The version requirements.txt pins for ``name``."""
    text = (ROOT / "requirements.txt").read_text()
    found = re.findall(rf"^{re.escape(name)}==(\S+)", text, flags=re.MULTILINE)
    assert len(found) == 1, f"requirements.txt should pin {name} once"
    return found[0]


# --------------------------------------------------------------------------- fast


def test_the_running_page_installs_everything_with_pip():
    """JupyterLab and jupyterlab-myst at the versions the book is tested with (which
    agree: tests/book/test_lab.py), and the wheel; nothing else is needed."""
    args = install_line()
    assert args == [f"jupyterlab=={pinned('jupyterlab')}",
                    f"jupyterlab-myst=={pinned('jupyterlab-myst')}", WHEEL], args


def test_the_running_page_links_the_current_wheel_and_sdist():
    """book/running.md names the files `make book` builds for this version."""
    page = (ROOT / "book" / "running.md").read_text(encoding="utf-8")
    assert f"# {RUNNING_PAGE}" in page, "the install guard names this page by its title"
    names = set(re.findall(r"lecture_pkg-[\w.]+?(?:-py3-none-any\.whl|\.tar\.gz)", page))
    assert names == {WHEEL, SDIST}, (
        f"book/running.md names {sorted(names)}; lecture_pkg.__version__ is {__version__}: "
        f"update the page to {WHEEL} and {SDIST}")
    assert f'href="../dist/{WHEEL}"' in page and f'href="../dist/{SDIST}"' in page


def test_the_wheel_declares_ranges_not_pins():
    """The package's dependencies are ranges (a student's environment decides)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    for requirement in project["dependencies"]:
        assert "==" not in requirement and ">=" in requirement, requirement


# --------------------------------------------------------------------------- slow


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory):
    """A virtual environment outside the repository with a kernel but no lecture_pkg."""
    base = tmp_path_factory.mktemp("student")
    assert ROOT not in base.parents
    # Its own Jupyter and IPython folders: no kernel or startup file of this machine's user.
    env = clean_env(JUPYTER_DATA_DIR=str(base / "jupyter-data"),
                    IPYTHONDIR=str(base / "ipython"))
    venv = base / "venv"
    result = run([sys.executable, "-m", "venv", venv], cwd=base, env=env)
    assert result.returncode == 0, result.stderr
    python = venv / "bin" / "python"
    result = run([python, "-m", "pip", "install", "--quiet", "ipykernel", "nbclient"],
                 cwd=base, env=env)
    assert result.returncode == 0, f"pip install ipykernel nbclient failed:\n{result.stderr}"
    (base / "run_notebook.py").write_text(RUNNER)
    return base, python, env


def run_notebook(base: Path, python: Path, env, source: Path, folder: str,
                 seed_offset: int = 0):
    """Copy a served notebook into a folder of its own under ``base`` and run it there,
    with its ``SEED`` shifted by ``seed_offset`` if it sets one."""
    target = base / "runs" / folder / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    nb = json.loads(source.read_text(encoding="utf-8"))
    if seed_offset and any_seed.seed_of(nb) is not None:
        nb = any_seed.reseed(nb, seed_offset)
    target.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return run([python, base / "run_notebook.py", target], cwd=target.parent, env=env)


def test_downloaded_chapters_run_with_the_wheel(fresh_env, tmp_path):
    base, python, env = fresh_env
    first = chapters()[0]

    # Without the package: the first cell stops with the install message.
    result = run_notebook(base, python, env, served_notebook(first), "without-package")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"kernel python: {python}" in result.stdout
    shown = result.stdout.partition("=== what the notebook shows: ")[2]
    assert shown.startswith("LecturePkgMissing") and "pip install" in shown, result.stdout
    assert RUNNING_PAGE in shown and "ModuleNotFoundError" not in shown, shown

    # The wheel, built from this checkout, with the ranges it declares, installed by the
    # running page's pip lines (JupyterLab, jupyterlab-myst and the wheel) in the folder
    # the student downloaded the wheel to.
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "lecture_pkg" / "data").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert data and data <= shipped, f"data files missing from the wheel: {data - shipped}"
    downloads = base / "downloads"
    downloads.mkdir()
    shutil.copy(wheel, downloads / WHEEL)
    line = install_line()
    result = run([python, "-m", "pip", "install", "--quiet", *line], cwd=downloads, env=env)
    assert result.returncode == 0, f"pip install {' '.join(line)} failed:\n{result.stderr}"
    result = run([venv_bin(python) / "jupyter", "labextension", "list"], cwd=base, env=env)
    listing = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    myst = [line for line in listing.splitlines() if "jupyterlab-myst" in line]
    assert "not compatible" not in listing and myst and "enabled" in myst[0] \
        and "OK" in myst[0], f"jupyter labextension list after the running page's line:\n{listing}"
    result = run([python, "-c", "import lecture_pkg; print(lecture_pkg.__file__)"],
                 cwd=base, env=env)
    assert str(base) in result.stdout, f"lecture_pkg not from the fresh environment: {result}"

    # Every chapter, as the site serves it, re-seeded, two at a time.
    todo = chapters()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(
            lambda rel: run_notebook(base, python, env, served_notebook(rel),
                                     rel.with_suffix("").as_posix(), SEED_OFFSET), todo))
    failed = [f"{rel}:\n{textwrap.indent((r.stdout + r.stderr)[-4000:], '    ')}"
              for rel, r in zip(todo, results) if r.returncode != 0]
    wrong_kernel = [str(rel) for rel, r in zip(todo, results)
                    if f"kernel python: {python}" not in r.stdout]
    assert not wrong_kernel, f"not run by the fresh environment's python: {wrong_kernel}"
    versions = run([python, "-m", "pip", "list", "--format=json"], cwd=base, env=env)
    installed = {p["name"].lower(): p["version"] for p in json.loads(versions.stdout)}
    stack = {k: installed.get(k) for k in
             ("numpy", "scipy", "scikit-learn", "matplotlib", "ipywidgets")}
    assert not failed, (f"{len(failed)} of {len(todo)} chapters failed with {stack}, "
                        f"SEED shifted by {SEED_OFFSET} (a failing result cell may hold "
                        f"only for some seeds: try `python tests/any_seed.py --offsets "
                        f"{SEED_OFFSET} <notebook>`):\n" + "\n".join(failed))
    assert len(todo) >= 10
