"""How long the live checker takes to give its first verdict, in a real
browser (Debian's chromium and chromedriver, through Selenium).

Each run opens a gallery scenario's link (``#scenario=``) in a browser with
a fresh profile, so nothing is cached (cold), then opens it again in the
same browser (warm: the runtime and the bundle come from the browser's
cache). The page marks, in milliseconds since it began to load, when the
first verdicts showed (a worked example's, judged when the site was built),
when the Pyodide runtime was up, the bundle unpacked, the checker imported,
the page ready and the verdicts judged live shown (``window.fsmTimes``).

    python bench/live.py                   # builds the live site (npm fetches pyodide)
    python bench/live.py --pyodide PATH    # with a copy of the pyodide npm package
    python bench/live.py --site DIR        # a live site already built
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json"
MARKS = ("shown", "runtime", "unpacked", "imported", "ready", "live_verdict")


def available() -> str | None:
    """Why the live start cannot be measured here, or None."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return "no chromium and chromedriver"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "no selenium (pip install -e '.[test]')"
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(site: Path):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _first_verdict(driver, url, seconds=180) -> dict:
    driver.get("about:blank")
    driver.get(url)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        marks = driver.execute_script(
            "return window.fsmTimes && window.fsmTimes.live_verdict ? window.fsmTimes : null")
        if marks:
            return {k: marks[k] for k in MARKS}
        time.sleep(0.05)
    raise RuntimeError(f"no verdict within {seconds} s at {url}")


def measure(site: Path, runs: int = 5) -> dict:
    """{"cold": [marks per run], "warm": [...]} for the live site under ``site``."""
    server = _serve(Path(site))
    sys.path.insert(0, str(ROOT))
    from fsm.site.stepthrough import live_link
    url = f"http://127.0.0.1:{server.server_port}/" + live_link(
        SCENARIO.read_text(encoding="utf-8"), depth=0)
    out: dict = {"cold": [], "warm": []}
    try:
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as profile:
                driver = _browser(profile)
                try:
                    out["cold"].append(_first_verdict(driver, url))
                    out["warm"].append(_first_verdict(driver, url))
                finally:
                    driver.quit()
    finally:
        server.shutdown()
        server.server_close()
    return out


def summary(figures: dict) -> dict:
    """Median and best of each mark, cold and warm, in seconds."""
    return {kind: {mark: {"median": statistics.median(r[mark] for r in rows) / 1000,
                          "best": min(r[mark] for r in rows) / 1000} for mark in MARKS}
            for kind, rows in figures.items() if rows}


def table(figures: dict) -> str:
    s = summary(figures)
    runs = len(figures["cold"])
    lines = [f"| live checker, {runs} runs (median, best) | first verdicts shown | runtime up | "
             "bundle unpacked | checker imported | ready | verdicts judged live |",
             "|---|---|---|---|---|---|---|"]
    for kind in ("cold", "warm"):
        lines.append(f"| {kind} | " + " | ".join(
            f"{s[kind][m]['median']:.2f} s ({s[kind][m]['best']:.2f})" for m in MARKS) + " |")
    return "\n".join(lines)


def build_site(out: Path, pyodide: str | None) -> None:
    sys.path.insert(0, str(ROOT))
    from fsm.cli import main
    argv = ["site", str(out), "--live"] + (["--pyodide", pyodide] if pyodide else [])
    if main(argv) != 0:
        raise SystemExit(2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="a site built with fsm site --live")
    parser.add_argument("--pyodide", help="the pyodide npm package (.tgz or folder)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    why = available()
    if why:
        print(f"live start not measured: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            build_site(site, args.pyodide)
        print(table(measure(site, args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
