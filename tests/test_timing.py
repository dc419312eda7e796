"""The timing of spec/TIMING.md, clause by clause: how long a trigger can be
answered, what closes it, when the turn moves on, and what a step out of
order gets. Each test names the clause it checks in its docstring."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import do, party4e, party_pf2, state_of
from fsm import Encounter

rule = pytest.mark.rule


# -- T-LEAVE and T-WINDOW: finished frames leave the stack as play moves past ----

@rule("4E-STACK")
def test_an_answer_to_an_interrupting_frame_comes_before_the_interrupted_action_goes_on():
    """T-LEAVE: once Ayla's move goes on, the orc's opportunity attack has passed,
    though the orc itself has done nothing since; --explain says who closed it."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")],
                    initiative=["ayla", "orc", "bob"])
    do(enc, "move", "ayla", id="dash", squares=2, provokes=["orc"])
    do(enc, "opportunity", "orc", to="dash", id="swipe")
    do(enc, "resolve")
    assert do(enc, "free-response", "bob", to="swipe").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")                      # Ayla's first square
    v = do(enc, "reaction", "bob", to="swipe")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")
    assert "step 6" in v.says and "ayla's resolve" not in v.says


@rule("4E-STACK")
def test_a_response_naming_a_deeper_trigger_closes_the_finished_frames_above():
    """T-LEAVE: answering an older trigger moves play past the newer finished one."""
    enc = party4e()
    do(enc, "standard", "orc", id="club")
    do(enc, "free-response", "bob", to="club", id="shout")
    do(enc, "resolve")
    do(enc, "resolve")
    assert do(enc, "reaction", "ayla", to="club").verdict == "allowed"
    v = do(enc, "free-response", "bob", to="shout")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")


@rule("4E-STACK")
def test_a_trigger_beneath_an_unresolved_frame_waits():
    """T-ONE-AT-A-TIME: a second answer to a trigger waits until the first resolves."""
    enc = party4e()
    do(enc, "standard", "orc", id="club")
    do(enc, "interrupt", "ayla", to="club")
    before = state_of(enc)
    v = do(enc, "opportunity", "bob", to="club", ruling="allow")
    assert (v.verdict, v.reason) == ("rejected", "unresolved-above")
    assert "s2" in v.says
    assert state_of(enc) == before


@rule("4E-STACK")
def test_stack_moves_out_of_order_are_rejected_and_change_nothing():
    """T-STACK-MOVES: resolve, continue and lose name the top unresolved frame."""
    enc = Encounter("dnd4e", [("goblin", "monsters"), ("ayla", "heroes")])
    before = state_of(enc)
    assert do(enc, "resolve").reason == "nothing-pending"
    assert state_of(enc) == before
    do(enc, "standard", "goblin", id="twin", attacks=2)
    assert do(enc, "continue").reason == "no-part-resolved"
    do(enc, "resolve")
    before = state_of(enc)
    assert do(enc, "resolve").reason == "between-parts"
    assert do(enc, "lose").reason == "between-parts"
    assert do(enc, "continue", "ayla").reason == "not-on-top"
    assert state_of(enc) == before


# -- T-OWNER and T-CUT-IN: the triggering combatant's next step ----------------

@rule("4E-REACTION-WINDOW")
def test_the_window_closes_when_the_owners_next_step_takes_effect():
    """T-OWNER: the orc's free action, once resolved, ends the window of its attack;
    Bob's own free action in between does not."""
    enc = party4e()
    do(enc, "standard", "orc", id="club")
    do(enc, "resolve")
    do(enc, "free", "bob")
    do(enc, "resolve")
    assert do(enc, "reaction", "ayla", to="club", ruling="allow").verdict == "allowed"
    enc = party4e()
    do(enc, "standard", "orc", id="club")
    do(enc, "resolve")
    do(enc, "free", "orc", id="growl")
    do(enc, "resolve")
    v = do(enc, "reaction", "ayla", to="club")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")
    assert "growl took effect" in v.says


@rule("4E-REACTION-WINDOW")
def test_an_opportunity_attackers_own_free_action_ends_its_window():
    """T-OWNER off its turn: the orc's free action after its opportunity attack
    may be cut into, and once it resolves the attack has passed."""
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("orc", "monsters"), ("bob", "heroes")])
    do(enc, "move", "ayla", id="dash", squares=2, provokes=["orc"])
    do(enc, "opportunity", "orc", to="dash", id="swipe")
    do(enc, "resolve")
    do(enc, "free", "orc", id="growl")
    assert "swipe" in enc.kept
    assert do(enc, "free-response", "bob", to="swipe").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    v = do(enc, "reaction", "bob", to="swipe")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")


@rule("4E-REACTION-WINDOW", "4E-TURN-MOMENTS")
def test_the_window_survives_the_end_of_the_turn_until_the_next_turn_starts():
    """T-CUT-IN and T-NEXT-TURN: ending a turn keeps the last attack open; the next
    turn's start closes it."""
    enc = party4e()
    do(enc, "standard", "orc", id="axe")
    do(enc, "resolve")
    do(enc, "end-turn")
    assert enc.active == "orc"
    assert do(enc, "reaction", "ayla", to="axe").verdict == "allowed"
    assert enc.active == "orc"
    do(enc, "resolve")
    do(enc, "move", "ayla")
    assert enc.active == "ayla"
    v = do(enc, "free-response", "bob", to="axe")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")
    assert "ayla's turn started" in v.says


@rule("4E-REACTION-WINDOW")
@pytest.mark.parametrize("then", ["move", "end-turn", "continue"])
def test_the_strict_reading_closes_the_window_when_the_owner_begins_anything(then):
    """Option reaction_window: before-next: the reaction must come before the
    orc's next action, next part or end of turn is even declared."""
    enc = party4e(reaction_window="before-next")
    do(enc, "standard", "orc", id="axe", attacks=2 if then == "continue" else 1)
    do(enc, "resolve")
    do(enc, then, "orc")
    v = do(enc, "reaction", "ayla", to="axe")
    assert v.verdict == "rejected"
    assert v.reason in ("trigger-passed", "trigger-not-resolved")


@rule("4E-REACTION-WINDOW")
def test_by_default_a_reaction_cuts_into_the_next_attack_roll():
    """T-CUT-IN: after the second roll begins, the reaction to the first still
    comes, and resolves before the second."""
    enc = Encounter("dnd4e", [("goblin", "monsters"), ("ayla", "heroes")])
    do(enc, "standard", "goblin", id="twin", attacks=2)
    do(enc, "resolve")
    do(enc, "continue")
    assert do(enc, "reaction", "ayla", to="twin", id="riposte").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    assert enc.facts()["resolved"] == ["riposte", "twin"]


# -- T-ONE-AT-A-TIME: untriggered actions do not overlap ------------------------

@rule("4E-ONE-AT-A-TIME")
def test_no_free_action_of_its_own_during_a_pending_action():
    """The turn's owner waits for its own action; another combatant need not."""
    enc = party4e()
    do(enc, "standard", "orc")
    before = state_of(enc)
    v = do(enc, "free", "orc")
    assert (v.verdict, v.reason) == ("rejected", "own-action-in-progress")
    assert state_of(enc) == before
    assert do(enc, "free", "ayla").verdict == "allowed"


# -- T-TURN-START, T-NEXT-TURN ----------------------------------------------------

@rule("4E-TURN-MOMENTS")
def test_the_turn_start_moment_lasts_until_the_owner_acts():
    """Others may answer the start of the orc's turn until the orc acts."""
    enc = party4e()
    assert do(enc, "free-response", "ayla", to="turn-start").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "free-response", "bob", to="turn-start").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "minor", "orc")
    v = do(enc, "free-response", "ayla", to="turn-start")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")


@rule("4E-TURN-MOMENTS")
def test_a_refused_step_after_the_end_of_a_turn_does_not_start_the_next():
    """T-REFUSED: a rejected step leaves the turn-end moment open."""
    enc = party4e()
    do(enc, "end-turn")
    before = state_of(enc)
    v = do(enc, "standard", "bob")      # Ayla is next, not Bob
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")
    assert state_of(enc) == before and enc.active == "orc"
    assert do(enc, "free-response", "bob", to="turn-end").verdict == "allowed"
    assert enc.active == "orc"


@rule("PF2-TURN-MOMENTS")
def test_pf2_turn_moments_follow_the_same_clauses():
    """The end moment is answered before the next turn; a non-answer starts it."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "end-turn")
    assert do(enc, "free-response", "kyra", to="turn-end").verdict == "allowed"
    do(enc, "resolve")
    assert enc.active == "ogre"
    assert do(enc, "action", "kyra").verdict == "allowed"
    assert enc.active == "kyra"
    v = do(enc, "free-response", "ezren", to="turn-end@1")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")
    v = do(enc, "free-response", "ezren", to="turn-end")
    assert (v.verdict, v.reason) == ("rejected", "no-trigger")


# -- Pathfinder: occurrences and the stack ---------------------------------------

@rule("PF2-STACK", "PF2-EXTRA-REACTIONS")
def test_each_part_of_an_activity_is_its_own_trigger():
    """T-OCCURRENCE: one reaction per part, so two Strides allow two reactions."""
    enc = party_pf2(reactions=2, react_before_first_turn="allow")
    do(enc, "activity", "ogre", cost=2, id="charge")
    assert do(enc, "reaction", "kyra", to="charge").verdict == "allowed"
    do(enc, "resolve")
    v = do(enc, "reaction", "kyra", to="charge")
    assert (v.verdict, v.reason) == ("rejected", "one-reaction-per-trigger")
    do(enc, "resolve")
    do(enc, "continue")
    assert do(enc, "reaction", "kyra", to="charge").verdict == "allowed"


@rule("PF2-STACK", "PF2-DISRUPT-ACTIVITY")
def test_an_activity_can_be_disrupted_between_its_parts():
    """Disrupting between parts is allowed; the actions stay spent."""
    enc = party_pf2()
    do(enc, "activity", "ogre", cost=3, id="charge")
    do(enc, "resolve")
    v = do(enc, "disrupt")
    assert v.verdict == "allowed"
    assert enc.facts()["disrupted"] == ["charge"]
    assert enc.budgets("ogre")["actions"] == 0


@rule("PF2-STACK")
def test_pf2_answers_come_one_at_a_time():
    """T-ONE-AT-A-TIME in Pathfinder: resolve the first answer, then the next."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="grab")
    do(enc, "reaction", "kyra", to="grab")
    v = do(enc, "free-response", "ezren", to="grab")
    assert (v.verdict, v.reason) == ("rejected", "unresolved-above")
    do(enc, "resolve")
    assert do(enc, "free-response", "ezren", to="grab").verdict == "allowed"


# -- budgets shown agree with the next verdict -------------------------------------

@rule("4E-OPP-ONCE")
def test_the_opportunity_budget_shows_what_the_enemy_option_allows():
    """With opportunity_limit_turns: enemy, the budget on an ally's turn stays 1."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")],
                    options={"opportunity_limit_turns": "enemy"})
    do(enc, "end-turn")
    do(enc, "end-turn")
    do(enc, "minor", "bob")                 # Bob's turn: Ayla's ally
    do(enc, "resolve")
    assert enc.active == "bob"
    do(enc, "free", "orc", id="f1", provokes=["ayla"])
    do(enc, "opportunity", "ayla", to="f1")
    do(enc, "resolve")
    do(enc, "resolve")
    assert enc.budgets("ayla")["opportunity"] == 1
    do(enc, "free", "orc", id="f2", provokes=["ayla"])
    assert do(enc, "opportunity", "ayla", to="f2").verdict == "allowed"
    assert enc.budgets("ayla")["opportunity"] == 1
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")])
    do(enc, "end-turn")
    do(enc, "end-turn")
    do(enc, "minor", "bob")
    do(enc, "resolve")
    do(enc, "free", "orc", id="f1", provokes=["ayla"])
    do(enc, "opportunity", "ayla", to="f1")
    assert enc.budgets("ayla")["opportunity"] == 0


@rule("4E-OPP-LOST")
def test_an_opportunity_action_can_make_the_provoking_action_lost():
    """ASM-OPP-LOST: after the opportunity attack resolves, the move may be lost."""
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("orc", "monsters")])
    do(enc, "move", "ayla", id="dash", provokes=["orc"])
    assert do(enc, "lose").reason == "not-interrupted"
    do(enc, "opportunity", "orc", to="dash")
    do(enc, "resolve")
    v = do(enc, "lose")
    assert v.verdict == "allowed" and enc.facts()["lost"] == ["dash"]


# -- a property over random timelines -----------------------------------------------

KINDS = ["standard", "move", "free", "reaction", "interrupt", "free-response", "resolve",
         "resolve", "continue", "end-turn", "end-turn"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2), st.integers(0, 9),
                          st.booleans()), max_size=40))
@rule("4E-REACTION-WINDOW", "4E-STACK")
def test_a_reaction_never_answers_a_trigger_whose_owner_has_moved_on(plan):
    """Whatever the timeline, an allowed reaction answers a frame (a) whose
    owner has had no other frame resolve a part or be lost since the frame's
    latest part resolved, and (b)
    that sits on the stack with nothing unresolved above it but the reaction,
    or is kept open off it (T-OWNER, T-CUT-IN, T-ONE-AT-A-TIME)."""
    ids = ["orc", "ayla", "bob"]
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")])
    for kind, who, target, multi in plan:
        data = {"do": kind}
        if kind not in ("resolve", "continue", "end-turn"):
            data["actor"] = ids[who]
        known = [e["frame"] for e in enc.log if e["event"] == "declared"]
        if kind in ("reaction", "interrupt", "free-response") and known:
            data["to"] = known[target % len(known)]
        if kind == "standard" and multi:
            data["attacks"] = 2
        v = enc.step(data)
        if v.verdict != "allowed" or kind != "reaction":
            continue
        frame = enc.find(v.target_id) or enc.past.get(v.target_id)
        if frame.kind in ("turn-start", "turn-end"):
            continue
        effect = ("resolved", "lost")
        opened = max(e["step"] for e in enc.log if e["frame"] == frame.id and
                     (e["event"] in effect or e["event"].startswith("part")))
        took_effect = [e for e in enc.log
                       if e["actor"] == frame.owner and e["kind"] != "event"
                       and e["frame"] != frame.id and e["step"] > opened
                       and (e["event"] in effect or e["event"].startswith("part"))]
        assert not took_effect, (data, took_effect)
        if frame in enc.stack:
            above = enc.stack[enc.stack.index(frame) + 1:-1]
            assert all(f.outcome is not None for f in above), data
        else:
            assert frame.id in enc.kept, data


# -- the written timing is checked against the table ----------------------------------

def _timing_inputs():
    from pathlib import Path
    from fsm import spec as S
    root = Path(__file__).resolve().parent.parent
    spec = S.load(root, with_tests=False)
    known = set(spec.sentence_by_id) | {e["id"] for _, e in spec.entries()}
    text = (root / "spec" / "TIMING.md").read_text(encoding="utf-8")
    precedence = (root / "spec" / "PRECEDENCE.md").read_text(encoding="utf-8")
    return text, known, precedence


def test_the_timing_document_holds_against_the_table():
    """Every clause cites what exists and names what the table has; every
    timing guard and machine row is named; PRECEDENCE.md is fresh."""
    from fsm.spec import timing
    text, known, precedence = _timing_inputs()
    assert timing.check(text, known, precedence) == []
    assert {"T-LEAVE", "T-CUT-IN", "T-OWNER", "T-NEXT-TURN"} <= \
        {c["id"] for c in timing.clauses(text)}


@pytest.mark.parametrize("change,expected", [
    (("Rests on: cs-4e.033, fr-4e.058, cs-4e.034", "Rests on: cs-4e.999, fr-4e.058, cs-4e.034"),
     "rests on unknown id cs-4e.999"),
    (("Table: keep-open, window_survives, not_kept, keep_window", "Table: keep-open, not_kept"),
     "window_survives decides timing in the table but no clause names it"),
    (("Table: event\n", "Table: event, teleport\n"), "names 'teleport'"),
    (("(T-WINDOW)", "(T-NOWHERE)"), "mentions T-NOWHERE"),
])
def test_the_timing_check_fails_on_a_bad_citation(change, expected):
    """A clause citing an unknown id, a timing guard no clause names, or an
    unknown table name each make the check fail."""
    from fsm.spec import timing
    text, known, precedence = _timing_inputs()
    old, new = change
    assert old in text
    broken = text.replace(old, new, 1)
    problems = timing.check(broken, known, precedence)
    assert any(expected in p for p in problems), problems


def test_a_stale_precedence_file_fails_the_check():
    """PRECEDENCE.md must be what the table generates."""
    from fsm.spec import timing
    text, known, precedence = _timing_inputs()
    assert timing.check(text, known, precedence.replace("own_turn", "own-turn", 1))


def _precedence_citations(text):
    """PRECEDENCE.md read back: {(ruleset, kind): (allowed citations, {check: citations})}."""
    import re
    check = re.compile(r"`(\w+)`(?: → `[^`]+`)?(?: \(or `[^`]+`\))?(?: \[([^\]]*)\])?")
    out, ruleset, kind = {}, None, None
    for line in text.splitlines():
        if line.startswith("## "):
            ruleset = line[3:].strip()
        elif line.startswith("### "):
            kind = line[4:].strip()
        elif line.startswith("| `"):
            _, outcome, checks = (c.strip() for c in line.strip().strip("|").split("|"))
            allowed, cited = out.setdefault((ruleset, kind), (set(), {}))
            found = re.match(r"allowed \[([^\]]*)\]", outcome)
            if found:
                allowed.add(tuple(found.group(1).split(", ")))
            for name, rules in check.findall(checks):
                cited.setdefault(name, set()).add(tuple(rules.split(", ")) if rules else ())
    return out


# PRECEDENCE.md: of the examples a check lists, a verdict cites those the step follows
# cited only where they bear on the step: the texts' examples the step follows,
# and surprise in a surprise round
EXAMPLES_CITED_WHERE_THEY_FIT = frozenset({"5E-SHIELD", "5E-COUNTERSPELL", "4E-SURPRISE"})


def _follows(rules: tuple, listed: tuple) -> bool:
    """``rules`` are ``listed``, in order, but examples the step does not follow."""
    left_out = set(listed) - set(rules)
    return rules == tuple(r for r in listed if r in rules) and \
        left_out <= EXAMPLES_CITED_WHERE_THEY_FIT


def test_every_verdict_cites_the_rules_precedence_md_gives():
    """An engine learns from PRECEDENCE.md which rule ids a verdict cites: for
    every step of every vector and scenario, the reference cites the ids
    listed after the check that decided it, or after 'allowed'."""
    import json
    from pathlib import Path
    from fsm.scenario import build
    root = Path(__file__).resolve().parent.parent
    lines = _precedence_citations((root / "spec" / "PRECEDENCE.md").read_text(encoding="utf-8"))
    files = sorted((root / "spec" / "vectors").rglob("*.json")) + \
        sorted((root / "spec" / "scenarios").glob("*.json"))
    seen = {"allowed": 0, "rejected": 0, "gm": 0}
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        enc = build(doc, str(path))
        for data in doc["steps"]:
            if "error" in data.get("expect", {}):
                break                   # a step that cannot be read cites nothing
            verdict = enc.step({k: v for k, v in data.items() if k != "expect"})
            allowed, cited = lines[(doc["ruleset"], data["do"])]
            listed = allowed if verdict.verdict == "allowed" else cited[verdict.guard]
            assert any(_follows(tuple(verdict.rules), ids) for ids in listed), \
                (path.name, data, verdict.guard, verdict.rules)
            seen[verdict.verdict] += 1
    assert min(seen.values()) > 0, seen
