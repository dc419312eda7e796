"""Text meant for people names no internal thing: no Python ``None``, no
phase id of the machine, no guard's name. The ids stay where programs read
them (JSON, the HTML's data and tooltips); every other output of a gallery
scenario (text, --explain, Markdown, BBCode, --at, the site's page as it
reads) is held to that here."""

import html
import re
from pathlib import Path

import pytest

from conftest import wait

from fsm.cli import main
from fsm.engine.rows import STATES
from fsm.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted(p for p in (ROOT / "spec" / "scenarios").iterdir()
                 if p.suffix in (".json", ".yaml"))
# a guard named by one English word ("provoked") may be said; ids with "_" may not
GUARDS = sorted({name for rs in RULESETS.values() for name in rs.table.guards if "_" in name})
INTERNAL = re.compile(r"\b(None|" + "|".join(map(re.escape, (*STATES, *GUARDS))) + r")\b")


def _internal(text: str) -> list:
    return sorted(set(INTERNAL.findall(text)))


def test_the_names_looked_for_are_the_tables():
    assert len(GUARDS) > 30 and "own_turn" in GUARDS and "window_reaction" in STATES
    assert _internal("it is ogre's own turn; None of it") == ["None"]
    assert _internal("the window_reaction phase; own_turn saw") == ["own_turn", "window_reaction"]


def _run(capsys, *argv) -> str:
    main(list(argv))
    out, err = capsys.readouterr()
    return out + err


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_no_internal_name_in_what_fsm_check_prints(path, capsys):
    outputs = {fmt: _run(capsys, "check", "--format", fmt, "--explain", str(path))
               for fmt in ("text", "markdown", "bbcode")}
    outputs["plain"] = _run(capsys, "check", str(path))
    for at in (0, 1, 3):
        outputs[f"--at {at}"] = _run(capsys, "check", "--at", str(at), str(path))
        outputs[f"--at {at} markdown"] = _run(capsys, "check", "--format", "markdown",
                                              "--at", str(at), str(path))
    for name, text in outputs.items():
        assert _internal(text) == [], (name, _internal(text))


def _readable(page: str) -> str:
    """What a reader sees of a page: no scripts, data, tooltips or attributes."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    assert main(["site", str(out)]) == 0
    return out


def test_no_internal_name_in_the_pages_as_they_read(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    found = {}
    for page in pages:
        names = _internal(_readable(page.read_text(encoding="utf-8")))
        if names:
            found[str(page.relative_to(site))] = names
    assert found == {}


# What a player reads of a verdict may not name the machine's parts: a step's
# id (s4), a turn moment's (turn-start@2), a frame, the stack, a rule id, an
# option's id (react_before_first_turn).
MACHINE = re.compile(r"\bs\d+\b|\bturn-(?:start|end)@|\bframes?\b|\bstack\b|\b(?:"
                     + "|".join(re.escape(rs.rule_prefix) for rs in RULESETS.values())
                     + r")-[A-Z0-9]|\b(?:"
                     + "|".join(o.name for rs in RULESETS.values() for o in rs.options
                                if "_" in o.name) + r")\b")

# Every step of a scenario page shown in turn: the verdict table and the step
# panel as they show (innerText leaves out what is hidden), then with the
# details toggle on.
_SHOWN = """
const steps = document.querySelectorAll('table.verdicts tr[data-step]').length;
const seen = () => document.querySelector('table.verdicts').innerText + '\\n'
  + document.getElementById('step-panel').innerText;
let plain = seen();
for (let n = 1; n <= steps; n++) { window.fsmShow(n); plain += '\\n' + seen(); }
document.querySelector('button.details-toggle').click();
const details = seen();
document.querySelector('button.details-toggle').click();
return [plain, details];"""


def test_a_verdict_as_it_shows_names_no_part_of_the_machine(live_site, browser):
    """On every scenario page, what the verdict table and the step panel show
    of each step speaks of people and moments: no step id, turn moment id,
    frame, stack or rule id; the details toggle shows them."""
    def machine(text):
        return sorted({m.group(0) for m in MACHINE.finditer(text)})
    assert machine("s4 and turn-start@2, the frame on the stack, PF2-REACTION") == \
        ["PF2-R", "frame", "s4", "stack", "turn-start@"]
    found, toggled = {}, 0
    for path in GALLERY:
        browser.get((live_site / "scenario" / f"{path.stem}.html").as_uri())
        wait(browser, f"return location.pathname.endsWith('/{path.stem}.html')"
                      " && typeof window.fsmShow === 'function'")
        plain, details = browser.execute_script(_SHOWN)
        if machine(plain):
            found[path.stem] = [plain[max(0, m.start() - 60):m.end() + 20]
                                for m in MACHINE.finditer(plain)][:3]
        toggled += bool(machine(details))
    assert found == {}
    assert toggled == len(GALLERY)


def test_an_allowed_step_says_the_limit_it_met_and_a_stack_move_says_yes():
    """A player reads why a step was allowed: the limit nearest to refusing
    it (the movement left, a Reaction still there), not a bare "Yes."."""
    from fsm.io.scenario import load_source
    from fsm.site.trace import trace
    path = str(ROOT / "spec" / "scenarios" / "5e-dash-through-rubble.json")
    doc, lines = load_source(path)
    said = [r["say"] for r in trace(doc, path, lines, {})[1]]
    assert said[1] == "Yes: Fighter has not taken its action this turn."      # the Dash
    assert said[2] == "Yes."                                                  # a resolve
    assert said[3] == "Yes: Fighter has 60 ft of movement left, enough for 60 ft."
    assert not any(_internal(s) for s in said)
    path = str(ROOT / "spec" / "scenarios" / "5e-reaction-back-on-your-turn-not-the-round.json")
    doc, lines = load_source(path)
    said = [r["say"] for r in trace(doc, path, lines, {})[1]]
    assert "Yes: Orc's action “the orc attacks the fighter” has resolved." in said  # not "swing"
