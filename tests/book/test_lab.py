"""The chapters in JupyterLab, as a student runs them (issue 28).

One JupyterLab server (started as ``make lab`` starts it, with jupyterlab-myst, on a copy
of ``book/`` in a temporary folder, with its own settings, workspaces and runtime
folders) and one headless Chromium (the system's, through Playwright, as in
``test_site``) serve every test of this module:

* every notebook of the book opens clean (no unsaved-changes mark once its kernel has
  started) and a save without an edit leaves the file byte for byte as it was: the
  notebooks are stored in the form JupyterLab writes (``tools/refresh.py``'s
  ``lab_form``, ``tools/lab_markup.py``);
* in the chapters of :data:`FOLD_CHAPTERS`, which between them hold every way the book
  writes a solution (:func:`patterns`; a test checks the choice still covers the book),
  no solution text or output is visible without a click on opening, after Run All (which
  must finish without an error) and after a save, and one click on a solution's
  "+ N cells hidden" button shows it.

Only those chapters are executed: opening and saving every notebook needs no execution.
The whole module takes about two minutes (115 to 190 s measured on a shared two-core
machine: 40 s to start the server, 40 to 80 s for the round trip, 25 to 45 s for the run).
Without Chromium the browser tests SKIP, saying how to install it;
``test_jupyterlab_extensions_agree`` runs anyway.
"""

from __future__ import annotations

import copy
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from tests.site.test_site import CHROMIUM_ARGS, NO_CHROMIUM, _find_chromium

from tools import lab_markup

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
JUPYTER = Path(sys.executable).with_name("jupyter")

FOLD_CHAPTERS = ("perceptron/iris.ipynb",)
"""The chapters run in JupyterLab: together they have every pattern of :func:`patterns`
(iris has them all, and runs in about 10 s)."""

START_TIMEOUT_S = 90
OPEN_BATCH = 6
"""Notebooks opened (and their kernels started) at once for the open-save round trip."""


def book_notebooks() -> list[Path]:
    """Every notebook of the book (chapters, appendix and ledger)."""
    return sorted(p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


# ------------------------------------------------------------------ solutions in a notebook


def _phrase(markdown: str) -> str | None:
    """A run of at least four plain words of ``markdown`` (no markup, maths or roles in
    it), whitespace normalised: text that shows as it is written once rendered."""
    text = re.sub(r"^(```|:::).*$", " ", markdown, flags=re.MULTILINE)
    text = re.sub(r"^:\w+:.*$", " ", text, flags=re.MULTILINE)
    text = re.sub(r"<[^>]*>", "|", text)
    pieces = [" ".join(p.split()) for p in re.split(r"[$`*_{}\[\]()\\|<>#=]", text)]
    pieces = [p.strip(" ,.;:") for p in pieces if len(p.split()) >= 4]
    return max(pieces, key=len) if pieces else None


def solutions(nb) -> list[dict]:
    """The notebook's gated solutions as JupyterLab shows them after ``tools.lab_markup``:
    ``start``/``end`` cell indices, ``spans`` (whether cells lie between), ``inside`` (a
    phrase of the text in the start cell's Solution box) and ``cells`` (the indices of the
    cells between start and end: code, outputs and text, to be hidden)."""
    nb = copy.deepcopy(nb)
    lab_markup.apply(nb)
    cells, found, opened = nb["cells"], [], None
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        directives = lab_markup._directives(text)
        for k, (name, a, end) in enumerate(directives):
            if name == "solution-start":
                opened = (i, end, k)
            elif opened is not None:
                si, se, sk = opened
                start_text = "".join(cells[si]["source"])
                body = start_text[se:a] if si == i else start_text[se:]
                found.append({
                    "start": si, "end": i, "spans": si != i,
                    "inside": _phrase(lab_markup._strip_markers(body)),
                    "cells": list(range(si + 1, i)),
                })
                opened = None
    return found


def patterns(nb) -> set[str]:
    """How the notebook writes its solutions (what the fold must cope with)."""
    nb = copy.deepcopy(nb)
    lab_markup.apply(nb)
    cells, out = nb["cells"], set()
    for s in solutions(nb):
        if not s["spans"]:
            out.add("within one cell")
            continue
        inner = cells[s["start"] + 1:s["end"]]
        code = [c for c in inner if c["cell_type"] == "code"]
        outputs = [o for c in code for o in c.get("outputs", [])]
        out.add("spans cells")
        if any(c["cell_type"] == "markdown" for c in inner):
            out.add("text after the code")
        if s["inside"]:
            out.add("text in the Solution box")
        if len(code) > 1:
            out.add("several code cells")
        if any(set(c["metadata"].get("tags", [])) & lab_markup.SOURCE_TAGS for c in code):
            out.add("code with a hiding tag")
        if any("image/png" in o.get("data", {}) for o in outputs):
            out.add("figure output")
        if any(o["output_type"] == "stream" for o in outputs):
            out.add("printed output")
    return out


def test_the_fold_chapters_cover_every_way_the_book_writes_a_solution():
    everywhere = set().union(*(patterns(nbformat.read(p, as_version=4)) for p in book_notebooks()))
    covered = set().union(*(patterns(nbformat.read(BOOK / c, as_version=4)) for c in FOLD_CHAPTERS))
    assert everywhere - covered == set(), (
        f"no chapter of FOLD_CHAPTERS has {sorted(everywhere - covered)}: add one that has")


def test_solution_phrases_ignore_markup():
    assert _phrase("```{solution-start} ex\n:class: dropdown\n```\nThe rate $\\eta$ is "
                   "what makes the steps *large* or small in this case.") == (
        "is what makes the steps")
    assert _phrase("$x$ and $y$") is None


# ------------------------------------------------------------------ extensions


def test_jupyterlab_extensions_agree():
    """`jupyter labextension list` (what the install on the running page gets, pinned in
    requirements.txt) reports jupyterlab-myst enabled and compatible."""
    result = subprocess.run([str(JUPYTER), "labextension", "list"], capture_output=True,
                            text=True, timeout=120)
    listing = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    assert "not compatible" not in listing, listing
    myst = [line for line in listing.splitlines() if "jupyterlab-myst" in line]
    assert myst and "enabled" in myst[0] and "OK" in myst[0], listing


# ------------------------------------------------------------------ the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on copies of the book: ``clean/book`` (opened and saved)
    and ``run/book`` (executed).  Yields (base URL, token, root folder)."""
    if _find_chromium() is None:
        pytest.skip(NO_CHROMIUM)
    root = tmp_path_factory.mktemp("lab")
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    for copy_name in ("clean", "run"):
        shutil.copytree(BOOK, root / copy_name / "book", ignore=ignore)
    state = root / "state"
    # Kernels talk over IPC sockets in the runtime folder; a socket's path must stay under
    # about 100 characters (AF_UNIX), which pytest's nested temporary folders exceed.
    runtime = Path(tempfile.mkdtemp(prefix="jrt"))
    token, port = secrets.token_hex(16), _free_port()
    env = dict(os.environ,
               JUPYTERLAB_SETTINGS_DIR=str(state / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(state / "workspaces"),
               JUPYTER_RUNTIME_DIR=str(runtime),
               JUPYTER_DATA_DIR=str(state / "data"),
               PATH=f"{JUPYTER.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    # As `make lab`: the notebooks that run trusted, kernels over IPC, as root where needed.
    notebooks = [str(p) for p in (root / "run").rglob("*.ipynb")]
    subprocess.run([str(JUPYTER), "trust", *notebooks], env=env, capture_output=True, timeout=120)
    cmd = [str(JUPYTER), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--KernelManager.transport=ipc", "--LabApp.expose_app_in_browser=True",
           "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.getuid() == 0:
        cmd.append("--allow-root")
    log = open(state.parent / "lab.log", "w")
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                request = urllib.request.Request(f"{base}/api/status",
                                                 headers={"Authorization": f"token {token}"})
                urllib.request.urlopen(request, timeout=5).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("JupyterLab did not start:\n"
                                + (state.parent / "lab.log").read_text()[-3000:])
                time.sleep(0.5)
        yield base, token, root
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture(scope="module")
def app(lab):
    """The JupyterLab page in headless Chromium, the application started."""
    from playwright.sync_api import sync_playwright

    base, token, _ = lab
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=_find_chromium(), headless=True,
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/lab?reset&token={token}")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.started",
                               timeout=START_TIMEOUT_S * 1000)
        page.evaluate("() => window.jupyterapp.started")
        yield page
        browser.close()
    finally:
        playwright.stop()


OPEN_JS = """async ([path, keep]) => {
  const app = window.jupyterapp;
  const w = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  const limit = new Promise((_, no) =>
    setTimeout(() => no(new Error(`${path}: no kernel after 120 s`)), 120000));
  const ready = (async () => { await w.context.ready; await w.sessionContext.ready; })();
  await Promise.race([ready, limit]);
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  if (kernel) { await Promise.race([kernel.info, limit]); }
  await new Promise(r => setTimeout(r, 500));
  const result = {path, dirty: w.context.model.dirty, kernel: !!kernel};
  if (keep) { window.__nb = w; return result; }
  await w.context.save();
  await w.sessionContext.shutdown();
  w.close();
  return result;
}"""


def test_every_notebook_opens_clean_and_saves_unchanged(lab, app):
    _, _, root = lab
    paths = [p.relative_to(BOOK).as_posix() for p in book_notebooks()]
    before = {p: (root / "clean" / "book" / p).read_bytes() for p in paths}
    results = []
    for i in range(0, len(paths), OPEN_BATCH):
        batch = paths[i:i + OPEN_BATCH]
        results += app.evaluate(
            "async paths => Promise.all(paths.map(p => (" + OPEN_JS + ")([p, false])))",
            [f"clean/book/{p}" for p in batch])
    problems = []
    for p, result in zip(paths, results):
        after = (root / "clean" / "book" / p).read_bytes()
        if not result["kernel"]:
            problems.append(f"{p}: no kernel started")
        if result["dirty"]:
            problems.append(f"{p}: opens with unsaved changes")
        if after != before[p]:
            problems.append(f"{p}: saving without an edit changes it:\n" + _diff(before[p], after))
    assert not problems, ("run `python -m tools.lab_markup` and "
                          "`python -m tools.refresh --normalise`:\n" + "\n".join(problems))


def _diff(a: bytes, b: bytes, n: int = 12) -> str:
    import difflib

    lines = difflib.unified_diff(a.decode().splitlines(), b.decode().splitlines(), lineterm="", n=0)
    return "\n".join(f"    {line[:160]}" for line in list(lines)[2:2 + n])


STATE_JS = """async (specs) => {
  // JupyterLab renders a markdown cell when it nears the viewport (until then it shows the
  // source): scroll to each solution and wait for it, as a reader scrolling there would.
  const w = window.__nb;
  const cells = w.content.widgets;
  const norm = s => s.replace(/\\s+/g, ' ');
  const sourceShown = c => { const e = c.node.querySelector('.jp-InputArea-editor');
                             return !c.rendered || (!!e && e.checkVisibility()); };
  const problems = [];
  for (const s of specs) {
    const where = `solution from cell ${s.start}`;
    const cell = cells[s.start];
    await w.content.scrollToItem(s.start, 'center');
    for (let t = 0; t < 100 && sourceShown(cell); t++) await new Promise(r => setTimeout(r, 100));
    if (sourceShown(cell)) problems.push(`${where}: the cell shows its source, not rendered`);
    if (s.inside && norm(cell.node.innerText).includes(s.inside)) {
      problems.push(`${where}: its text is visible: "${s.inside}"`);
    }
    for (const j of s.cells) {
      const c = cells[j];
      if (!c.isHidden && c.node.checkVisibility()) {
        problems.push(`${where}: its ${c.model.type} cell ${j} is visible`);
      }
    }
  }
  return problems;
}"""

RUN_JS = """async () => {
  const w = window.__nb;
  window.jupyterapp.shell.activateById(w.id);
  const limit = new Promise((_, no) =>
    setTimeout(() => no(new Error('Run All took over 300 s')), 300000));
  await Promise.race([window.jupyterapp.commands.execute('notebook:run-all-cells'), limit]);
  const problems = [];
  w.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code' || !cell.model.sharedModel.getSource().trim()) return;
    const outputs = cell.model.outputs.toJSON();
    if (cell.model.executionCount === null) problems.push(`cell ${i} did not run`);
    for (const o of outputs) {
      if (o.output_type === 'error') problems.push(`cell ${i}: ${o.ename}: ${o.evalue}`);
    }
  });
  return problems;
}"""

CLICK_JS = """async (start) => {
  const cell = window.__nb.content.widgets[start];
  await window.__nb.content.scrollToItem(start, 'center');
  const button = cell.node.querySelector('.jp-showHiddenCellsButton');
  if (!button) return false;
  button.click();
  await new Promise(r => setTimeout(r, 300));
  return true;
}"""


def _chapters_with_solutions() -> list[str]:
    return [p.relative_to(BOOK).as_posix() for p in book_notebooks()
            if solutions(nbformat.read(p, as_version=4))]


@pytest.mark.parametrize("chapter", _chapters_with_solutions())
def test_every_chapter_opens_with_its_solutions_folded(lab, app, chapter):
    """As a student opens a chapter: no solution's text, code or output is visible."""
    _, _, root = lab
    specs = solutions(nbformat.read(root / "clean" / "book" / chapter, as_version=4))
    opened = app.evaluate("(" + OPEN_JS + ")", [f"clean/book/{chapter}", True])
    try:
        assert opened["kernel"] and not opened["dirty"], opened
        assert app.evaluate(STATE_JS, specs) == [], f"{chapter}: solutions visible on opening"
    finally:
        app.evaluate("async () => { const w = window.__nb; await w.sessionContext.shutdown();"
                     " w.context.model.dirty = false; w.close(); }")


@pytest.mark.parametrize("chapter", FOLD_CHAPTERS)
def test_solutions_stay_folded_through_run_all_and_save(lab, app, chapter):
    _, _, root = lab
    path = root / "run" / "book" / chapter
    nb = nbformat.read(path, as_version=4)
    specs = solutions(nb)
    spanning = [s for s in specs if s["spans"]]
    assert spanning, f"{chapter}: no solution spans cells; choose another chapter"
    collapsed = {c["id"] for c in nb["cells"] if c["metadata"].get(lab_markup.COLLAPSED)}
    assert collapsed, f"{chapter}: no folded solution; run `python -m tools.lab_markup`"

    opened = app.evaluate("(" + OPEN_JS + ")", [f"run/book/{chapter}", True])
    assert opened["kernel"] and not opened["dirty"], opened
    assert app.evaluate(STATE_JS, specs) == [], f"{chapter}: solutions visible on opening"

    start = time.monotonic()
    failures = app.evaluate(RUN_JS)
    seconds = time.monotonic() - start
    assert failures == [], f"{chapter}: Run All failed:\n" + "\n".join(failures)
    assert app.evaluate(STATE_JS, specs) == [], f"{chapter}: solutions visible after Run All"

    app.evaluate("async () => { await window.__nb.context.save(); }")
    saved = nbformat.read(path, as_version=4)
    still = {c["id"] for c in saved["cells"] if c["metadata"].get(lab_markup.COLLAPSED)}
    assert still == collapsed, f"{chapter}: the save unfolded {sorted(collapsed - still)}"
    assert app.evaluate(STATE_JS, specs) == [], f"{chapter}: solutions visible after the save"

    # One click shows a solution: the checks above can see a visible solution.
    first = spanning[0]
    assert app.evaluate(CLICK_JS, first["start"]), f"{chapter}: no '+ N cells hidden' button"
    shown = app.evaluate(STATE_JS, [first])
    assert shown, f"{chapter}: a click on '+ N cells hidden' showed nothing"
    app.evaluate("async () => { const w = window.__nb; await w.sessionContext.shutdown();"
                 " w.context.model.dirty = false; w.close(); }")
    print(f"{chapter}: Run All in JupyterLab took {seconds:.1f} s")
