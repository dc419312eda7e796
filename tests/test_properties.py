"""Random timelines: every ruleset's limits hold after every step.

A Hypothesis state machine feeds an encounter steps drawn from its table's
own step kinds (most of them forbidden at the moment they come) and checks,
after each one, the limits the rules set, from the test's own record of
the steps that were allowed: nothing here reads a budget the engine keeps.

Each run says what it exercised (``hypothesis.event``) and fails when it
exercised too little: every turn action and every answer of the ruleset
must have been allowed at least once. The laws (``laws.py``) are held to the
mutants of ``fsm mutate``: a table with one of the limits they state
switched off must make them fail, on timelines that seek the steps its
rows govern (or, for the few a run's budget reaches too rarely, on a
witness timeline). Every rule-limit guard of every table is held by a law
or listed in ``NOT_STATED`` with the reason.
"""

from __future__ import annotations

import os
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, Phase, event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, rule,
                                 run_state_machine_as_test)
from hypothesis.statistics import collector, describe_statistics

from fsm import Encounter, StepError
from fsm.conformance.mutation import with_guard_forced
from fsm.engine.frames import field_kind
from fsm.engine.steps import ANY_COMBATANT, makes_frame
from fsm.rulesets import RULESETS

from laws import LAWS, STOPS_A_MOVE, Allowed, Record, critical_disruption, paused_own_move
from test_toy_ruleset import TOY

# Every registered ruleset, and the toy defined in test_toy_ruleset.py
RULESET_VALUES = {**RULESETS, TOY.name: TOY}
SIDES = ["monsters", "heroes", "heroes", "monsters"]
MOMENTS = ["turn-start", "turn-end"]


# -- the machine ----------------------------------------------------------------------

EXERCISED: dict = defaultdict(Counter)   # ruleset -> allowed kinds, over one run
CHANGED = "(a condition changed)"          # counted beside the kinds: 5e events


def _options(rs, pick):
    out = {}
    for opt in rs.options:
        if pick.random() < 0.5:
            out[opt.name] = pick.choice(opt.choices if opt.choices is not None
                                        else (None, 0, 1, 2))
    return out


def _inside(report, text):
    report(text)


def _nowhere(report, text):
    """A witness timeline is played outside Hypothesis: nothing to report to."""


def _class(rs, kind) -> str:
    if kind in rs.answer_kinds:
        return "answer"
    if kind in rs.turn_actions:
        return "turn"
    return "stack" if kind in rs.stack_moves else kind


def timeline(rs, name=None, focus=None):
    """A Hypothesis state machine playing ``rs`` (a Ruleset value), checking
    the laws of ``name`` (its own name by default); each timeline seeks one
    kind of step, from ``focus`` (every turn action and answer by default)."""
    laws = LAWS[name or rs.name] + LAWS["*"]
    kinds = tuple(rs.player_steps)                   # kind names, from the table
    progress = ("resolve",) * 4 + ("end-turn",) * 3 + ("continue",)
    answers, turn = rs.answer_kinds, rs.turn_actions
    fighter_fields = rs.fighter.FIELDS
    two_way = set(rs.words.unflags)

    class Timeline(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.enc = self.rec = None
            self.ids = []

        @initialize(data=st.data())
        def setup(self, data):
            # Every choice of a timeline comes from one generator, seeded by
            # true/false draws: Hypothesis then shrinks a timeline to a prefix
            # of itself, a draw per choice would cost more than the steps, and
            # an integer draw may take a constant from the code loaded, which
            # would make a run depend on what else was imported.
            self.random = pick = random.Random(sum(data.draw(st.booleans()) << i
                                                   for i in range(48)))
            combatants = []
            for i in range(pick.randint(2, 4)):
                c = {"id": f"c{i}", "side": SIDES[i]}
                for field, bounds in fighter_fields.items():
                    if bounds is bool:
                        if pick.random() < 1 / 3:
                            c[field] = True
                    elif field_kind(bounds) == "choice":
                        if pick.random() < 0.5:
                            c[field] = pick.choice(bounds)
                    elif pick.random() < 0.5:
                        low, high = bounds
                        c[field] = pick.choice(sorted({min(max(v, low), high)
                                                       for v in (1, 2, 3, 30)}))
                combatants.append(c)
            # swarm testing: each timeline's guided steps keep to some answers, so
            # that one the common ones crowd out (a readied action) gets its turn
            # (the turn's actions stay: most answers need one first)
            self.enabled = {k for k in kinds if _class(rs, k) != "answer"
                            or pick.random() < 0.5}
            self.classes = defaultdict(list)
            for k in kinds:
                if k in self.enabled:
                    self.classes[_class(rs, k)].append(k)
            # and each seeks a kind, played whenever it would be allowed (seeking a
            # limit's own steps, also a turn's action, which often leads there)
            self.focus = [pick.choice(sorted(focus or (turn | answers)))]
            if focus:
                self.focus.append(pick.choice(sorted(turn)))
            self.enc = Encounter(rs, combatants, options=_options(rs, pick))
            self.rec = Record(self.enc)

        @rule(data=st.data())
        def step(self, data):
            enc, pick = self.enc, self.random
            if pick.random() < 2 / 3 and len(enc.stack) <= 6 and self._guided(data):
                return
            kind = pick.choice(kinds + progress)
            step = {"do": kind}
            others = [c for c in enc.fighters if c != enc.active]
            if kind in turn:
                step["actor"] = enc.active if pick.random() < 0.8 else \
                    pick.choice(sorted(enc.fighters))
            elif kind in answers:
                step["actor"] = pick.choice(others) if pick.random() < 0.8 else enc.active
                if self.ids and pick.random() < 0.5:
                    step["to"] = pick.choice(self.ids + MOMENTS)
            elif pick.random() < 0.25:
                step["actor"] = pick.choice(sorted(enc.fighters))
            if kind not in rs.stack_moves and kind != "end-turn":
                self._dress(kind, step)
            self._play(step, data)

        def _guided(self, data) -> bool:
            """Play a step the encounter would allow now, dressed as a random
            one is, so that timelines reach deep (readied actions after their
            ready, answers to answers): the timeline's focus kind first, then
            a class of step at a time (a turn's action, an answer, a move of
            the stack, an event, the end of the turn), a few tries each."""
            enc, pick = self.enc, self.random
            people = sorted(enc.fighters)
            tries = [(kind, None if kind in rs.stack_moves else who)
                     for kind in self.focus for who in people]

            def who_for(kind):
                if kind in rs.stack_moves or kind == "end-turn":
                    return None
                if kind in turn and pick.random() < 0.8:
                    return enc.active            # mostly on one's own turn
                return pick.choice(people)
            order = pick.sample(sorted(self.classes), len(self.classes))
            if "event" in order and pick.random() < 2 / 3:
                order.remove("event")          # always allowed: tried now and then
            if len(enc.stack) >= 3 and "stack" in order:      # deep stacks come down first
                order.remove("stack")
                order.insert(0, "stack")
            elif "end-turn" in order and pick.random() < 0.3 and \
                    not any(self.rec.is_open(f) for f in self.rec.frames):
                order.remove("end-turn")                      # and turns go by
                order.insert(0, "end-turn")
            for cls in order:
                for _ in range(3):
                    kind = pick.choice(self.classes[cls])
                    tries.append((kind, who_for(kind)))
            for kind, who in tries:
                step = {"do": kind} if who is None else {"do": kind, "actor": who}
                spec = rs.spec_of.get(kind)
                if spec is not None and spec.cost_field:
                    step["cost"] = pick.randint(1, 3)
                if kind in answers and self.ids and pick.random() < 0.3:
                    step["to"] = pick.choice(self.ids[-4:])   # a trigger beneath the top
                try:
                    if enc.try_step(step).verdict == "rejected":
                        continue
                except StepError:
                    continue
                if _class(rs, kind) in ("turn", "answer", "event") and pick.random() < 0.75:
                    self._dress(kind, step)
                event("guided")
                self._play(step, data)
                return True
            return False

        def _dress(self, kind, step):
            """Fields a step of ``kind`` may take, some of them."""
            pick, fighters = self.random, sorted(self.enc.fighters)
            spec = rs.spec_of.get(kind)
            if spec is not None and spec.cost_field:
                step["cost"] = pick.randint(1, 3)
            if pick.random() < 0.25:
                step[pick.choice(["squares", "attacks", "parts"])] = pick.randint(1, 3)
            provokes = pick.randint(0, 3)
            if provokes == 1:
                step["provokes"] = pick.sample(fighters, pick.randint(0, 2))
            elif provokes >= 2:
                step["provokes"] = [c for c in fighters if c != step.get("actor")]
            if rs.explore is not None and rs.explore.labelled and pick.random() < 0.5:
                if kind in answers:
                    step["on"] = pick.choice(["", "begin", "manipulate"])
                else:
                    step["triggers"] = ["", "begin", "manipulate"]
            for field, words in (spec.choices if spec is not None else ()):
                if pick.random() < 0.5:          # a text field with a closed list of words
                    step[field] = pick.choice(fighters if words == ANY_COMBATANT else words)
            for flag in (spec.flags if spec is not None else ()):
                if pick.random() < 0.5:
                    # a field whose false says something too (a condition that
                    # ends) is given either way
                    step[flag] = flag not in two_way or pick.random() < 0.5

        def _play(self, step, data):
            enc, rec = self.enc, self.rec
            say = _inside if data is not None else _nowhere
            top = enc.stack[-1].id if enc.stack else None
            before, facts_before = enc.fingerprint(), enc.facts()
            try:
                verdict = enc.step(step)
            except StepError as exc:
                say(event, f"unreadable step ({exc.code})")
                assert enc.fingerprint() == before, step
                return
            kind = step["do"]
            say(note, f"{step} -> {verdict.verdict} {verdict.reason or ''}")
            if verdict.verdict == "rejected":
                say(event, f"{kind}: rejected ({verdict.reason})")
                assert enc.fingerprint() == before, (step, verdict)
                assert enc.facts() == facts_before
                return
            say(event, f"{kind}: {verdict.verdict}")
            rec.saw_turn(kind, step.get("actor"))
            EXERCISED[rs.name][kind] += 1
            for flag in sorted(f for f in rs.flag_fields if step.get(f) is True):
                say(event, f"{kind} with {flag}: {verdict.verdict}")
                EXERCISED[rs.name][f"{kind} with {flag}"] += 1
            changed = sorted(f for f in two_way if isinstance(step.get(f), bool))
            if kind == "event" and changed and step.get("actor"):
                say(event, "a condition changed")
                EXERCISED[rs.name][CHANGED] += 1
            target = verdict.target_id
            seen = rec.seen(target, target in facts_before["stack"])
            made = Allowed(rs, len(rec.allowed), kind, step.get("actor") or enc.active,
                           step.get("actor"), enc.active, enc.turn_serial, step, target,
                           rec.occurrence(target), seen)
            rec.allowed.append(made)
            new = enc.stack[-1].id if enc.stack else None
            if rs.name == "dnd5e" and kind in STOPS_A_MOVE:
                for opened in seen["open"]:     # T-5E-TURN: the step stops the move
                    if paused_own_move(made, opened):
                        rec.outcome[opened[0]] = "stop"
            if kind == "end-turn":
                rec.ends[enc.active].append(enc.turn_serial)
            elif kind == "resolve":
                rec.done[target] += 1
                rec.pending.discard(target)
                disrupted = critical_disruption(rec, target)
                if disrupted is not None:
                    say(event, "a critical Reactive Strike disrupted its trigger")
                    rec.begun[disrupted] = rec.done[disrupted] + (disrupted in rec.pending)
                    rec.pending.discard(disrupted)
                    rec.outcome[disrupted] = "disrupt"
            elif kind == "continue":
                rec.pending.add(target)
            elif kind in rs.stack_moves:
                rec.begun[target] = rec.done[target] + (target in rec.pending)
                rec.pending.discard(target)
                rec.outcome[target] = kind
            elif new is not None and new != top and new not in rec.frames \
                    and makes_frame(rs, kind):
                rec.frames[new] = made
                rec.owner[new] = enc.stack[-1].owner
                rec.pending.add(new)
                self.ids.append(new)

        @invariant()
        def laws_hold(self):
            if self.rec is None:
                return
            for _, _, check in laws:
                check(self.rec)

        @invariant()
        def budgets_never_below_zero(self):
            if self.enc is None:
                return
            for who, budget in self.enc.budgets().items():
                for key, value in budget.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        assert value >= 0, (who, key, value)

        @invariant()
        def nothing_lost_or_disrupted_resolves(self):
            if self.enc is None:
                return
            facts = self.enc.facts()
            assert not (set(facts["lost"]) | set(facts["disrupted"])) & set(facts["resolved"])

    Timeline.__name__ = f"Timeline_{(name or rs.name).replace('-', '_')}"
    return Timeline


SETTINGS = settings(max_examples=150, stateful_step_count=60, deadline=None,
                    derandomize=True, suppress_health_check=list(HealthCheck))


@pytest.mark.rule("4E-IMM-ONCE", "4E-IMM-OWN-TURN", "4E-OPP-ONCE", "4E-OPP-OWN-TURN",
                  "4E-STANDARD", "PF2-REACTION-ONE", "PF2-EXTRA-REACTIONS",
                  "PF2-FREE-ONE-PER-TRIGGER", "PF2-THREE-ACTIONS", "PF2-DISRUPT",
                  "5E-REACTION-ONE", "5E-ACTION", "5E-BONUS-ONE", "5E-SLOT-ONE", "5E-MOVE-SPEED")
@pytest.mark.parametrize("name", sorted(RULESET_VALUES))
def test_random_timelines_keep_every_limit(name, request):
    """Random timelines of each ruleset keep every law stated for it, and
    every turn action and answer of its table was allowed at least once
    (``--hypothesis-show-statistics`` shows what each run exercised)."""
    assert LAWS[name], f"no laws are stated for ruleset {name}: add them above"
    rs = RULESET_VALUES[name]
    EXERCISED[name].clear()

    def shown(stats):
        stats["nodeid"] = request.node.nodeid
        request.node.hypothesis_statistics = describe_statistics(stats)
    with collector.with_value(shown):
        run_state_machine_as_test(timeline(rs), settings=SETTINGS)
    exercised = EXERCISED[name]
    # a kind the run missed (one that needs a long way to it) is sought once more,
    # on timelines that seek it and the turn's actions that lead there
    for kind in sorted((rs.turn_actions | rs.answer_kinds) - set(exercised)):
        run_state_machine_as_test(timeline(rs, focus={kind}),
                                  settings=settings(SETTINGS, max_examples=60))
    missing = sorted((rs.turn_actions | rs.answer_kinds) - set(exercised))
    assert not missing, f"{name}: never allowed in the run: {missing} (allowed: " \
                        f"{dict(exercised)})"
    if rs.words.unflags:            # conditions that events change: often enough
        assert exercised[CHANGED] >= 50, (name, exercised[CHANGED])
    flagged = {f"{s.kind} with {f}": s.kind for s in rs.step_specs for f in s.flags}
    for kind in sorted({flagged[k] for k in flagged if k not in exercised}):
        run_state_machine_as_test(timeline(rs, focus={kind}),     # sought once more
                                  settings=settings(SETTINGS, max_examples=60))
    assert not set(flagged) - set(exercised), \
        f"{name}: never allowed with its true/false field: " \
        f"{sorted(set(flagged) - set(exercised))}"
    print(f"{name}: allowed in the run: {dict(sorted(exercised.items()))}")


# -- the laws fail when a limit they state is switched off -----------------------------

def _held(name) -> set:
    """The guards the laws of ``name`` state (the laws of every ruleset name
    only the guards its table has)."""
    rs = RULESET_VALUES[name]
    own = {g for _, guards, _ in LAWS[name] for g in guards}
    unknown = own - set(rs.table.guards)
    assert not unknown, f"{name}: a law names guards its table lacks: {sorted(unknown)}"
    return own | {g for _, guards, _ in LAWS["*"] for g in guards if g in rs.table.guards}


def _mutants(name):
    """(guard name, the ruleset value with that guard switched off) for each
    guard a law of ``name`` states."""
    rs = RULESET_VALUES[name]
    out = []
    for guard in sorted(_held(name)):
        out.append((guard, rs.with_table(with_guard_forced(rs.rows, guard),
                                          with_guard_forced(rs.refusals, guard))))
    return out


MUTANT_SETTINGS = settings(SETTINGS, phases=[Phase.generate], max_examples=300)
ALL_MUTANTS = [(name, guard) for name in sorted(RULESET_VALUES)
               for guard, _ in _mutants(name)]
# every run tries the first limit each ruleset's laws state; FSM_SLOW=1 tries them all
SAMPLE = [next(p for p in ALL_MUTANTS if p[0] == name) for name in sorted(RULESET_VALUES)]
SLOW = os.environ.get("FSM_SLOW") == "1"


def _fails_on(name, guard) -> bool:
    """Whether the laws fail with ``guard`` switched off, on timelines that
    seek the steps of the rows that name it."""
    value = dict(_mutants(name))[guard]
    seek = {r.step for r in (*value.rows, *value.refusals) if r.by == "player"
            and any(g.name == guard for g, _ in r.guards)}
    try:
        run_state_machine_as_test(timeline(value, name, seek), settings=MUTANT_SETTINGS)
    except Exception:       # a law broken, or the engine stuck (a TableGap)
        return True
    return False


# Limits whose breach random timelines reach too rarely for one run's budget
# (about 1 in 1,500 timelines): a witness timeline shows the laws fail there.
WITNESSES = {
    ("dnd4e", "trigger_took_effect"): (
        [("a", "x"), ("b", "y"), ("c", "y")],
        [{"actor": "a", "do": "standard", "id": "club"}, {"actor": "b", "do": "interrupt"},
         {"do": "resolve"}, {"do": "lose"}, {"actor": "c", "do": "reaction", "to": "club"}]),
    # the timelines' moves are of three squares at most, well within a Speed
    ("dnd5e", "readied_move_within_speed"): (
        [("a", "x"), ("b", "y")],
        [{"actor": "a", "do": "ready"}, {"do": "resolve"}, {"do": "end-turn"},
         {"actor": "b", "do": "move", "id": "near"}, {"do": "resolve"},
         {"actor": "a", "do": "readied", "to": "near", "squares": 7}]),
    # the timelines' additional actions cast no spell
    ("dnd5e", "additional_not_magic"): (
        [("a", "x"), ("b", "y")],
        [{"actor": "a", "do": "action", "additional": True, "slot": True}]),
}


def _laws_fail_on_witness(name, value, combatants, steps) -> bool:
    machine = timeline(value, name)()
    machine.enc = Encounter(value, combatants)
    machine.rec, machine.ids = Record(machine.enc), []
    for step in steps:
        machine._play(dict(step), None)
    try:
        machine.laws_hold()
    except AssertionError:
        return True
    return False


@pytest.mark.parametrize("name, guard", ALL_MUTANTS if SLOW else SAMPLE)
def test_a_limit_switched_off_breaks_the_laws(name, guard):
    """A table with one of the limits the laws state switched off fails them
    on some random timeline (or on its witness timeline, where random ones
    reach the breach too rarely); the real table keeps them there."""
    if (name, guard) in WITNESSES:
        combatants, steps = WITNESSES[(name, guard)]
        assert not _laws_fail_on_witness(name, RULESET_VALUES[name], combatants, steps)
        assert _laws_fail_on_witness(name, dict(_mutants(name))[guard], combatants, steps)
        return
    assert _fails_on(name, guard), f"{name}: the laws hold with guard {guard} switched off"


def test_every_guard_of_a_limit_is_stated_by_a_law_or_said_not_to_be():
    """Each rule-limit guard of each table is held by some law above, or
    listed here with the reason no law states it: a new limit cannot slip past."""
    for name, rs in RULESET_VALUES.items():
        held = _held(name)
        limits = {g for g, value in rs.table.guards.items() if not value.routing}
        unstated = limits - held - set(NOT_STATED.get(name, {}))
        assert not unstated, f"{name}: no law states {sorted(unstated)}"


# Limits no law above states, each with the reason
_SCENE = "reads positions, which these timelines do not place (tests/test_scene.py and " \
         "fsm explore --grid hold it)"
_WINDOW = "how long a window stays open (T-WINDOW, T-CUT-IN) is the machine's timing, " \
          "held by tests/test_timing.py; switched off, the refusal that names it is left " \
          "without a failing guard, which the engine reports (TableGap)"
_REASON_ONLY = "decides only which reason a refusal gives: switched off, " \
               "trigger_still_open refuses the same steps (the error-order and covering " \
               "vectors hold the reason)"
NOT_STATED = {
    "dnd4e": {"movement_in_progress": _SCENE, "reach_entered": _SCENE,
              "provocation_fits_scene": _SCENE, "trigger_still_open": _WINDOW,
              "has_trigger": _REASON_ONLY},
    "dnd5e": {"provokes_as_placed": _SCENE, "passes_only_open_spaces": _SCENE,
              "trigger_still_open": _WINDOW,
              "has_trigger": _REASON_ONLY},
    "pf2e": {"trigger_still_open": _WINDOW, "has_trigger": _REASON_ONLY},
}
