"""fsm site: the pages are built from the spec and the engine, hold no
sentence of the texts unless asked, and work in a real browser (headless
Chromium through Selenium): every page loads with no console error and no
broken link, and the step-through follows the machine."""

import html
import json
import os
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from fsm.cli import main
from fsm.rulesets import RULESETS
from fsm.scenario import build, load, replay

from conftest import console_errors, said_after_copy as _said

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("FSM_SOURCES") or ROOT.parent / "shared")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    assert main(["site", str(out)]) == 0
    return out


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if key in attrs and attrs[key]:
                self.links.append(attrs[key])


REPORT = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/issues/\d+")


def test_every_page_is_built_and_every_local_link_resolves(site):
    """A page per rule, per text and per scenario; every link and anchor
    between them lands on a file and, where it names one, an element; no
    link leaves the site but the trackers' mistakes' public reports."""
    pages = sorted(site.rglob("*.html"))
    rules = {p.stem for p in (site / "rule").glob("*.html")}
    assert {"4E-OPP-TRIGGER", "PF2-DISRUPT"} <= rules
    assert {p.stem for p in (site / "scenario").glob("*.html")} == \
        {p.stem for p in (ROOT / "spec" / "scenarios").iterdir()
         if p.suffix in (".json", ".yaml", ".yml")}
    parsed = {}
    for page in pages:
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        parsed[page] = parser
    for page, parser in parsed.items():
        for link in parser.links:
            if page.name == "mistakes.html" and REPORT.fullmatch(link):
                continue                  # the public reports of a tracker's mistake
            if link.startswith(("http:", "https:", "mailto:")):
                pytest.fail(f"{page.name} links outside the site: {link}")
            if link == "data:,":            # the empty icon: no request for /favicon.ico
                continue
            target, anchor = urldefrag(link)
            path = (page.parent / target).resolve() if target else page
            assert path.exists(), f"{page.relative_to(site)}: broken link {link}"
            if anchor and path.suffix == ".html" and not anchor.startswith("step-"):
                assert anchor in parsed[path].ids, f"{page.name}: no #{anchor} in {target}"


def test_no_sentence_of_the_texts_is_in_a_site_built_without_them(site):
    """Every sentence of the three texts, looked for in every page: none is
    there (the texts are needed to run this test; CI has them)."""
    if not SEEDS.is_dir():
        pytest.skip("the rule texts are not at hand (set FSM_SOURCES); CI has them")
    from fsm import spec as S
    spec = S.load(ROOT, with_tests=False)
    texts = S.find_sources(spec, SEEDS)
    assert texts, "no text found under " + str(SEEDS)
    pages = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    for s in spec.sentences:
        text = texts.get(s["source"])
        sentence = text[s["start"]:s["end"]].strip() if text else ""
        if len(sentence.split()) >= 4:
            assert sentence not in pages, s["id"]


def test_a_build_with_the_texts_shows_them_and_says_so(tmp_path):
    if not SEEDS.is_dir():
        pytest.skip("the rule texts are not at hand (set FSM_SOURCES); CI has them")
    assert main(["site", str(tmp_path), "--sources", str(SEEDS)]) == 0
    page = (tmp_path / "source" / "cs-4e.html").read_text(encoding="utf-8")
    assert "Keep it private" in page and "<th scope=\"col\">original</th>" in page


def test_the_step_data_is_what_fsm_check_gives(site):
    """Each scenario page carries, for every step, the verdict and reason the
    engine gives when the scenario is replayed."""
    for path in sorted((ROOT / "spec" / "scenarios").glob("*.json")):
        doc = load(path)
        rep = replay(doc, str(path), build(doc, str(path)))
        page = (site / "scenario" / f"{path.stem}.html").read_text(encoding="utf-8")
        data = json.loads(re.search(r'id="steps-data">(.*?)</script>', page, re.S)
                          .group(1).replace("<\\/", "</"))
        assert [(s["verdict"], s["reason"]) for s in data["steps"]] == \
            [(r.verdict.verdict, r.verdict.reason) for r in rep.results], path.name


def test_a_bad_sources_folder_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["site", str(tmp_path / "out"), "--sources", str(tmp_path / "nope")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


# -- in a real browser -----------------------------------------------------------------

def test_every_page_loads_in_chromium_with_no_console_error_and_no_label_cut(
        site, browser, tmp_path):
    """Each page opens, has its title, and logs no error; in every picture of
    every page (the machine, the sequence with all its rows shown), each text
    lies inside the picture's view box: none is cut. On a 400 px wide screen
    no page scrolls sideways: wide tables scroll inside themselves, long ids
    wrap, pictures shrink or scroll in their box. Screenshots of the home
    page, a rule page and a step-through are written for a look."""
    clipped, wide = [], []
    for page in sorted(site.rglob("*.html")):
        browser.get(page.as_uri())
        assert browser.title.endswith("· fsm"), page.name
        assert console_errors(browser) == [], page.name
        clipped += [(page.name, *c) for c in browser.execute_script(_CLIPPED)]
        width = _width_at_400(browser)
        if width is not None:
            wide.append((str(page.relative_to(site)), width))
    assert clipped == []
    assert wide == []
    shots = tmp_path / "screenshots"
    shots.mkdir()
    for name in ("index.html", "rule/4E-OPP-TRIGGER.html",
                 "scenario/4e-reaction-between-attack-rolls.html"):
        browser.get((site / name).as_uri())
        browser.save_screenshot(str(shots / (name.replace("/", "-") + ".png")))
    assert len(list(shots.glob("*.png"))) == 3


def _width_at_400(browser):
    """The page's width when the screen is 400 px wide, if it is wider (the
    page is laid out again at that width, then at its own)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 400, "height": 900, "deviceScaleFactor": 1,
                             "mobile": False})
    try:
        for _ in range(20):     # a page's script may still be laying it out
            width, view = browser.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth]")
            if width <= view:
                break
            time.sleep(0.1)
        assert view == 400
        return width if width > view else None
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


HEADS = {"allowed": "Yes", "rejected": "No", "gm": "The GM decides"}


def test_the_step_through_follows_the_machine(site, browser):
    """Stepping lights the phase each step leads to and shows its verdict;
    #step-N lands on step N; the arrow keys step too."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    name = "4e-reaction-between-attack-rolls"
    doc = load(ROOT / "spec" / "scenarios" / f"{name}.json")
    page = (site / "scenario" / f"{name}.html")
    data = json.loads(re.search(r'id="steps-data">(.*?)</script>',
                                page.read_text(encoding="utf-8"), re.S).group(1))
    browser.get(page.as_uri())

    def shown():
        lit = [g.find_element(By.TAG_NAME, "title").get_attribute("textContent")
               for g in browser.find_elements(By.CSS_SELECTOR, "svg.machine g.node.lit")]
        verdict = browser.find_element(By.CSS_SELECTOR, "[data-field=verdict]")
        said = browser.find_element(By.CSS_SELECTOR, "[data-field=say]").text
        return lit, verdict.get_attribute("textContent"), said

    assert shown()[0] == [data["start"]["phase"]]
    next_button = browser.find_element(By.ID, "next")
    assert not browser.find_element(By.ID, "prev").is_enabled()     # nothing before the start
    for n, step in enumerate(data["steps"], 1):
        assert next_button.is_enabled(), n
        next_button.click()
        lit, verdict, said = shown()
        assert lit == [step["phase"]], n
        assert verdict.startswith(step["verdict"]), n
        assert said.startswith(HEADS[step["verdict"]]), n     # in words, not behind the toggle
    assert not next_button.is_enabled()                # nor after the last step
    browser.get(page.as_uri() + "#step-2")
    browser.refresh()
    assert shown()[1].startswith(data["steps"][1]["verdict"])
    assert browser.find_element(By.CSS_SELECTOR, "tr.current").get_attribute("data-step") == "2"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.find_element(By.CSS_SELECTOR, "tr.current").get_attribute("data-step") == "3"
    assert len(doc["steps"]) == len(data["steps"])


def test_the_sequence_diagram_shows_the_steps_up_to_the_one_shown(site, browser):
    """The scenario page's sequence diagram has the rows of the committed
    Mermaid diagram, each marked with its step; stepping shows those up to
    the current step and hides the later ones."""
    from fsm.diagrams.model import trace_scenario
    from fsm.diagrams.sequence import sequence_rows

    name = "4e-reaction-between-attack-rolls"
    rows = sequence_rows(*trace_scenario(ROOT / "spec" / "scenarios" / f"{name}.json"))
    drawn = [step for step, line in rows
             if not line.strip().startswith(("participant", "activate", "deactivate",
                                             "rect", "end"))]
    page = site / "scenario" / f"{name}.html"
    marks = re.findall(r'data-seq-step="(\d+)"', page.read_text(encoding="utf-8"))
    assert [int(m) for m in marks] == drawn
    browser.get(page.as_uri())
    shown = ("return Array.from(document.querySelectorAll('g[data-seq-step]'))"
             ".filter(function (g) { return getComputedStyle(g).display !== 'none'; })"
             ".map(function (g) { return Number(g.dataset.seqStep); })")
    assert browser.execute_script(shown) == [s for s in drawn if s == 0]
    for n in range(1, max(drawn) + 1):
        browser.find_element("id", "next").click()
        assert browser.execute_script(shown) == [s for s in drawn if s <= n], n


def test_verdicts_differ_by_more_than_colour(site, browser):
    """Allowed, rejected and GM verdicts read apart without colour (print,
    colour blindness): each has its own weight, style or underline."""
    browser.get((site / "scenario" / "pf2-disrupted-spell.html").as_uri())
    looks = browser.execute_script(
        "return ['allowed', 'rejected', 'gm'].map(function (v) {"
        "  var e = document.createElement('span'); e.className = 'verdict-' + v;"
        "  e.textContent = v; document.body.appendChild(e); var s = getComputedStyle(e);"
        "  return [s.fontWeight, s.fontStyle, s.textDecorationLine]; })")
    assert len({tuple(look) for look in looks}) == 3, looks


def test_every_allowed_step_of_a_scenario_page_says_why():
    """The step-through and the table of a scenario page give each allowed
    step its reason, as fsm check does, and budgets in words (no None)."""
    from fsm.site.trace import trace
    for path in sorted((ROOT / "spec" / "scenarios").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        _, records, *_ = trace(doc, str(path), None, {})
        for n, r in enumerate(records, 1):
            if r["verdict"] == "allowed":
                assert r["explain"].startswith("because ") and len(r["explain"]) > 10, \
                    (path.name, n)
            assert "None" not in r["budgets"], (path.name, n)


def test_a_scenario_page_shows_the_options_its_verdicts_rest_on():
    """The premise is on the page: the options set (with what they mean) and
    the defaults, above the step-through, and in the panel before step 1."""
    from fsm.report import Citations
    from fsm.site.stepthrough import replay_steps, scenario_page
    path = ROOT / "spec" / "scenarios" / "pf2-combat-reflexes-shield-block.json"
    html = scenario_page(path, Citations(ROOT))
    assert "<strong>Options.</strong> react_before_first_turn allow" in html
    _, start, *_ = replay_steps(path)
    assert "react_before_first_turn allow" in start["explain"]


def test_a_note_over_one_lane_grows_to_hold_its_words():
    """A long note over one combatant's lane covers its neighbours' lanes
    rather than cut its words; one longer than every lane widens the picture."""
    from fsm.site.sequence_svg import sequence_svg
    lanes = [(0, "participant c1 as orc"), (0, "participant c2 as ayla"),
             (0, "participant c3 as bob")]
    words = "6 · retreat part 1/3 resolved, the orc one square away"
    drawn = sequence_svg(lanes + [(6, f"Note over c1: {words}")])
    assert words in drawn and "…" not in drawn
    drawn = sequence_svg(lanes + [(6, "Note over c1: " + "x" * 200)])
    assert "x" * 200 in drawn and "…" not in drawn
    width = int(re.search(r'<svg[^>]* width="(\d+)"', drawn).group(1))
    assert width >= 200 * 7 > 3 * 210 + 20


def test_a_scenario_page_is_titled_by_its_question(site):
    """A question's page is titled by the question (the tab and a shared
    link say it), not by its file's name."""
    for path in sorted((ROOT / "spec" / "scenarios").glob("*.json")):
        question = load(path).get("question")
        text = (site / "scenario" / f"{path.stem}.html").read_text(encoding="utf-8")
        if question:
            assert f"<title>{html.escape(question)} · fsm</title>" in text, path.stem
            assert f'<h1 class="question">{html.escape(question)}</h1>' in text, path.stem
        else:
            assert f"<title>Scenario {path.stem}" in text, path.stem


def test_the_home_page_gives_each_games_questions_under_its_name(site):
    """The classic questions come game by game, each under its name and
    count, every question of the gallery once."""
    text = (site / "index.html").read_text(encoding="utf-8")
    asked = {}
    for path in (ROOT / "spec" / "scenarios").iterdir():
        doc = load(path) if path.suffix in (".json", ".yaml") else {}
        if doc.get("question"):
            asked.setdefault(doc["ruleset"], []).append(path.stem)
    parts = re.findall(r"<h3>(.*?) \((\d+)\)</h3>(.*?)</table>",
                       text.split("<h2>Classic questions</h2>", 1)[1], re.S)
    games = [name for name in RULESETS if name in asked]
    assert [(title, int(n)) for title, n, _ in parts] == \
        [(html.escape(RULESETS[name].long_title), len(asked[name])) for name in games]
    for (_, _, table), name in zip(parts, games):
        assert sorted(re.findall(r'href="scenario/([^"]+)\.html"', table)) == sorted(asked[name])


def test_the_home_page_names_every_ruleset(site):
    """The home page's first sentence names every ruleset the machine serves."""
    text = (site / "index.html").read_text(encoding="utf-8")
    first = re.search(r"<p>The reference machine[^<]*</p>", text).group(0)
    for rs in RULESETS.values():
        assert html.escape(rs.title) in first, rs.name


def _visible(page: str) -> str:
    """A page's text as it is shown (no script, no style, no copy boxes)."""
    page = re.sub(r"<(script|style|textarea)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_pages_show_no_message_slots_or_backticks_as_typed(site):
    """What a limit says shows its slots in words ('{trigger_owner}' as an
    italic 'trigger owner'), and our words in backticks show as code, on the
    reference page, the rules and every rule and scenario page."""
    pages = [site / "reference.html", site / "rules.html", *sorted((site / "rule").glob("*.html")),
             *sorted((site / "scenario").glob("*.html"))]
    for path in pages:
        shown = _visible(path.read_text(encoding="utf-8"))
        assert "`" not in shown, (path.name, shown[shown.index("`") - 60:][:120])
        assert not re.search(r"\{[a-z_]+\}", shown), path.name
    reference = (site / "reference.html").read_text(encoding="utf-8")
    assert '<var class="slot">trigger owner</var>' in reference


def test_scenario_pages_name_phases_in_words_not_ids(site, browser):
    """A scenario page's table and its step panel say where the machine is in
    words; the phase ids stay in tooltips and in the page's data."""
    from fsm.engine.rows import STATES
    from selenium.webdriver.common.by import By

    page = site / "scenario" / "4e-reaction-between-attack-rolls.html"
    browser.get(page.as_uri())
    for _ in range(3):
        browser.find_element(By.ID, "next").click()
        shown = browser.find_element(By.ID, "step-panel").text
        table = browser.find_element(By.CSS_SELECTOR, "table").text
        for phase in STATES:
            assert phase not in shown and phase not in table, phase
    assert "Now: Round 1, Goblin's turn: " in shown


# Every text of every SVG of a page whose box, in the picture's own units,
# runs past its view box: [picture, the text's start, its right edge, the edge]
_CLIPPED = """
const out = [];
for (const svg of document.querySelectorAll('svg')) {
  const vb = svg.viewBox.baseVal;
  if (!vb || (!vb.width && !vb.height)) continue;
  for (const g of svg.querySelectorAll('g.later')) g.classList.remove('later');
  for (const t of svg.querySelectorAll('text')) {
    let b; try { b = t.getBBox(); } catch (e) { continue; }
    if (!b.width) continue;
    // the text's box in the svg's user space (through its transforms)
    const m = t.getCTM(), r = svg.getCTM().inverse().multiply(m);
    const pts = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => {
      const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(r); });
    const [a, z] = pts;
    if (a.x < vb.x - 1 || a.y < vb.y - 1 || z.x > vb.x + vb.width + 1 || z.y > vb.y + vb.height + 1)
      out.push([svg.getAttribute('class'), t.textContent.slice(0, 40), Math.round(z.x), Math.round(vb.x + vb.width)]);
  }
}
return out;"""


def test_a_link_to_a_step_shows_its_panel_and_the_picture(site, browser):
    """Opening #step-4 of a scenario page scrolls to the step panel, with the
    machine's picture after it, instead of to the table's row."""
    page = site / "scenario" / "4e-reaction-between-attack-rolls.html"
    browser.get(page.as_uri() + "#step-4")
    top, picture, height = browser.execute_script(
        "return [document.getElementById('step-panel').getBoundingClientRect().top,"
        " document.querySelector('svg.machine').getBoundingClientRect().top,"
        " window.innerHeight]")
    assert -2 <= top < 50 and picture < height, (top, picture, height)
    assert "Step 4 of" in browser.find_element("id", "step-panel").text


def test_a_step_number_in_the_table_shows_that_step(site, browser):
    """Clicking a step's number in the table shows that step in the panel."""
    from selenium.webdriver.common.by import By
    page = site / "scenario" / "4e-reaction-between-attack-rolls.html"
    browser.get(page.as_uri())
    browser.find_element(By.CSS_SELECTOR, 'tr[data-step="3"] a').click()
    assert "Step 3 of" in browser.find_element(By.ID, "step-panel").text


def test_a_scenario_page_gives_its_verdicts_as_markdown_and_bbcode_to_copy(
        site, browser, capsys):
    """Each scenario page holds its verdict table as `fsm check --format
    markdown` writes it (the committed .md) and as `--format bbcode` does,
    each with a button that copies it."""
    import html as H
    from selenium.webdriver.common.by import By
    for md in sorted((ROOT / "spec" / "scenarios").glob("*.md")):
        page = (site / "scenario" / f"{md.stem}.html").read_text(encoding="utf-8")
        held = re.search(r'<textarea id="markdown-text"[^>]*>(.*?)</textarea>', page, re.S)
        assert held and H.unescape(held.group(1)) == md.read_text(encoding="utf-8"), md.name
        source = next(p for p in md.parent.glob(md.stem + ".*") if p.suffix != ".md")
        main(["check", "--format", "bbcode", str(source)])
        bb = re.search(r'<textarea id="bbcode-text"[^>]*>(.*?)</textarea>', page, re.S)
        assert bb and H.unescape(bb.group(1)) == capsys.readouterr().out, md.name
    browser.get((site / "scenario" / "pf2-combat-reflexes-shield-block.html").as_uri())
    for name in ("markdown", "bbcode"):
        box = browser.find_element(By.ID, f"{name}-text").find_element(By.XPATH, "..")
        box.find_element(By.TAG_NAME, "summary").click()
        browser.find_element(By.ID, f"copy-{name}").click()
        said = _said(browser, f"{name}-text")      # the clipboard answers in its own time
        assert said in ("copied", "selected: press Ctrl+C to copy")
        assert "react_before_first_turn allow" in \
            browser.find_element(By.ID, f"{name}-text").get_attribute("value")


def test_a_site_without_the_live_checker_links_none(site):
    """A build without --live has no link to a live checker it lacks."""
    pages = list((site / "scenario").glob("*.html"))
    assert pages and not [p for p in pages if "open-live" in p.read_text(encoding="utf-8")]
    assert not (site / "live").exists()


def test_a_scene_is_drawn_as_a_grid_after_every_step():
    """On a grid, each step's record draws where every combatant stands
    after it (the positions fsm check reports) and the squares its path
    entered, in order; without a scene nothing is drawn."""
    from fsm.site.trace import judge
    path = ROOT / "spec" / "scenarios" / "4e-shift-away-on-the-grid.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    answer = judge(path.read_text(encoding="utf-8"), {})
    from fsm.scenario import build, play_step
    enc = build(doc, "x")
    for n, (step, record) in enumerate(zip(doc["steps"], answer["steps"]), 1):
        play_step(enc, step, "x", n)
        drawn = dict(re.findall(r"<title>([^<]+) at \((-?\d+,-?\d+)\)</title>", record["scene"]))
        assert drawn == {cid: f"{x},{y}" for cid, (x, y) in enc.facts()["positions"].items()}
        marked = re.findall(r'font-size="9" fill="#c0392b">(\d+)</text>', record["scene"])
        assert marked == [str(i) for i in range(1, len(step.get("path") or ()) + 1)], n
    plain = ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json"
    assert all(r["scene"] == "" for r in judge(plain.read_text(encoding="utf-8"), {})["steps"])


def test_the_step_through_shows_the_scene_of_the_step(site, browser):
    page = site / "scenario" / "4e-shift-away-on-the-grid.html"
    browser.get(page.as_uri() + "#step-2")
    box = browser.find_element("css selector", "#step-panel [data-field=scene]")
    assert box.is_displayed() and "ayla at (1,0)" in box.get_attribute("innerHTML")
    browser.get((site / "scenario" / "4e-reaction-between-attack-rolls.html").as_uri())
    assert not browser.find_element("css selector", "#step-panel [data-field=scene]").is_displayed()


def test_the_trackers_mistakes_page_names_rules_reports_and_catching_vectors(site):
    """For tracker authors: every mistake of the zoo, its public reports as
    GitHub links, and for each ruleset that builds it the rules it breaks
    there and at least one vector, an existing file, that catches it."""
    import html
    from fsm.conformance.mistakes import ZOO
    from fsm.rulesets import RULESETS
    text = (site / "mistakes.html").read_text(encoding="utf-8")
    sections = {m.group(1): m.group(2) for m in re.finditer(
        r'<h2 id="([a-z0-9-]+)">(.*?)(?=<h2 id=|</main>)', text, re.S)}
    assert set(sections) == {k.id for k in ZOO}
    for known in ZOO:
        part = sections[known.id]
        for report in known.reports:
            project, number = report.split("#")
            assert f'href="https://github.com/{project}/issues/{number}"' in part, report
        games = 0
        for rs in RULESETS.values():
            if known.id not in rs.zoo_rules:
                continue
            games += 1
            row = part.split(f'<td data-label="game">{html.escape(rs.title)}</td>', 1)[1]
            row = row.split("</tr>")[0]
            for rid in rs.zoo_rules[known.id]:
                assert f"rule/{rid}.html" in row, (known.id, rs.name, rid)
            paths = re.findall(r"<code>(spec/(?:vectors|scenarios)/[^<]+)</code>", row)
            assert paths and all((ROOT / p).is_file() for p in paths), (known.id, rs.name)
        assert games, known.id


def test_a_row_says_what_its_step_made_lost_or_disrupted():
    """A resolve that makes another action lost (4e, on the grid) or
    disrupted (a critical Reactive Strike) says so in its own row."""
    from fsm.site.trace import judge
    for name, said in (("pf2-critical-reactive-strike-on-a-spell", "is disrupted"),
                       ("4e-shift-away-on-the-grid", "is lost")):
        text = (ROOT / "spec" / "scenarios" / f"{name}.json").read_text(encoding="utf-8")
        rows = judge(text, {})["steps"]
        assert [r["say"].endswith(f"{said}.") for r in rows] == [False, False, True, False]
