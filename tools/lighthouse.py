"""Lighthouse over every page of the built site, as a phone on a slow network sees it.

``make lighthouse`` runs ``python -m tools.lighthouse``: it serves ``_build/html`` gzipped
(``tools.serve``), runs Lighthouse (from the npm registry, pinned in
``tools/npm/package.json`` and installed there by ``npm ci``) with its mobile defaults
(simulated slow 4G and a mid-range phone's CPU) on every page, driving Debian's chromium,
prints a table of the four category scores with the load metrics, and writes it to
``book/appendix/lighthouse.json``, which the Performance appendix shows.  It is a
benchmark, not a test: the scores depend on the machine that measures them (Lighthouse
simulates the phone's CPU from a benchmark of this one), so measure on an idle machine.

``python -m tools.lighthouse book/perceptron/convergence.html`` measures the pages named.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.serve import start

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
NPM = ROOT / "tools" / "npm"
LIGHTHOUSE = NPM / "node_modules" / ".bin" / "lighthouse"
OUT = ROOT / "book" / "appendix" / "lighthouse.json"
SKIPPED = {"genindex.html", "search.html", "index.html"}   # index.html only redirects
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"first-contentful-paint": "FCP (s)", "largest-contentful-paint": "LCP (s)",
           "total-blocking-time": "TBT (ms)", "total-byte-weight": "weight (kB)"}
GOALS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}


def pages(site: Path = SITE) -> list[str]:
    """Every HTML page of the site (relative paths), without the generated index pages."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).as_posix() not in SKIPPED
                  and not p.relative_to(site).parts[0].startswith(("_", "dist")))


def install() -> None:
    """Install the pinned Lighthouse into tools/npm/node_modules (once)."""
    if LIGHTHOUSE.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("make lighthouse needs node and npm (Debian: apt-get install nodejs npm)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--prefix", str(NPM)], check=True)


def measure(url: str, chromium: str) -> dict:
    """Lighthouse's report of one page (mobile defaults) as a row of the table."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = dict(os.environ, CHROME_PATH=chromium)
        result = subprocess.run(
            [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
             "--only-categories=" + ",".join(CATEGORIES),
             "--chrome-flags=--headless=new --no-sandbox"],
            env=env, capture_output=True, text=True, timeout=600)
        if result.returncode != 0 or not report.exists():
            raise RuntimeError(f"lighthouse failed on {url}:\n{result.stderr[-2000:]}")
        data = json.loads(report.read_text(encoding="utf-8"))
    row = {c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES}
    audits = data["audits"]
    row["FCP (s)"] = round(audits["first-contentful-paint"]["numericValue"] / 1000, 1)
    row["LCP (s)"] = round(audits["largest-contentful-paint"]["numericValue"] / 1000, 1)
    row["TBT (ms)"] = round(audits["total-blocking-time"]["numericValue"])
    row["weight (kB)"] = round(audits["total-byte-weight"]["numericValue"] / 1024)
    row["failed audits"] = sorted(
        k for k, a in audits.items()
        if a.get("scoreDisplayMode") == "binary" and a.get("score") == 0)
    return row


def table(rows: dict[str, dict]) -> str:
    """The rows as a plain-text table, one page a line."""
    columns = list(CATEGORIES) + list(METRICS.values())
    width = max(len(p) for p in rows) if rows else 4
    lines = [f"{'page':{width}s}  " + "  ".join(f"{c:>14s}" for c in columns)]
    for page, row in rows.items():
        lines.append(f"{page:{width}s}  " + "  ".join(f"{row[c]!s:>14s}" for c in columns))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.lighthouse",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages relative to _build/html (default: all)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("make lighthouse drives Debian's chromium: apt-get install chromium")
    if not (SITE / "book").is_dir():
        raise SystemExit("no built site in _build/html: run `make book` first")
    install()
    server, base = start(SITE)
    rows = {}
    try:
        for page in args.pages or pages():
            rows[page] = measure(base + page, chromium)
            row = rows[page]
            print(f"{page}: " + ", ".join(f"{c} {row[c]}" for c in CATEGORIES), flush=True)
    finally:
        server.shutdown()
    print()
    print(table(rows))
    met = {c: sum(row[c] >= goal for row in rows.values()) for c, goal in GOALS.items()}
    print("\npages meeting the goal: " + ", ".join(
        f"{c} >= {GOALS[c]}: {met[c]} of {len(rows)}" for c in CATEGORIES))
    if not args.pages:
        args.out.write_text(json.dumps({
            "measured": datetime.date.today().isoformat(),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
            "lighthouse":
                json.loads((NPM / "package.json").read_text())["dependencies"]["lighthouse"],
            "goals": GOALS, "pages": rows}, indent=1) + "\n", encoding="utf-8")
        print(f"written to {args.out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
