"""The live checker: ``fsm site OUT --live`` bundles the Pyodide runtime and
the project's own code; served over HTTP, the page judges a pasted scenario,
JSON or YAML, exactly as ``fsm check`` does, and a link reproduces it.

The build fetches the ``pyodide`` npm package with npm (CI has it)."""

import base64
import contextlib
import functools
import http.server
import io
import json
import threading
import time
import zipfile
from pathlib import Path

import pytest
import yaml

from conftest import console_errors, live_ready as _ready, said_after_copy, wait as _wait
from fsm.cli import main
from fsm.rulesets import RULESETS
from fsm.site.live import PYODIDE_FILES
from fsm.site.stepthrough import edge_titles
from fsm.site.trace import judge

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "spec" / "scenarios").glob("*.json"))
VECTORS = [ROOT / "spec" / "vectors" / name for name in (
    "4e-opportunity-provoked.json", "4e-scene-move-provokes-as-it-leaves-a-square.json",
    "pf2-extra-reactions-one-per-trigger.json", "pf2-similar-triggers-gm.json")]


def _check_json(path, capsys) -> dict:
    """What ``fsm check --json`` says of a file: its steps' verdicts, or its error."""
    status = main(["check", "--json", str(path)])
    out, err = capsys.readouterr()
    if status == 2:
        return {"error": err.strip()}
    doc = json.loads(out)
    doc = doc[0] if isinstance(doc, list) else doc
    return {"steps": [(s["verdict"], s["reason"], s["rules"], s["failures"])
                      for s in doc["steps"]]}


def _judged(answer) -> dict:
    if not answer["ok"]:
        return {"error": answer["error"]}
    return {"steps": [(s["verdict"], s["reason"], s["rules"], s["failures"])
                      for s in answer["steps"]]}


@pytest.mark.parametrize("path", SCENARIOS + VECTORS, ids=lambda p: p.name)
def test_judge_gives_what_fsm_check_gives(path, capsys):
    """The function the page runs, on a file's text, gives fsm check's
    verdicts, reasons, rules and failed expectations; as YAML too."""
    assert path.exists(), path
    edges = {rs: edge_titles(rs) for rs in RULESETS}
    want = _check_json(path, capsys)
    text = path.read_text(encoding="utf-8")
    assert _judged(judge(text, edges)) == want
    as_yaml = yaml.safe_dump(json.loads(text), sort_keys=False, allow_unicode=True)
    assert _judged(judge(as_yaml, edges)) == want


def test_judge_reads_an_unreadable_step_as_fsm_check_does(tmp_path, capsys):
    """A step that cannot be read: one line, the same as fsm check's but
    for the file's name; nothing else."""
    doc = json.loads(SCENARIOS[0].read_text(encoding="utf-8"))
    doc["steps"][1] = {"actor": "c1", "do": "dance"}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    want = _check_json(path, capsys)["error"]
    got = judge(path.read_text(encoding="utf-8"), {})
    assert got["ok"] is False and "\n" not in got["error"]
    assert got["error"].replace("scenario.json", str(path), 1) in want
    assert judge("{not json", {})["ok"] is False
    assert judge("- just\n- a list\n", {})["ok"] is False


# -- the built site, in a real browser ---------------------------------------------------

def test_the_live_build_carries_the_runtime_and_the_code(live_site):
    live = live_site / "live"
    for name in PYODIDE_FILES:
        assert (live / "pyodide" / name).stat().st_size > 0, name
    with zipfile.ZipFile(live / "fsm-live.zip") as z:
        names = set(z.namelist())
    assert {"fsm/site/trace.py", "fsm/engine/encounter.py", "transitions/core.py", "six.py",
            "yaml/__init__.py", "spec/statements.json"} <= names
    assert not [n for n in names if n.endswith((".so", ".pyc"))]
    assert any(n.startswith("licences/transitions-") for n in names)
    assert 'href="live/index.html"' in (live_site / "index.html").read_text(encoding="utf-8")


def test_every_page_of_a_live_build_links_the_live_checker(live_site, tmp_path):
    """In a --live build the navigation of every page, at any depth, links the
    live page, and the link lands on it; a build without it links nothing."""
    pages = sorted(live_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        nav = page.read_text(encoding="utf-8").split("</nav>")[0].split("<nav")[-1]
        target = nav.split('">Live checker</a>')[0].rsplit('href="', 1)[-1]
        assert (page.parent / target).resolve() == live_site / "live" / "index.html", page
    assert main(["site", str(tmp_path)]) == 0
    assert "Live checker</a>" not in (tmp_path / "rule" / "4E-OPP-TRIGGER.html").read_text(
        encoding="utf-8")


def _paste_and_check(browser, text) -> dict:
    before = browser.execute_script("return Number(document.body.dataset.checked || 0)")
    browser.execute_script("document.getElementById('source').value = arguments[0];"
                           "document.getElementById('check').click();", text)
    _wait(browser, f"return Number(document.body.dataset.checked || 0) > {before}")
    return _shown(browser)


def _shown(browser) -> dict:
    error = browser.execute_script(
        "var e = document.getElementById('error'); return e.hidden ? null : e.textContent")
    if error is not None:
        return {"error": error}
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#verdicts tr')].map(tr => [tr.dataset.verdict,"
        " tr.dataset.reason, tr.dataset.rules, tr.dataset.failures])")
    return {"steps": rows}


def _as_shown(checked: dict) -> dict:
    if "error" in checked:
        return checked
    return {"steps": [[v, r or "", ", ".join(rules), "; ".join(fails)]
                      for v, r, rules, fails in checked["steps"]]}


def test_the_live_page_judges_every_example_as_fsm_check_does(served, browser, capsys):
    """Every gallery scenario pasted into the page in YAML (in JSON, the
    builder writes each one: test_builder_gallery.py) and a few vectors in
    JSON and in YAML: each step's verdict, reason, rules and failed
    expectations, as fsm check --json gives them; no console error."""
    _ready(browser, served)
    for path in SCENARIOS + VECTORS:
        want = _as_shown(_check_json(path, capsys))
        text = path.read_text(encoding="utf-8")
        if path in VECTORS:
            assert _paste_and_check(browser, text) == want, path.name
        as_yaml = yaml.safe_dump(json.loads(text), sort_keys=False, allow_unicode=True)
        assert _paste_and_check(browser, as_yaml) == want, path.name + " as YAML"
    shown = _paste_and_check(browser, '{"format": 1, "ruleset": "dnd4e"')
    assert "error" in shown and "\n" not in shown["error"].strip()
    assert console_errors(browser) == []


# Where the question and the first verdict lie once a link's verdicts show:
# [the question, the first row's top and bottom, the screen's height]
_FIRST_SCREEN = """
const q = document.querySelector('main h1').getBoundingClientRect();
const row = document.querySelector('#verdicts tr[data-step="1"]').getBoundingClientRect();
return [document.querySelector('main h1').textContent, q.top, row.top, row.bottom,
        window.innerHeight, document.documentElement.scrollWidth, window.innerWidth];"""


def test_a_shared_link_opens_on_its_question_and_verdicts(served, browser):
    """The address after a check holds the scenario. Opened afresh on a
    1280x757 screen and on a 400x800 phone, the link shows its question and
    its first verdict inside the first screen (judged when the site was
    built, before Python is up), nothing scrolling sideways; once Python is
    up, the same verdicts; &step=N brings step N on screen, lit on the
    machine, and the next step moves the address on."""
    path = ROOT / "spec" / "scenarios" / "4e-two-immediates-in-one-round.json"
    text = path.read_text(encoding="utf-8")
    _ready(browser, served)
    first = _paste_and_check(browser, text)
    link = browser.current_url
    encoded = link.split("#scenario=", 1)[1].split("&", 1)[0]
    assert base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8") == text
    try:
        for width, height in ((1280, 757), (400, 800)):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1,
                                     "mobile": width < 600})
            browser.get("about:blank")
            browser.get(link.split("&step=")[0])
            _wait(browser, "return document.body.dataset.shown")
            question, top, row_top, row_bottom, screen, scrolled, view = \
                browser.execute_script(_FIRST_SCREEN)
            assert question == json.loads(text)["question"]
            assert 0 <= top and 0 <= row_top < row_bottom <= screen, (width, row_bottom, screen)
            assert scrolled <= view, (width, scrolled)
        _wait(browser, "return document.body.dataset.ready === 'yes'")
        assert _shown(browser) == first
        browser.execute_script("location.hash = arguments[0]", f"#scenario={encoded}&step=6")
        box = browser.execute_script(
            "return document.querySelector('#verdicts tr[data-step=\"6\"]')"
            ".getBoundingClientRect().toJSON()")
        assert 0 <= box["top"] and box["bottom"] <= 800, box
        current = browser.execute_script("return document.querySelector('tr.current').dataset.step")
        assert current == "6"
        lit = browser.execute_script(
            "return [...document.querySelectorAll('#walk div:not([hidden]) svg g.node.lit title')]"
            ".map(t => t.textContent)")
        assert lit == [judge(text, {})["steps"][5]["phase"]]
        browser.find_element("id", "next").click()
        assert browser.current_url.endswith("&step=7")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@contextlib.contextmanager
def _held_runtime(site):
    """The site served with the Pyodide runtime's files held back until the
    block ends: a page stays as it is while Python starts."""
    release = threading.Event()

    class Holding(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if "/live/pyodide/" in self.path:
                release.wait(120)
            super().do_GET()

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Holding, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        release.set()
        server.shutdown()
        server.server_close()


def test_while_python_starts_the_page_says_so_and_offers_nothing_dead(live_site, browser):
    """With the runtime still on its way, a worked example's link shows its
    verdicts judged at build time and says Python is starting, at the top;
    every control that needs Python and shows, the builder and the text box
    unfolded, is disabled (the step-through, the details toggle and the copy
    buttons work without it)."""
    from fsm.site.stepthrough import live_link
    path = ROOT / "spec" / "scenarios" / "pf2-combat-reflexes-shield-block.json"
    with _held_runtime(live_site) as base:
        browser.get(base + live_link(path.read_text(encoding="utf-8"), 0))
        _wait(browser, "return document.body.dataset.shown")
        browser.find_element("css selector", "#builder-box summary").click()
        browser.execute_script("document.getElementById('source-box').open = true")
        state, first, live = browser.execute_script("""
          const status = document.getElementById('status');
          const needs = [...document.querySelectorAll(
            '#builder button, #builder input, #builder select, #check, #example, #verdicts button')];
          return [status.dataset.state, document.querySelector('main > *:not(h1)') === status,
                  needs.filter(e => !e.disabled && e.checkVisibility())
                    .map(e => e.outerHTML.slice(0, 80))];""")
        assert state == "loading" and first
        assert live == [], live
        assert len(_shown(browser)["steps"]) == 8
        browser.find_element("id", "next").click()         # no Python needed
        assert browser.execute_script("return document.querySelector('tr.current').dataset.step") == "1"
    browser.get("about:blank")


def test_a_fault_of_the_checker_itself_is_one_line_that_says_so(served, browser):
    """When the checker fails (here made to: its judge raises), the page shows
    one line naming an internal error and the exception, not a verdict table,
    and the next check after the fault is mended judges again."""
    path = ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json"
    text = path.read_text(encoding="utf-8")
    _ready(browser, served, fresh=True)     # it changes the page's Python
    browser.execute_script(
        "window.fsmPython.runPython(arguments[0]);",
        "import fsm.site.trace as t\n"
        "kept = t.judge\n"
        "def broken(*args):\n"
        "    raise RuntimeError('out of order')\n"
        "t.judge = broken\n")
    shown = _paste_and_check(browser, text)
    assert shown == {"error": "internal error of the checker (please report it): "
                              "RuntimeError: out of order"}
    browser.execute_script("window.fsmPython.runPython('t.judge = kept');")
    assert "steps" in _paste_and_check(browser, text)


def test_without_npm_or_with_a_wrong_copy_the_live_build_is_one_line_and_exit_2(
        tmp_path, monkeypatch, capsys):
    """No npm on the PATH, or --pyodide naming something else: one line,
    exit 2, and nothing written."""
    monkeypatch.setenv("PATH", str(tmp_path))
    out = tmp_path / "out"
    assert main(["site", str(out), "--live"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "npm" in err
    for wrong in (tmp_path, tmp_path / "nothing.tgz", ROOT / "README.md"):
        assert main(["site", str(out), "--live", "--pyodide", str(wrong)]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not out.exists()


def test_names_in_a_scenario_are_text_in_the_sequence_diagram():
    """A combatant or action named with markup is drawn as text: the SVG the
    page inserts holds no element of it."""
    doc = json.loads(SCENARIOS[0].read_text(encoding="utf-8"))
    doc["steps"][0]["name"] = '<img src=x onerror="alert(1)">'
    answer = judge(json.dumps(doc), {})
    assert answer["ok"], answer
    assert "<img" not in answer["sequence"] and "img src=x" in answer["sequence"]
    from fsm.site.sequence_svg import sequence_svg
    drawn = sequence_svg([(0, "participant c1 as <b>bold</b>"),
                          (1, "Note over c1: <script>alert(1)</script>"),
                          (2, "c1->>c1: a <i>b</i>")])
    assert "<b>" not in drawn and "<script>" not in drawn and "<i>" not in drawn
    assert "&lt;script&gt;" in drawn and drawn.count('data-seq-step="') == 2


def test_no_sentence_of_the_texts_is_in_the_live_checker(live_site):
    """The live page and the code it carries hold no sentence of the texts
    (the texts are needed to run this test; CI has them)."""
    import os
    seeds = Path(os.environ.get("FSM_SOURCES") or ROOT.parent / "shared")
    if not seeds.is_dir():
        pytest.skip("the rule texts are not at hand (set FSM_SOURCES); CI has them")
    from fsm import spec as S
    spec = S.load(ROOT, with_tests=False)
    texts = S.find_sources(spec, seeds)
    assert texts, "no text found under " + str(seeds)
    carried = [(live_site / "live" / "index.html").read_text(encoding="utf-8")]
    with zipfile.ZipFile(live_site / "live" / "fsm-live.zip") as z:
        carried += [z.read(n).decode("utf-8", "replace") for n in z.namelist()]
    carried = "\n".join(carried)
    for s in spec.sentences:
        text = texts.get(s["source"])
        sentence = text[s["start"]:s["end"]].strip() if text else ""
        if len(sentence.split()) >= 4:
            assert sentence not in carried, s["id"]


def test_the_live_page_fits_a_400px_screen_before_and_after_a_check(served, browser):
    """On a 400 px wide screen the live checker does not scroll sideways,
    neither empty nor with a scenario's verdicts shown."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 400, "height": 900, "deviceScaleFactor": 1,
                             "mobile": False})
    width = "return [document.documentElement.scrollWidth, window.innerWidth]"
    try:
        _ready(browser, served)
        scrolled, view = browser.execute_script(width)
        assert view == 400 and scrolled <= view, scrolled
        path = next(p for p in SCENARIOS if "reaction-between-attack-rolls" in p.name)
        _paste_and_check(browser, path.read_text(encoding="utf-8"))
        scrolled, view = browser.execute_script(width)
        assert view == 400 and scrolled <= view, scrolled
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_rule_ids_of_a_verdict_link_to_their_pages(served, browser, live_site):
    """Each rule id a verdict cites in the live checker is a link to that
    rule's page of the site, and the page exists."""
    _ready(browser, served)
    path = next(p for p in SCENARIOS if "reaction-between-attack-rolls" in p.name)
    _paste_and_check(browser, path.read_text(encoding="utf-8"))
    links = browser.execute_script(
        "return [...document.querySelectorAll('#verdicts .machine-words a')]"
        ".map(a => [a.textContent, a.getAttribute('href')])")
    assert links and all(href == f"../rule/{rid}.html" for rid, href in links)
    assert all((live_site / "rule" / f"{rid}.html").exists() for rid, _ in links)


# -- the guided builder, by clicking (every gallery question: test_builder_gallery.py) ----

def _css(browser, css):
    found = browser.find_elements("css selector", css)
    assert found, f"nothing on the page matches {css}"
    return found[0]


def _select(browser, css, value):
    from selenium.webdriver.support.ui import Select
    Select(_css(browser, css)).select_by_value(value)


def test_a_question_typed_then_start_cancelled_leaves_the_scenario_as_it_was(served, browser):
    """Typing a question for a new scenario, then declining to replace the
    one in the text box, changes nothing: not even the old one's title."""
    from selenium.webdriver.common.keys import Keys
    from builder_driver import Player
    from fsm.io.scenario import load
    _ready(browser, served)
    doc = load(str(ROOT / "spec" / "scenarios" / "5e-dash-through-rubble.json"))
    Player(browser, doc).play(upto=1)
    source = "return document.getElementById('source').value"
    before = browser.execute_script(source)
    assert json.loads(before)["question"] == doc["question"]
    box = _css(browser, "#b-question")
    box.send_keys(Keys.CONTROL, "a")                  # as a player replaces the words
    box.send_keys("Can a goblin hide twice?")
    browser.execute_script("window.confirm = () => false")
    _css(browser, "#b-rulesets button.start").click()
    assert browser.execute_script(source) == before          # its id and question, as they were


def test_the_builder_undoes_branches_and_follows_the_text(served, browser):
    """Undo drops the last step; "from here" on a row keeps the steps up to
    it; a text edited by hand and checked is what the builder then offers;
    a change the scenario cannot take is one line, the text unchanged."""
    from builder_driver import Player
    from fsm.io.scenario import load
    _ready(browser, served)
    Player(browser, load(str(ROOT / "spec" / "scenarios" /
                             "4e-reaction-between-attack-rolls.json"))).play(upto=4)
    count = "return document.querySelectorAll('#verdicts tr').length"
    assert browser.execute_script(count) == 4
    _css(browser, "#b-undo").click()
    assert browser.execute_script(count) == 3
    browser.execute_script("window.asked = []; window.confirm = (q) => { asked.push(q); return false; }")
    _css(browser, '#verdicts button[data-branch="1"]').click()       # asked first, and declined
    assert browser.execute_script(count) == 3
    assert browser.execute_script("return asked") == ["Keep steps 1 to 1 and drop the 2 after them?"]
    browser.execute_script("window.confirm = () => true")
    _css(browser, '#verdicts button[data-branch="1"]').click()
    assert browser.execute_script(count) == 1
    assert _css(browser, 'button.choice[data-actor="ayla"][data-kind="interrupt"]'
                         '[data-to="s1"]').is_enabled()
    path = ROOT / "spec" / "scenarios" / "pf2-combat-reflexes-shield-block.json"
    _paste_and_check(browser, path.read_text(encoding="utf-8"))
    _wait(browser, "return document.body.dataset.built === document.body.dataset.checked")
    actors = browser.execute_script(
        "return [...new Set([...document.querySelectorAll('#b-choices button.choice')]"
        ".map(b => b.dataset.actor).filter(Boolean))]")
    assert sorted(actors) == ["ogre", "valeros"]
    before = browser.execute_script("return document.getElementById('source').value")
    _css(browser, "#b-setup-box summary").click()
    _css(browser, "#b-who").send_keys("ogre")
    _css(browser, "#b-add-who").click()
    error = _css(browser, "#b-error")
    assert error.is_displayed() and error.text == "there is already a combatant ogre"
    assert browser.execute_script("return document.getElementById('source').value") == before


def test_every_scenario_page_of_a_live_build_opens_in_the_live_checker(live_site, served,
                                                                       browser, capsys):
    """In a --live build each scenario page links the live checker with its
    own file's text in the address; followed, the link shows fsm check's
    verdicts. A build without --live has no such link."""
    import html as H
    for path in sorted((ROOT / "spec" / "scenarios").iterdir()):
        if path.suffix not in (".json", ".yaml"):
            continue
        page = (live_site / "scenario" / f"{path.stem}.html").read_text(encoding="utf-8")
        href = H.unescape(page.split('class="open-live" href="', 1)[1].split('"', 1)[0])
        assert href.startswith("../live/index.html#scenario="), path.name
        encoded = href.split("#scenario=", 1)[1]
        text = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8")
        assert text == path.read_text(encoding="utf-8"), path.name
    page = next(p for p in SCENARIOS if "reaction-between-attack-rolls" in p.name)
    browser.get(served.replace("live/index.html", f"scenario/{page.stem}.html"))
    browser.find_element("css selector", "a.open-live").click()
    _wait(browser, "return document.body.dataset.checked")
    assert _shown(browser) == _as_shown(_check_json(page, capsys))


@pytest.mark.slow
def test_the_live_start_bench_measures_cold_and_warm(live_site):
    """bench/live.py measures the built page in a real browser: a cold and a
    warm load, each with its marks in order, ending at the first verdict."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_live", ROOT / "bench" / "live.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.available() is None
    figures = bench.measure(live_site, runs=1)
    for kind in ("cold", "warm"):
        (marks,) = figures[kind]
        values = [marks[m] for m in bench.MARKS]
        assert values == sorted(values) and values[0] > 0, (kind, marks)
    assert "| warm | " in bench.table(figures)


def test_the_live_page_as_it_reads_names_nothing_internal(served, browser):
    """What the live page shows (the builder, the verdicts, the panel) after
    a check and a click on the next step: no None, no phase or guard id, and
    no step id, frame, stack or rule id until the details toggle is on."""
    from test_plain_words import MACHINE, _internal
    _ready(browser, served)
    for name in ("pf2-combat-reflexes-shield-block", "4e-two-immediates-in-one-round"):
        _paste_and_check(browser, (ROOT / "spec" / "scenarios" / f"{name}.json").read_text(
            encoding="utf-8"))
        _wait(browser, "return document.body.dataset.built === document.body.dataset.checked")
        for _ in range(3):
            browser.find_element("id", "next").click()
            shown = browser.execute_script("return document.getElementById('result').innerText"
                                           " + document.getElementById('step-panel').innerText"
                                           " + document.getElementById('builder').innerText")
            assert _internal(shown) == []
            assert [m.group(0) for m in MACHINE.finditer(shown)] == [], name
    browser.find_element("css selector", "#result button.details-toggle").click()
    shown = browser.execute_script("return document.getElementById('result').innerText")
    browser.find_element("css selector", "#result button.details-toggle").click()
    assert MACHINE.search(shown)


def test_the_builder_places_combatants_and_paths_on_a_grid(served, browser, capsys, tmp_path):
    """Combatants placed by clicking squares, a size chosen, a move whose
    path is clicked: the scenario holds them, its verdicts are fsm check's,
    and the grid offers the opportunity attack the move provokes."""
    _ready(browser, served)
    _css(browser, '#b-rulesets button[data-ruleset="dnd5e"]').click()
    _css(browser, "#b-who").send_keys("orc vs ayla")
    _css(browser, "#b-add-who").click()
    assert "Click a square for Orc" in _css(browser, "#b-place-prompt").text   # asked at once
    for x, y in ((0, 0), (1, 0)):
        _css(browser, f'#b-place button[data-x="{x}"][data-y="{y}"]').click()
    size = _css(browser, '#b-combatants li[data-combatant="orc"] select[data-field="size"]')
    assert [o.get_attribute("value") for o in size.find_elements("css selector", "option")] \
        == ["", "tiny", "small", "medium", "large", "huge", "gargantuan"]
    browser.execute_script("arguments[0].value = 'huge'; "
                           "arguments[0].dispatchEvent(new Event('change'))", size)
    _css(browser, 'button.choice[data-kind="end-turn"]').click()
    _css(browser, 'button.choice[data-key="ayla:move:"]').click()     # it opens its form
    _css(browser, '.path-grid button[data-x="3"][data-y="0"]').click()
    _css(browser, "#b-add").click()
    doc = json.loads(browser.execute_script("return document.getElementById('source').value"))
    assert [c["at"] for c in doc["combatants"]] == [[0, 0], [1, 0]]
    assert doc["combatants"][0]["size"] == "huge"          # a choice of words
    assert doc["steps"][-1] == {"actor": "ayla", "do": "move", "path": [[2, 0], [3, 0]]}
    last = _css(browser, "#b-last")        # the last verdict, where the clicking goes on
    assert last.is_displayed() and last.text.startswith("Step 2, ") and ": Yes" in last.text
    assert "s2" not in last.text.split()
    path = tmp_path / "built.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert _shown(browser) == _as_shown(_check_json(path, capsys))
    attack = _css(browser, 'button.choice[data-actor="orc"][data-kind="opportunity"]')
    assert attack.is_enabled() and attack.get_attribute("data-to") == "s2"
    # the move is declared, not resolved: the grid still has ayla where she stood
    assert _css(browser, '#b-scene [data-x="1"][data-y="0"]').get_attribute("title") == \
        "(1,0) Ayla"


def test_the_live_page_gives_the_verdicts_as_markdown_and_bbcode(served, browser, capsys):
    """After a check the page holds the verdicts as fsm check --format
    markdown and bbcode write them (options and rule statements included),
    each with a button that copies it."""
    _ready(browser, served)
    path = next(p for p in SCENARIOS if "combat-reflexes" in p.name)
    _paste_and_check(browser, path.read_text(encoding="utf-8"))
    for name in ("markdown", "bbcode"):
        main(["check", "--format", name, str(path)])
        want = capsys.readouterr().out
        box = browser.find_element("id", f"{name}-text")
        assert box.get_attribute("value") == want
        box.find_element("xpath", "..").find_element("tag name", "summary").click()
        browser.find_element("id", f"copy-{name}").click()
        assert said_after_copy(browser, f"{name}-text") in ("copied", "selected: press Ctrl+C to copy")


def test_a_worked_example_a_pasted_link_and_a_ruleset_switch(served, browser):
    """Choosing a worked example judges it at once; a link pasted into the
    open page loads its scenario; switching the ruleset of a scenario with
    steps asks first, and declining keeps them."""
    from selenium.webdriver.support.ui import Select
    _ready(browser, served)
    name = "pf2-combat-reflexes-shield-block.json"
    before = browser.execute_script("return Number(document.body.dataset.checked || 0)")
    browser.execute_script("document.getElementById('source-box').open = true")
    chooser = Select(_css(browser, "#example"))
    question = json.loads((ROOT / "spec" / "scenarios" / name).read_text(encoding="utf-8"))[
        "question"]
    assert [o.get_attribute("textContent") for o in chooser.options
            if o.get_attribute("value") == name] == [question]
    chooser.select_by_value(name)
    _wait(browser, f"return Number(document.body.dataset.checked || 0) > {before}")
    assert len(_shown(browser)["steps"]) == 8
    text = (ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json").read_text(
        encoding="utf-8")
    link = base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    before = browser.execute_script("return Number(document.body.dataset.checked)")
    browser.execute_script("location.hash = '#scenario=' + arguments[0]", link)
    _wait(browser, f"return Number(document.body.dataset.checked) > {before}")
    assert browser.execute_script("return document.getElementById('source').value") == text
    _wait(browser, "return document.body.dataset.built === document.body.dataset.checked")
    browser.execute_script("window.confirm = () => false;"
                           "document.getElementById('b-setup-box').open = true")
    _select(browser, "#b-ruleset", "dnd5e")
    assert browser.execute_script("return document.getElementById('source').value") == text
    assert _css(browser, "#b-ruleset").get_attribute("value") == "dnd4e"
    pf2 = (ROOT / "spec" / "scenarios" / name).read_text(encoding="utf-8")
    _paste_and_check(browser, pf2)
    _wait(browser, "return document.body.dataset.built === document.body.dataset.checked")
    _paste_and_check(browser, pf2[:-20])          # unreadable: the picker keeps pf2e
    _wait(browser, "return document.body.dataset.built === document.body.dataset.checked")
    assert _css(browser, "#b-ruleset").get_attribute("value") == "pf2e"
