"""Shared helpers: small encounters and a one-call step; a headless
Chromium for the site's pages."""

import ast
import contextlib
import functools
import http.server
import io
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from fsm import Encounter
from fsm.cli import main


# Tests marked slow (whole walks, regenerations, a long log) run when FSM_SLOW=1,
# as .ci/run sets it; the quick default leaves them to CI.
SLOW = "FSM_SLOW"


def pytest_collection_modifyitems(config, items):
    if os.environ.get(SLOW) == "1":
        # the longest first: the workers share out the rest while they run,
        # and no long test is left alone at the end of the run
        items.sort(key=lambda item: "slow" not in item.keywords)
        return
    later = pytest.mark.skip(reason=f"slow: {SLOW}=1 runs it (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(later)


def readme_library_script() -> tuple:
    """The README's library examples as one script that checks them: each
    line whose comment gives a Python value asserts that the line gives it.
    (the script, how many lines it checks)"""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The library", 1)[1].split("\n## ", 1)[0]
    out, checked = [], 0
    for block in (b.split("```", 1)[0] for b in section.split("```python\n")[1:]):
        lines = block.splitlines()
        for node in ast.parse(block).body:
            code = ast.get_source_segment(block, node)
            comment = lines[node.end_lineno - 1].partition("  # ")[2].strip()
            try:
                expected = ast.literal_eval(comment)
            except (ValueError, SyntaxError):
                expected = None
            if isinstance(node, ast.Expr) and expected is not None:
                out.append(f"assert ({code}) == {expected!r}, {code!r}")
                checked += 1
            else:
                out.append(code)
    return "\n".join(out) + "\n", checked


def party4e(**options):
    """Orc (monsters) against Ayla and Bob (heroes), orc first."""
    return Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")],
                     options=options)


def party_pf2(reactions=None, **options):
    """Ogre (monsters) against Kyra and Ezren (heroes), ogre first."""
    kyra = {"id": "kyra", "side": "heroes"}
    if reactions is not None:
        kyra["reactions"] = reactions
    return Encounter("pf2e", [{"id": "ogre", "side": "monsters"}, kyra,
                              {"id": "ezren", "side": "heroes"}], options=options)


def do(enc, do, actor=None, **fields):
    step = {"do": do, **fields}
    if actor is not None:
        step["actor"] = actor
    return enc.step(step)


def state_of(enc):
    """Everything observable, plus the raw snapshot, for no-change assertions."""
    return enc.facts(), enc.fingerprint()


@pytest.fixture
def e4():
    return party4e()


@pytest.fixture
def p2():
    return party_pf2()


# -- a real browser (the site's tests) -------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium through Selenium, shared by the site's tests."""
    if not (CHROMIUM and DRIVER):
        pytest.skip("Chromium and chromedriver are not installed (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1600"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def console_errors(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def said_after_copy(browser, box, seconds=10):
    """What the Copy button of ``box`` says once it has said something."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        said = browser.execute_script(
            f"return document.querySelector('[data-said=\"{box}\"]').textContent")
        if said:
            return said
        time.sleep(0.05)
    return ""


# -- the live checker, built once per session and served on the loopback address ------

@pytest.fixture(scope="session")
def live_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("live-site")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert main(["site", str(out), "--live"]) == 0
    # the live checker needs the site served: the last words say how
    assert said.getvalue().rstrip().endswith(
        f"python -m http.server -d {out}, then open http://127.0.0.1:8000/live/index.html")
    return out


@pytest.fixture(scope="session")
def served(live_site):
    """The built site over HTTP on the loopback address (WebAssembly needs it)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(live_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/live/index.html"
    server.shutdown()
    server.server_close()


def wait(browser, condition, seconds=120):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = browser.execute_script(condition)
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for: {condition}")


def live_ready(browser, url, fresh=False):
    """The live page at ``url``, ready to check. Python takes seconds to start
    in a page, so the page a test left is reused, emptied (its text, its
    verdicts, the builder and its fields, the address, dialogs answered yes), unless the
    address holds a scenario or ``fresh`` asks for a new load."""
    reuse = "#" not in url and not fresh and browser.current_url.split("#")[0] == url and \
        browser.execute_script("return document.body.dataset.ready") == "yes"
    if reuse:
        browser.get_log("browser")          # what the test before logged is its own
        browser.execute_script(
            "history.replaceState(null, '', location.pathname);"
            "document.getElementById('source').value = '';"
            "document.getElementById('result').hidden = true;"
            "document.getElementById('walk').hidden = true;"
            "document.getElementById('error').hidden = true;"
            "document.getElementById('b-error').hidden = true;"
            "document.querySelectorAll('#builder input').forEach(i => { i.value = ''; });"
            "window.confirm = () => true;"
            "window.fsmBuilderOpen(true);"
            "window.fsmRefreshBuilder();")
        return
    browser.get(url)
    state = wait(browser, "return document.body.dataset.ready")
    assert state == "yes", browser.find_element("id", "status").text


