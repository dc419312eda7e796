"""The guided builder's Python half (fsm.site.builder): what it offers is
what the machine says, and every change it makes is a scenario fsm check
reads, or one line with the text kept."""

import json
from pathlib import Path

import pytest
import yaml

from fsm.scenario import replay
from fsm.site.builder import dump, edit, menu
from fsm.site.trace import judge

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted((ROOT / "spec" / "scenarios").glob("*.json"))


def _verdicts(text):
    answer = judge(text, {})
    assert answer["ok"], answer
    return [(s["verdict"], s["reason"], s["rules"]) for s in answer["steps"]]


def _choices(m) -> list:
    """Every choice of a menu, the groups flattened."""
    return [c for g in m["groups"] for c in g["choices"]]


def _edit(text, **change):
    answer = edit(text, change)
    assert answer["ok"], answer
    return answer["text"]


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_every_gallery_scenario_rebuilt_change_by_change_gets_its_verdicts(path):
    """The builder's changes, one per click (start, options, combatants,
    initiative, steps without their expectations), give a scenario whose
    verdicts are the gallery file's."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    text = _edit("", op="new", ruleset=doc["ruleset"])
    for name, value in (doc.get("options") or {}).items():
        text = _edit(text, op="option", name=name, value=value)
    for c in doc["combatants"]:
        text = _edit(text, op="add-combatant", combatant=c)
    order = doc.get("initiative") or [c["id"] for c in doc["combatants"]]
    for i, cid in enumerate(order):        # moved up into place, as the buttons do
        now = json.loads(text).get("initiative") or [c["id"] for c in doc["combatants"]]
        for _ in range(now.index(cid) - i):
            text = _edit(text, op="earlier", id=cid)
    assert (json.loads(text).get("initiative") or order) == order
    for step in doc["steps"]:
        text = _edit(text, op="add-step", step={k: v for k, v in step.items() if k != "expect"})
    assert _verdicts(text) == _verdicts(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_the_menu_offers_what_possible_says(path):
    """After a gallery scenario's steps, each step one click adds alone has
    the verdict and reason possible() gives (the turn actions and stack
    moves), or try_step gives (answers, steps with fields); every combatant's
    turn actions and every stack move allowed are offered."""
    text = path.read_text(encoding="utf-8")
    m = menu(text)
    assert m["ok"] and m["now"] and "_" not in m["now"]
    enc = replay(json.loads(text), "x").encounter
    possible = enc.possible()
    answers = enc.ruleset.answer_kinds
    seen = set()
    for c in _choices(m):
        if len(c["steps"]) > 1 or c["edits"]:
            continue               # judged after other steps, or after an earlier step is changed
        step = c["steps"][0]
        if step["do"] == "event" and any(f.get("required") and f["name"] not in step
                                         for f in c["fields"]):
            continue               # its form asks for its squares first (forced movement)
        if step["do"] in answers or step["do"] == "end-turn" or set(step) - {"actor", "do"}:
            v = enc.try_step(step)
            seen.add((step.get("actor", "*"), step["do"]))
        elif step["do"] == "event":
            continue
        else:
            v = possible[step.get("actor", "*")][step["do"]]
            seen.add((step.get("actor", "*"), step["do"]))
        assert (c["verdict"], c["reason"]) == (v.verdict, v.reason), step
        assert c["why"], step
    offered = {(a, k) for a, kinds in possible.items() for k, v in kinds.items()
               if k not in answers and k != "end-turn" and not (a == "*" and v.verdict == "rejected")}
    assert seen >= offered


def test_a_change_the_scenario_cannot_take_is_one_line_and_keeps_the_text():
    text = _edit("", op="new", ruleset="dnd4e")
    text = _edit(text, op="add-combatant", combatant={"id": "orc", "side": "monsters"})
    for change, words in (
            ({"op": "add-combatant", "combatant": {"id": "orc", "side": "x"}}, "already"),
            ({"op": "add-combatant", "combatant": {"id": " ", "side": "x"}}, "needs a name"),
            ({"op": "add-step", "step": {"actor": "orc", "do": "dance"}}, "dance"),
            ({"op": "add-step", "step": "resolve"}, "object"),
            ({"op": "undo"}, "no step"),
            ({"op": "branch", "keep": 3}, "from 0 to 0"),
            ({"op": "option", "name": "reaction_window", "value": "never"}, "reaction_window"),
            ({"op": "ruleset", "ruleset": "chess"}, "one of"),
            ({"op": "fly"}, "unknown change")):
        answer = edit(text, change)
        assert answer["ok"] is False and words in answer["error"], (change, answer)
        assert "\n" not in answer["error"]
    text = _edit(text, op="add-step", step={"actor": "orc", "do": "standard"})
    answer = edit(text, {"op": "remove-combatant", "id": "orc"})
    assert not answer["ok"] and "undo them" in answer["error"]
    broken = menu("{oops")
    assert broken["ok"] is False and broken["rulesets"] and "\n" not in broken["error"]


def test_changes_keep_yaml_as_yaml_and_edit_the_initiative():
    text = yaml.safe_dump(json.loads(_edit("", op="new", ruleset="pf2e")), sort_keys=False)
    text = _edit(text, op="add-combatant", combatant={"id": "a", "side": "heroes"})
    text = _edit(text, op="add-combatant", combatant={"id": "b", "side": "monsters",
                                                      "reactions": 2})
    assert not text.lstrip().startswith("{")
    text = _edit(text, op="earlier", id="b")
    assert yaml.safe_load(text)["initiative"] == ["b", "a"]
    text = _edit(text, op="add-step", step={"actor": "b", "do": "action"})
    text = _edit(text, op="add-step", step={"do": "resolve"})
    text = _edit(text, op="branch", keep=1)
    assert len(yaml.safe_load(text)["steps"]) == 1
    text = _edit(text, op="undo")
    text = _edit(text, op="remove-combatant", id="a")
    assert yaml.safe_load(text)["initiative"] == ["b"]
    text = _edit(text, op="option", name="similar_triggers", value="same")
    assert yaml.safe_load(text)["options"] == {"similar_triggers": "same"}
    text = _edit(text, op="option", name="similar_triggers", default=True)
    assert "options" not in yaml.safe_load(text)
    moved = yaml.safe_load(_edit(text, op="ruleset", ruleset="dnd5e"))
    assert moved["ruleset"] == "dnd5e" and moved["combatants"] == [{"id": "b", "side": "monsters"}]


def test_the_menu_of_a_scene_offers_paths_attacks_and_targets():
    path = ROOT / "spec" / "scenarios" / "4e-shift-away-on-the-grid.json"
    m = menu(path.read_text(encoding="utf-8"))
    assert m["positions"]
    def fields(kind):
        return {f["name"]: f for c in _choices(m) for f in c["fields"]
                if c["steps"][-1]["do"] == kind}
    assert {"path", "shift"} <= set(fields("move"))
    assert not {"attack", "targets"} & set(fields("move"))     # a walk aims at nobody
    assert {"path", "attack", "targets"} <= set(fields("standard"))
    assert "squares" not in fields("move")      # on a grid the path says how far
    empty = menu("")
    assert empty["empty"] and {r["name"] for r in empty["rulesets"]} >= {"dnd4e", "pf2e", "dnd5e"}


@pytest.mark.parametrize("path", GALLERY[:4], ids=lambda p: p.stem)
def test_dump_writes_the_same_document(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(dump(doc)) == doc
    assert yaml.safe_load(dump(doc, yaml_form=True)) == doc


def test_what_the_form_offers_is_what_the_ruleset_reads():
    """A shift only where a path may be one (4e); no attack rolls on a move;
    the initiative changes only before the first step; at a turn's end the
    moment says whose turn comes next."""
    def fields(path, actor, kind):
        m = menu(path.read_text(encoding="utf-8"))
        return {f["name"] for c in _choices(m) if c["steps"][-1].get("actor") == actor
                and c["steps"][-1]["do"] == kind for f in c["fields"]}
    grid4 = ROOT / "spec" / "scenarios" / "4e-shift-away-from-a-reach-2-glaive.json"
    grid5 = ROOT / "spec" / "scenarios" / "5e-misty-step-out-of-reach.json"
    assert "shift" in fields(grid4, "hobgoblin", "move")
    doc5 = json.loads(grid5.read_text(encoding="utf-8"))
    mover = doc5["initiative"][0] if doc5.get("initiative") else doc5["combatants"][0]["id"]
    five = fields(grid5, mover, "move")
    assert five and "shift" not in five and "attacks" not in five and "path" in five
    text = _edit("", op="new", ruleset="dnd4e")
    for cid in ("a", "b"):
        text = _edit(text, op="add-combatant", combatant={"id": cid, "side": cid})
    text = _edit(text, op="add-step", step={"actor": "a", "do": "end-turn"})
    answer = edit(text, {"op": "earlier", "id": "b"})
    assert not answer["ok"] and "before the first step" in answer["error"]
    assert menu(text)["now"] == "Round 1, A's turn: it is ending; B's turn comes next"


def test_without_a_grid_an_enemy_may_be_said_to_be_provoked_by_what_provokes():
    """Without positions, an opportunity attack refused as not provoked is
    offered once the trigger is said to provoke: in 5e only for a move, and
    never for the mover's own side."""
    text = _edit("", op="new", ruleset="dnd5e")
    text = edit(text, {"op": "add-combatants", "text": "orc, goblin vs ayla"})["text"]
    attack = _edit(text, op="add-step", step={"actor": "orc", "do": "action"})
    walk = _edit(text, op="add-step", step={"actor": "orc", "do": "move"})

    def provoked(t):
        return sorted(c["steps"][-1]["actor"] for c in _choices(menu(t)) if c["edits"])
    assert provoked(attack) == []
    assert provoked(walk) == ["ayla"]


def test_the_form_offers_what_a_feature_pays_with():
    """A 5e Dash or Disengage may be taken as the Bonus Action, and an action
    as a feature's additional action; a Bonus Action is never additional."""
    text = _edit("", op="new", ruleset="dnd5e")
    for cid, side in (("rogue", "pcs"), ("orc", "monsters")):
        text = _edit(text, op="add-combatant", combatant={"id": cid, "side": side})
    offered = {}
    for c in _choices(menu(text)):
        last = c["steps"][-1]
        if last.get("actor") == "rogue":
            offered.setdefault(last["do"], set()).update(f["name"] for f in c["fields"])
    assert {"bonus", "additional"} <= offered["dash"] and "bonus" in offered["disengage"]
    assert "additional" in offered["action"] and "additional" in offered["ready"]
    assert "additional" not in offered["bonus"]
    text = _edit(text, op="add-step", step={"actor": "rogue", "do": "action",
                                            "additional": True})
    assert _verdicts(text)[-1][0] == "allowed"


def test_a_pf2_activity_past_one_action_is_offered_in_one_go_too():
    """Each cost of an activity, and past one action the same cost in one
    part (as a spell is), each named apart."""
    text = json.dumps({"format": 1, "ruleset": "pf2e", "steps": [],
                       "combatants": [{"id": "kyra", "side": "heroes"},
                                      {"id": "ogre", "side": "monsters"}]})
    mine = {c["label"]: c["steps"][0] for c in _choices(menu(text))
            if c["steps"][0].get("do") == "activity" and c["steps"][0]["actor"] == "kyra"}
    assert mine == {"Activity (1 action)": {"actor": "kyra", "do": "activity", "cost": 1},
                    "Activity (2 actions)": {"actor": "kyra", "do": "activity", "cost": 2},
                    "Activity (3 actions)": {"actor": "kyra", "do": "activity", "cost": 3},
                    "Activity (2 actions, in one go)":
                        {"actor": "kyra", "do": "activity", "cost": 2, "parts": 1},
                    "Activity (3 actions, in one go)":
                        {"actor": "kyra", "do": "activity", "cost": 3, "parts": 1}}


@pytest.mark.parametrize("ruleset", ["dnd4e", "dnd5e"])
def test_forced_movement_is_offered_for_everyone_on_a_grid_and_asks_for_its_squares(ruleset):
    """On a grid: each combatant, each forced kind of the ruleset's events, a
    choice whose form asks for the squares (a teleport's one square jumped
    to, the others walked); with them the event is allowed and left pending,
    so an answer may come. Without positions, no such group."""
    from fsm.rulesets import RULESETS
    rs = RULESETS[ruleset]
    people = [{"id": "wizard", "side": "pcs", "at": [1, 0]},
              {"id": "orc", "side": "monsters", "at": [0, 0]}]
    doc = {"format": 1, "ruleset": ruleset, "combatants": people, "steps": []}
    group = next(g for g in menu(json.dumps(doc))["groups"] if g["id"] == "forced")
    assert [(c["actor"], c["steps"][0]["forced"]) for c in group["choices"]] == \
        [(p["id"], k) for p in people for k in rs.scene.forced_kinds]
    for c in group["choices"]:
        path = next(f for f in c["fields"] if f["name"] == "path")
        assert path["required"] and bool(path["jump"]) == (c["steps"][0]["forced"] == rs.scene.jump)
        assert {f["name"] for f in c["fields"]} == {"name", "path"}
        step = dict(c["steps"][0], path=[[3, 0]] if path["jump"] else [[2, 0]]
                    if c["actor"] == "wizard" else [[-1, 0]])
        enc = replay(dict(doc, steps=[step]), "x").encounter
        assert enc.stack[-1].kind == "event" and enc.stack[-1].outcome is None
    assert (c["who"], c["label"]) == ("Orc", "Teleported")
    bare = dict(doc, combatants=[{"id": p["id"], "side": p["side"]} for p in people])
    assert "forced" not in [g["id"] for g in menu(json.dumps(bare))["groups"]]


def test_an_answer_on_a_stated_provocation_reads_as_a_supposition():
    """Off the grid, the Opportunity Attack a move would get if it left the
    orc's reach is offered as a supposition, never as a fact; its plain
    refusal is folded under "Not now", so that it does not read as the
    verdict."""
    doc = {"format": 1, "ruleset": "dnd5e",
           "combatants": [{"id": "rogue", "side": "pcs"}, {"id": "orc", "side": "monsters"}],
           "steps": [{"do": "move", "actor": "rogue", "squares": 2, "id": "walk"}]}
    groups = menu(json.dumps(doc))["groups"]

    def orc_attacks(group):
        return [c for g in groups if g["id"] == group for c in g["choices"]
                if c["actor"] == "orc" and c["kind"] == "opportunity"]
    assert [(c["label"], c["verdict"]) for c in orc_attacks("answers")] == \
        [("Opportunity Attack, if Rogue leaves Orc's reach", "allowed")]
    assert [c["verdict"] for c in orc_attacks("rest")] == ["rejected"]


def test_the_readied_circumstance_is_offered_as_the_word_the_rules_check():
    """A ready's when: the form's list gives each circumstance the rules
    check its word (5e's casting a spell among them, not 4e's), and the
    others none: they only name the readied action."""
    for ruleset, casts in (("dnd5e", "casts"), ("dnd4e", "")):
        text = _edit("", op="new", ruleset=ruleset)
        text = edit(text, {"op": "add-combatants", "text": "ayla vs orc"})["text"]
        when = [f for c in _choices(menu(text)) if c["steps"][-1]["do"] == "ready"
                for f in c["fields"] if f["type"] == "when"]
        assert when, ruleset
        codes = dict(zip(when[0]["choices"], when[0]["codes"]))
        assert codes["enters {who}'s reach"] == "enters-reach" and codes["speaks"] == ""
        assert codes["casts a spell"] == casts, ruleset
        assert not [f for c in _choices(menu(text)) for f in c["fields"]
                    if f["name"] == "when" and f["type"] == "text"]


def test_a_bonus_action_spell_is_offered_in_one_click():
    """5e: a creature with no feature that grants Bonus Actions is offered
    the Bonus Action that casts a spell (which grants itself), allowed."""
    doc = {"format": 1, "ruleset": "dnd5e",
           "combatants": [{"id": "wizard", "side": "pcs"}, {"id": "orc", "side": "monsters"}],
           "steps": []}
    bonus = {json.dumps(c["steps"][-1], sort_keys=True): c["verdict"] for c in _choices(menu(
        json.dumps(doc))) if c["kind"] == "bonus" and c["actor"] == "wizard"}
    assert bonus[json.dumps({"actor": "wizard", "do": "bonus", "slot": True},
                            sort_keys=True)] == "allowed"
