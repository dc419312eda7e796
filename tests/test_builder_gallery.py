"""Every gallery question rebuilt by clicking in the live checker's builder,
as a player who knows the answer would (tests/builder_driver.py): in at most
twelve clicks from the empty builder, with the verdicts fsm check gives the
gallery's file; what the builder then offers is what its Python half says."""

import json
from pathlib import Path

import pytest

from builder_driver import Player
from conftest import console_errors, live_ready
from fsm.cli import main
from fsm.io.scenario import load
from fsm.site.builder import menu

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted(p for p in (ROOT / "spec" / "scenarios").iterdir()
                 if p.suffix in (".json", ".yaml"))
MOST = 12
# Gallery questions that take more clicks than MOST, and why.
OVER: dict = {}


def _checked(path, capsys) -> list:
    assert main(["check", "--format", "json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    return [[s["verdict"], s["reason"] or "", ", ".join(s["rules"])] for s in doc["steps"]]


def _shown(browser) -> list:
    return browser.execute_script(
        "return [...document.querySelectorAll('#verdicts tr')].map(tr => "
        "[tr.dataset.verdict, tr.dataset.reason, tr.dataset.rules])")


def _offered(browser) -> list:
    return browser.execute_script(
        "return [...document.querySelectorAll('#b-choices button[data-steps]')].map(b => "
        "[b.dataset.steps, b.dataset.verdict, b.dataset.reason, b.disabled])")


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_a_gallery_question_is_rebuilt_by_clicking(served, browser, capsys, path):
    live_ready(browser, served)
    player = Player(browser, load(str(path)))
    clicks = player.play()
    assert _shown(browser) == _checked(path, capsys), player.log
    print(f"{path.stem}: {clicks} clicks", *player.log, sep="\n  ")
    if path.stem in OVER:
        assert clicks > MOST, f"{path.stem} now takes {clicks} clicks: drop it from OVER"
    else:
        assert clicks <= MOST, (clicks, player.log)
    text = browser.execute_script("return document.getElementById('source').value")
    offered = sorted(json.dumps([json.loads(steps), *rest]) for steps, *rest in _offered(browser))
    assert offered == sorted(json.dumps([c["steps"], c["verdict"], c["reason"] or "",
                                         c["verdict"] == "rejected"])
                             for g in menu(text)["groups"] for c in g["choices"])
    assert console_errors(browser) == []
