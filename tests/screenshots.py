"""The README's screenshots, taken from the real pages in headless Chromium:

    python tests/screenshots.py [--pyodide PATH]

builds the site with the live checker (npm fetches pyodide unless --pyodide
names a copy), serves it on the loopback address and writes
diagrams/screenshots/*.png, at 1280 px: the home page, a rule page, a
step-through on a grid, the trackers' mistakes, a shared link in the live
checker and its builder with a question clicked in; at 400 px (a phone): the
home page's questions and a shared link.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "diagrams" / "screenshots"


def _browser(width, height):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1,
                            "mobile": width < 600})
    return driver


def _wait(driver, condition, seconds=120):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if driver.execute_script(condition):
            return
        time.sleep(0.1)
    raise SystemExit(f"timed out waiting for {condition}")


def _shoot(driver, url, name, scroll_to=None):
    driver.get(url)
    time.sleep(0.5)
    if scroll_to:
        driver.execute_script(f"document.querySelector({scroll_to!r}).scrollIntoView()")
    driver.save_screenshot(str(OUT / name))
    print("wrote", OUT / name)


def _builder(driver, base):
    """The builder with a 5e question clicked in: the goblin's attack declared
    (the last step's verdict above the choices), the wizard's Shield offered
    before it takes effect."""
    sys.path.insert(0, str(ROOT / "tests"))
    from builder_driver import Player
    from fsm.io.scenario import load
    driver.get(base + "live/index.html")
    _wait(driver, "return document.body.dataset.ready === 'yes'")
    Player(driver, load(str(ROOT / "spec" / "scenarios" /
                            "5e-shield-before-the-hit-lands.json"))).play(upto=5)
    driver.execute_script("document.getElementById('b-last').scrollIntoView()")
    time.sleep(0.3)
    driver.save_screenshot(str(OUT / "live-builder.png"))
    print("wrote", OUT / "live-builder.png")


def _link(driver, base, name, shot):
    """A shared link to a worked example, as it opens: question and verdicts first."""
    from fsm.site.stepthrough import live_link
    text = (ROOT / "spec" / "scenarios" / name).read_text(encoding="utf-8")
    driver.get(base + live_link(text, depth=0))
    _wait(driver, "return document.body.dataset.ready === 'yes'")
    time.sleep(0.3)
    driver.save_screenshot(str(OUT / shot))
    print("wrote", OUT / shot)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyodide", help="the pyodide npm package (.tgz or folder)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from fsm.cli import main as fsm
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        if fsm(["site", str(site), "--live"] + (["--pyodide", args.pyodide] if args.pyodide
                                                 else [])) != 0:
            return 2

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *a):
                pass
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        OUT.mkdir(parents=True, exist_ok=True)
        wide = _browser(1280, 800)
        try:
            _shoot(wide, base + "index.html", "home.png")
            _shoot(wide, base + "rule/4E-REACTION.html", "rule.png")
            _shoot(wide, base + "scenario/4e-shift-away-on-the-grid.html#step-2",
                   "step-through.png")
            _shoot(wide, base + "mistakes.html", "mistakes.png")
            _link(wide, base, "4e-two-immediates-in-one-round.json", "live-checker.png")
            _builder(wide, base)
        finally:
            wide.quit()
        phone = _browser(400, 800)
        try:
            _shoot(phone, base + "index.html", "phone.png", scroll_to="h2")
            _link(phone, base, "pf2-combat-reflexes-shield-block.json", "phone-live.png")
        finally:
            phone.quit()
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
