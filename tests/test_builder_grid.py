"""The builder's grids in a browser, as a player uses them: a click on an
enemy on the grid of where everyone stands is the attack of the one whose
turn it is (in melee within reach, else at range), and the form of a move
offers a square straight away from each enemy next to the mover."""

import json

from conftest import console_errors, live_ready


def _click(browser, css) -> None:
    found = browser.find_elements("css selector", css)
    assert found, f"nothing on the page matches {css}"
    found[0].click()


def _steps(browser) -> list:
    return json.loads(browser.execute_script(
        "return document.getElementById('source').value"))["steps"]


def test_a_click_on_an_enemy_attacks_it_and_a_shift_steps_away_from_one(served, browser):
    live_ready(browser, served)
    _click(browser, '#b-rulesets button[data-ruleset="dnd4e"]')
    browser.find_element("css selector", "#b-who").send_keys("orc vs ayla, bob")
    _click(browser, "#b-add-who")
    for x, y in ((0, 0), (1, 0), (5, 0)):             # ayla next to the orc, bob afar
        _click(browser, f'#b-place button[data-x="{x}"][data-y="{y}"]')
    grid = browser.find_element("css selector", "#b-scene-grid")
    assert json.loads(grid.get_attribute("data-strikes")) == {
        "ayla": {"actor": "orc", "do": "standard", "attack": "melee", "targets": ["ayla"]},
        "bob": {"actor": "orc", "do": "standard", "attack": "ranged", "targets": ["bob"]}}
    assert "click an enemy for Orc to attack them" in \
        browser.find_element("css selector", "#b-scene-hint").text
    _click(browser, '#b-scene-grid button[data-x="5"][data-y="0"]')     # bob, at range
    assert _steps(browser) == [{"actor": "orc", "do": "standard", "attack": "ranged",
                                "targets": ["bob"]}]
    _click(browser, "#b-undo")
    _click(browser, '#b-scene-grid button[data-x="1"][data-y="0"]')     # ayla, in melee
    assert _steps(browser)[-1]["attack"] == "melee"
    browser.execute_script("document.querySelector("
                           "'button.choice[data-key=\"ayla:interrupt:s1\"]').nextElementSibling.click()")
    quick = {b.text: json.loads(b.get_attribute("data-quick"))
             for b in browser.find_elements("css selector", "#b-form [data-quick]")}
    assert quick["shift 1 square away from Orc"] == {"path": [[2, 0]], "shift": True}
    _click(browser, "#b-form [data-quick='{\"path\":[[2,0]],\"shift\":true}']")
    assert _steps(browser)[-1] == {"actor": "ayla", "do": "interrupt", "to": "s1",
                                   "path": [[2, 0]], "shift": True}
    assert console_errors(browser) == []


def test_a_teleport_of_ones_own_is_drawn_as_the_square_it_arrives_at(served, browser):
    """Once its teleport is ticked, a step's path is the one square clicked
    last, in the form as in the scenario: no walk is drawn to it."""
    live_ready(browser, served)
    _click(browser, '#b-rulesets button[data-ruleset="dnd4e"]')
    browser.find_element("css selector", "#b-who").send_keys("orc vs ayla")
    _click(browser, "#b-add-who")
    for x, y in ((0, 0), (1, 0)):
        _click(browser, f'#b-place button[data-x="{x}"][data-y="{y}"]')
    browser.execute_script("document.querySelector("
                           "'button.choice[data-key=\"orc:move:\"]').click()")  # opens its form
    _click(browser, "#b-field-teleport")
    for x, y in ((3, 0), (4, 2)):
        _click(browser, f'#b-form .path-grid button[data-x="{x}"][data-y="{y}"]')
    assert browser.find_element("css selector", "#b-form .path-now").text == "(4,2)"
    _click(browser, "#b-add")
    assert _steps(browser) == [{"actor": "orc", "do": "move", "teleport": True,
                                "path": [[4, 2]]}]
    assert console_errors(browser) == []


def test_the_squares_stay_put_while_the_combatants_are_placed(served, browser):
    """A square clicked at the grid's edge places a combatant there without
    moving the other squares under the pointer: the next click lands where
    it was aimed (the grid grows only right and down while clicks go on)."""
    live_ready(browser, served)
    _click(browser, '#b-rulesets button[data-ruleset="dnd5e"]')
    browser.find_element("css selector", "#b-who").send_keys("orc vs ayla")
    _click(browser, "#b-add-who")
    where = "return document.querySelector('#b-place button[data-x=\"0\"][data-y=\"0\"]')" \
            ".getBoundingClientRect().toJSON()"
    before = browser.execute_script(where)
    first = browser.find_elements("css selector", "#b-place button.square")[0]
    corner = [int(first.get_attribute("data-x")), int(first.get_attribute("data-y"))]
    first.click()                                            # the top left square
    assert browser.execute_script(where) == before
    _click(browser, '#b-place button[data-x="0"][data-y="0"]')
    combatants = json.loads(browser.execute_script(
        "return document.getElementById('source').value"))["combatants"]
    assert [c["at"] for c in combatants] == [corner, [0, 0]]


def test_a_new_scenario_shows_nothing_of_the_last_ones_steps(served, browser):
    """Starting a new question clears the line on the last step's verdict:
    nothing of the question before is left on the screen."""
    live_ready(browser, served)
    _click(browser, '#b-rulesets button[data-ruleset="dnd5e"]')
    browser.find_element("css selector", "#b-who").send_keys("orc vs ayla")
    _click(browser, "#b-add-who")
    _click(browser, 'button.choice[data-kind="end-turn"]')
    last = browser.find_element("css selector", "#b-last")
    assert last.is_displayed() and last.text.startswith("Step 1, ")
    browser.execute_script("window.confirm = () => true;")
    _click(browser, '#b-rulesets button[data-ruleset="dnd4e"]')
    assert not last.is_displayed()
    assert console_errors(browser) == []


def test_a_ready_says_what_it_fires_on_in_the_word_the_rules_check(served, browser):
    """5e: the readied circumstance and whose it is, chosen in the Ready's
    form, are written as its when and by (and in its name)."""
    live_ready(browser, served)
    _click(browser, '#b-rulesets button[data-ruleset="dnd5e"]')
    browser.find_element("css selector", "#b-who").send_keys("ayla vs goblin")
    _click(browser, "#b-add-who")
    browser.execute_script("document.querySelector("
                           "'button.choice[data-key^=\"ayla:ready\"]').nextElementSibling.click()")
    what = browser.find_element("css selector", "#b-form [data-when-what]")
    whom = browser.find_element("css selector", "#b-form [data-when-who]")
    for select, value in ((what, "attacks"), (whom, "Goblin")):
        browser.execute_script("arguments[0].value = arguments[1]; "
                               "arguments[0].dispatchEvent(new Event('change'))",
                               select, value)
    _click(browser, "#b-add")
    step = _steps(browser)[-1]
    assert step["when"] == "attacks" and "attacks" in step["name"], step
    assert step["by"] == "goblin", step
    assert console_errors(browser) == []
