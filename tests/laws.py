"""The laws the random timelines of test_properties.py are held to: for
each ruleset, the limits its rules set, checked against the test's own
record of the steps that were allowed (:class:`Record`), never against a
budget the engine keeps. Each law names the guards whose limit it states;
switching one of those guards off must make the law fail on some timeline.
"""

from __future__ import annotations

from collections import Counter, defaultdict

# -- the record the laws read -------------------------------------------------------

class Record:
    """The test's own account of an encounter: the steps allowed, where each
    turn started and ended, and what became of each frame (from the resolve,
    continue, lose, disrupt and counter steps it saw allowed)."""

    def __init__(self, enc):
        self.enc = enc
        self.allowed = []                      # Allowed values, in order
        self.starts = defaultdict(list)        # combatant -> turn serials it began
        self.ends = defaultdict(list)          # combatant -> serials where it ended its turn
        self.frames = {}                       # frame id -> the Allowed step that made it
        self.done = Counter()                  # frame id -> parts resolved
        self.pending = set()                   # frame ids whose current part is declared
        self.outcome = {}                      # frame id -> lose / disrupt / counter
        self.begun = {}                        # frame id -> its parts begun when it ended so
        self.owner = {}                        # frame id -> whose it is
        self.serial = enc.turn_serial
        self.starts[enc.active].append(self.serial)
        self.round_of = {self.serial: enc.round}   # turn serial -> its round
        # each combatant's own fields as the encounter starts (5e: its conditions,
        # which events may change later: condition())
        self.fields = {cid: {k: getattr(f, k) for k in type(f).FIELDS}
                       for cid, f in enc.fighters.items()}
        self.delaying = set()                  # 4e: who delayed and has not returned

    def saw_turn(self, kind=None, actor=None):
        """After an allowed step (``kind`` by ``actor``): a new turn, if one
        started. 4e: a delay makes its actor delaying and a return ends that;
        a delaying combatant whose own turn starts has lost its delayed turn,
        which is over then (T-4E-DELAY)."""
        if kind == "delay":
            self.delaying.add(actor)
            put_off = self.enc.turn_serial - 1      # its turn, begun by this step or before
            if put_off not in self.starts[actor]:
                self.starts[actor].append(put_off)
                self.round_of[put_off] = self.enc.round - (self.enc.turn_index == 0)
        elif kind == "return":
            self.delaying.discard(actor)
        if self.enc.turn_serial != self.serial:
            self.serial = self.enc.turn_serial
            active = self.enc.active
            self.starts[active].append(self.serial)
            self.round_of[self.serial] = self.enc.round
            if active in self.delaying:
                self.delaying.discard(active)
                self.ends[active].append(self.serial)

    def owner_of(self, serial):
        return next((who for who, serials in self.starts.items() if serial in serials), None)

    def is_open(self, fid) -> bool:
        """Made, and neither finished nor lost, disrupted or countered."""
        return fid not in self.outcome and self.done[fid] < self.frames[fid].parts()

    def occurrence(self, fid) -> int:
        """T-OCCURRENCE, from this record: the part pending or last resolved."""
        made = self.frames.get(fid)
        if made is None or made.moving():
            return 1
        if fid in self.pending or fid in self.outcome:
            return self.done[fid] + 1
        return self.done[fid]

    def seen(self, target, on_stack) -> dict:
        """What the record says of ``target`` as a step answers or moves it."""
        opened = [(f, self.owner[f], self.frames[f].kind,
                   f not in self.pending and self.done[f] >= 1) for f in self.frames
                  if self.is_open(f)]          # (id, owner, kind, between parts)
        made = self.frames.get(target)
        if made is None:                       # a turn's moment, or nothing
            return {"frame": False, "open": opened}
        later = [fid for fid in self.frames if self.frames[fid].index > made.index]
        return {"frame": True, "pending": target in self.pending, "done": self.done[target],
                "outcome": self.outcome.get(target), "owner": self.owner[target],
                "step": made.step, "kind": made.kind, "open": opened,
                "open_above": [f for f in later if self.is_open(f)] if on_stack else []}

    def turns_started(self, who, serial) -> int:
        return sum(1 for s in self.starts[who] if s <= serial)

    def turns_ended(self, who, serial) -> int:
        return sum(1 for s in self.ends[who] if s < serial)


class Allowed:
    """One allowed step: what it was, when, and what it found (``seen``)."""

    __slots__ = ("index", "kind", "actor", "stated", "active", "serial", "step", "target",
                 "occurrence", "seen", "rs")

    def __init__(self, rs, index, kind, actor, stated, active, serial, step, target,
                 occurrence, seen):
        self.rs, self.index, self.kind, self.actor, self.stated = rs, index, kind, actor, stated
        self.active, self.serial, self.step, self.target = active, serial, step, target
        self.occurrence, self.seen = occurrence, seen

    def parts(self) -> int:
        step = self.step
        if "path" in step:          # an attack after the path is a part of its own
            return len(step["path"]) + (step.get("attack_after") is True)
        given = step.get("squares") or step.get("attacks") or step.get("parts")
        if given:
            return given
        spec = self.rs.spec_of.get(self.kind)
        return step["cost"] if spec is not None and spec.cost_field else 1

    def moving(self) -> bool:
        spec = self.rs.spec_of.get(self.kind)
        return "squares" in self.step or "path" in self.step or \
            (spec is not None and spec.moving)


def _per(records, key) -> Counter:
    return Counter(key(a) for a in records)


def _at_most(counts: Counter, most, what):
    for key, n in counts.items():
        limit = most(key) if callable(most) else most
        assert n <= limit, f"{what}: {key} {n} > {limit}"


# -- the laws of each ruleset: (the guards they hold, the check) ----------------------
# A law names the guards whose limit it states: switching one of them off
# must make the law fail on some timeline (test_properties.py holds it).

LAWS: dict = defaultdict(list)


def law(ruleset, *guards):
    def add(fn):
        LAWS[ruleset].append((fn.__name__, guards, fn))
        return fn
    return add


# Every ruleset: the stack's own discipline (T-STACK-MOVES, T-ANSWER) ------------------

ONE_AT_A_TIME = {"dnd4e": {"standard", "move", "minor", "ready", "delay"},
                 "pf2e": {"action", "activity", "free"},
                 "dnd5e": {"action", "dash", "disengage", "ready", "bonus"},
                 "toy": {"strike"}}


@law("*", "actor_on_top", "something_pending")
def a_stack_move_acts_on_a_frame_and_names_its_owner(rec):
    for a in rec.allowed:
        if a.kind in a.rs.stack_moves:
            assert a.seen["frame"], (a.kind, "with nothing to act on")
            if a.stated is not None:
                assert a.stated == a.seen["owner"], (a.kind, a.stated, a.seen["owner"])


@law("*", "part_pending")
def a_resolve_resolves_a_declared_part(rec):
    for a in rec.allowed:
        if a.kind == "resolve":
            assert a.seen["pending"], ("resolve of", a.target)


@law("*", "part_resolved")
def a_continue_comes_between_parts(rec):
    for a in rec.allowed:
        if a.kind == "continue":
            made = rec.frames[a.target]
            assert not a.seen["pending"] and 1 <= a.seen["done"] < made.parts(), \
                ("continue of", a.target)


@law("*", "nothing_unresolved_above")
def an_answer_answers_a_trigger_with_nothing_unresolved_above_it(rec):
    for a in rec.allowed:
        if a.kind in a.rs.answer_kinds:
            assert a.target is not None, (a.kind, "answers nothing")
            assert not a.seen.get("open_above"), (a.kind, a.target, a.seen["open_above"])


def paused_own_move(a, opened) -> bool:
    """D&D 5e: an open frame that is ``a``'s actor's own move between two
    squares, which a step of its turn stops (T-5E-TURN)."""
    _, owner, kind, between = opened
    return a.rs.name == "dnd5e" and owner == a.actor and kind == "move" and between


STOPS_A_MOVE = {"action", "dash", "disengage", "ready", "bonus", "move", "end-turn"}


@law("*", "no_action_pending")
def a_turn_action_or_the_end_of_the_turn_waits_for_the_stack(rec):
    for a in rec.allowed:
        if a.kind == "end-turn" or a.kind in ONE_AT_A_TIME.get(a.rs.name, ()):
            assert all(paused_own_move(a, f) for f in a.seen["open"]), \
                (a.kind, a.seen["open"])


# D&D 4e -------------------------------------------------------------------------------

IMMEDIATE_4E = {"interrupt", "reaction", "readied"}


def _gets_ahead(rec, a) -> bool:
    return a.kind in ("interrupt", "opportunity") or (
        a.kind == "readied" and rec.enc.options["readied_as"] == "interrupt")


def _cuts_in(rec, a) -> bool:
    """An immediate reaction: it comes before the rest of its trigger."""
    return a.kind == "reaction" or (
        a.kind == "readied" and rec.enc.options["readied_as"] == "reaction")


@law("dnd4e", "immediate_not_own_turn", "opportunity_not_own_turn")
def no_triggered_action_on_your_own_turn(rec):
    for a in rec.allowed:
        if a.kind in IMMEDIATE_4E | {"opportunity"}:
            assert a.actor != a.active, (a.kind, a.actor)


@law("dnd4e", "immediate_unused")
def one_immediate_action_between_ends_of_your_turns(rec):
    _at_most(_per([a for a in rec.allowed if a.kind in IMMEDIATE_4E],
                  lambda a: (a.actor, rec.turns_ended(a.actor, a.serial + 1))), 1,
             "immediate actions between the ends of one's turns")


@law("dnd4e", "opportunity_unused")
def one_opportunity_action_per_counted_turn(rec):
    enemy_only = rec.enc.options["opportunity_limit_turns"] == "enemy"
    sides = {c: f.side for c, f in rec.enc.fighters.items()}
    counted = [a for a in rec.allowed if a.kind == "opportunity"
               and not (enemy_only and sides[a.active] == sides[a.actor])]
    _at_most(_per(counted, lambda a: (a.actor, a.serial)), 1, "opportunity actions in a turn")


@law("dnd4e", "standard_slot", "move_slot", "minor_slot")
def standard_move_minor_per_turn(rec):
    """One standard, one move, one minor a turn; a standard may stand in for
    a move or minor, a move for a minor (4E-SUBSTITUTE)."""
    slots = defaultdict(Counter)
    for a in rec.allowed:
        if a.kind in ("standard", "ready", "move", "minor"):
            slots[(a.actor, a.serial)]["standard" if a.kind == "ready" else a.kind] += 1
    for key, n in slots.items():
        assert n["standard"] <= 1, (key, n)
        assert n["standard"] + n["move"] <= 2, (key, n)
        assert n["standard"] + n["move"] + n["minor"] <= 3, (key, n)


@law("dnd4e", "not_surprised", "one_action_in_surprise_round")
def the_surprised_do_nothing_and_the_others_one_action_in_the_surprise_round(rec):
    """T-4E-SURPRISE: round 1 is the surprise round when someone is surprised."""
    surprised = {cid for cid, f in rec.fields.items() if f.get("surprised")}
    if not surprised:
        return
    acting = rec.enc.ruleset.turn_actions | rec.enc.ruleset.answer_kinds
    actions = Counter()
    for a in rec.allowed:
        if rec.round_of.get(a.serial) != 1 or a.kind not in acting:
            continue
        assert a.actor not in surprised, (a.actor, a.kind, "surprised")
        if a.kind in ("standard", "move", "minor", "ready"):
            actions[a.actor, a.serial] += 1
    _at_most(actions, 1, "actions in the surprise round")


@law("dnd4e", "not_yet_acted", "delaying", "between_turns")
def a_turn_is_delayed_before_acting_and_taken_after_another_turn(rec):
    """T-4E-DELAY: a turn is delayed before any action of its own on it, and
    a delaying combatant returns once another's turn has ended, nothing left
    unresolved, before its own turn comes round again."""
    delayed = {}                               # who -> the serial after its delay
    for a in rec.allowed:
        if a.kind == "delay":
            assert not any(b.actor == a.actor and b.serial == a.serial - 1 and b.kind in
                           ("standard", "move", "minor", "ready", "free")
                           for b in rec.allowed[:a.index]), ("delay after acting", a.actor)
            delayed[a.actor] = a.serial
        elif a.kind == "return":
            since = delayed.pop(a.actor, None)
            assert since is not None, ("return without a delay", a.actor)
            assert not [s for s in rec.starts[a.actor] if since <= s < a.serial], \
                ("return after its delayed turn was lost", a.actor)
            ended = a.serial - 1
            assert ended in rec.ends[rec.owner_of(ended)], ("return mid-turn", a.actor)
            assert not a.seen["open"], ("return over an unresolved frame", a.seen["open"])


@law("dnd4e", "own_turn")
def turn_actions_on_your_own_turn_4e(rec):
    for a in rec.allowed:
        if a.kind in ("standard", "move", "minor", "ready"):
            assert a.actor == a.active, (a.kind, a.actor, a.active)
        elif a.kind == "delay":             # the turn it put off, before the next
            assert rec.owner_of(a.serial - 1) == a.actor, (a.kind, a.actor)


@law("dnd4e", "free_within_limit")
def free_actions_within_the_dms_limit(rec):
    limit = rec.enc.options["free_actions_per_turn"]
    if limit is not None:
        _at_most(_per([a for a in rec.allowed if a.kind in ("free", "free-response")],
                      lambda a: (a.actor, a.serial)), limit, "free actions in a turn")


@law("dnd4e", "has_readied")
def a_readied_action_uses_a_ready(rec):
    waiting = Counter()
    for a in rec.allowed:
        if a.kind == "ready":
            waiting[a.actor] = 1
        elif a.kind == "readied":
            assert waiting[a.actor] == 1, ("readied without a ready", a.actor)
            waiting[a.actor] = 0


@law("dnd4e", "trigger_pending")
def an_interrupt_comes_before_its_trigger_resolves(rec):
    for a in rec.allowed:
        if a.kind in ("interrupt", "opportunity") and a.seen["frame"]:
            assert a.seen["pending"], (a.kind, a.target)


@law("dnd4e", "trigger_resolved", "moved_one_square")
def a_reaction_comes_after_its_trigger(rec):
    for a in rec.allowed:
        if a.kind == "reaction" and a.seen["frame"]:
            assert a.seen["done"] >= 1, (a.kind, a.target)


@law("dnd4e", "interrupted")
def only_an_interrupted_action_is_lost(rec):
    made = {id(m): fid for fid, m in rec.frames.items()}
    for a in rec.allowed:
        if a.kind == "lose":
            ahead = [b for b in rec.allowed[:a.index] if b.target == a.target
                     and (_gets_ahead(rec, b) or _cuts_in(rec, b))
                     and id(b) in made and rec.done[made[id(b)]] >= 1]
            assert ahead, ("lost without an interrupt or reaction ahead of it", a.target)


@law("dnd4e", "no_own_action_pending")
def a_free_action_waits_for_its_actors_own_action(rec):
    for a in rec.allowed:
        if a.kind == "free":
            assert not [f for f in a.seen["open"] if f[1] == a.actor], (a.actor, a.seen["open"])


@law("dnd4e", "provoked", "triggered_by_enemy")
def an_opportunity_action_answers_an_enemy_that_provoked_it(rec):
    sides = {c: f.side for c, f in rec.enc.fighters.items()}
    for a in rec.allowed:
        if a.kind == "opportunity":
            assert a.seen["frame"], ("opportunity action on", a.target)
            if not a.step.get("own_trigger"):         # no opportunity attack: not asked
                assert a.actor in (a.seen["step"].get("provokes") or ()), a.seen["step"]
            owner = a.seen["owner"]
            assert owner is not None and sides[owner] != sides[a.actor], (a.actor, owner)


@law("dnd4e", "readied_timing")
def a_readied_action_keeps_its_timing(rec):
    interrupt = rec.enc.options["readied_as"] == "interrupt"
    for a in rec.allowed:
        if a.kind == "readied" and a.seen["frame"]:
            if interrupt:
                assert a.seen["pending"], ("readied interrupt after", a.target)
            else:
                assert a.seen["done"] >= 1, ("readied reaction before", a.target)


@law("dnd4e", "trigger_took_effect")
def a_reaction_answers_a_trigger_that_took_effect(rec):
    for a in rec.allowed:
        if a.kind in ("reaction", "readied") and a.seen["frame"]:
            assert a.seen["outcome"] is None, (a.kind, a.target, a.seen["outcome"])


# Pathfinder 2e ------------------------------------------------------------------------

REACTIONS_PF2 = ("reaction", "opportunity")     # a Reactive Strike is a reaction


def _class_pf2(kind) -> str:
    return "reaction" if kind in REACTIONS_PF2 else kind


@law("pf2e", "reaction_available")
def reactions_within_budget_between_starts_of_your_turns(rec):
    if rec.enc.options["mode"] != "encounter":
        return
    most = {c: f.reactions_max for c, f in rec.enc.fighters.items()}
    _at_most(_per([a for a in rec.allowed if a.kind in REACTIONS_PF2],
                  lambda a: (a.actor, rec.turns_started(a.actor, a.serial))),
             lambda key: most[key[0]], "reactions between the starts of one's turns")


@law("pf2e", "one_reaction_per_trigger", "one_free_per_trigger")
def one_answer_of_each_kind_per_trigger(rec):
    _at_most(_per([a for a in rec.allowed if a.kind in (*REACTIONS_PF2, "free-response")],
                  lambda a: (_class_pf2(a.kind), a.actor, a.target, a.occurrence,
                             a.step.get("on", ""))),
             1, "answers of one kind to one trigger")


@law("pf2e", "actions_available")
def at_most_the_turns_actions(rec):
    """An activity disrupted under disrupted_activity: begun gives back the
    actions of its parts not begun (its parts being its actions)."""
    most = {c: f.actions_max for c, f in rec.enc.fighters.items()}
    spent = Counter()
    begun = rec.enc.options["disrupted_activity"] == "begun"
    for fid, a in rec.frames.items():
        if begun and a.kind == "activity" and rec.outcome.get(fid) == "disrupt" \
                and a.parts() == a.step["cost"] and not a.moving():
            spent[(a.actor, a.serial)] -= a.step["cost"] - rec.begun[fid]
    for a in rec.allowed:
        if a.kind in ("action", "activity"):
            spent[(a.actor, a.serial)] += a.step.get("cost", 1)
    _at_most(spent, lambda key: most[key[0]], "actions in a turn")


@law("pf2e", "own_turn")
def turn_actions_on_your_own_turn_pf2(rec):
    for a in rec.allowed:
        if a.kind in ("action", "activity", "free"):
            assert a.actor == a.active, (a.kind, a.actor, a.active)


@law("pf2e", "disruptable")
def only_an_action_is_disrupted(rec):
    for a in rec.allowed:
        if a.kind == "disrupt":
            assert a.seen["frame"] and a.seen["kind"] != "event", a.target


@law("pf2e", "first_turn_policy")
def no_reaction_before_ones_first_turn_when_forbidden(rec):
    options = rec.enc.options
    if options["react_before_first_turn"] != "forbid" or options["mode"] != "encounter":
        return
    for a in rec.allowed:
        if a.kind in REACTIONS_PF2:
            assert rec.turns_started(a.actor, a.serial) >= 1, a.actor


@law("pf2e", "similar_trigger")
def similar_triggers_count_as_one_when_said_so(rec):
    if rec.enc.options["similar_triggers"] != "same":
        return
    _at_most(_per([a for a in rec.allowed if a.kind in (*REACTIONS_PF2, "free-response")],
                  lambda a: (_class_pf2(a.kind), a.actor, a.target, a.occurrence)),
             1, "answers of one kind to similar triggers")


# T-PF2-REACTIVE-STRIKE: what provokes, read from the trigger's own step
STRIKE_TRIGGERS = {"action", "activity", "free", "reaction", "free-response", "opportunity"}


def provokes_a_strike(rec, striker, fid) -> bool:
    made, step = rec.frames[fid], rec.frames[fid].step
    moves = (step.get("move") is True or "squares" in step or "path" in step) \
        and step.get("step") is not True                 # a Step moves without provoking
    return (made.kind in STRIKE_TRIGGERS and rec.owner[fid] != striker
            and (step.get("manipulate") is True or moves or step.get("attack") == "ranged")
            and striker in step.get("provokes", ()))


def critical_disruption(rec, fid):
    """The trigger a critical Reactive Strike that just finished (``fid``)
    disrupts: a manipulate action still open; else None."""
    made = rec.frames.get(fid)
    if made is None or made.kind != "opportunity" or made.rs.name != "pf2e" \
            or made.step.get("critical") is not True or rec.done[fid] < made.parts():
        return None
    trigger = made.target
    if trigger in rec.frames and rec.is_open(trigger) \
            and rec.frames[trigger].step.get("manipulate") is True:
        return trigger
    return None


@law("pf2e", "strike_while_pending", "strike_provoked", "one_strike")
def a_reactive_strike_is_one_melee_strike_at_a_provoking_action_under_way(rec):
    for a in rec.allowed:
        if a.kind == "opportunity":
            assert a.seen["frame"] and a.seen["pending"], (a.target, "not under way")
            assert provokes_a_strike(rec, a.actor, a.target), (a.actor, a.target)
            assert a.parts() == 1 and a.step.get("attack") in (None, "melee"), a.step


# D&D 5e -------------------------------------------------------------------------------

def _readied_for(rec, a):
    """The circumstance (``when``) and whose (``by``) of the last Ready
    ``a``'s actor took before ``a``."""
    readies = [r for r in rec.allowed[:a.index] if r.kind == "ready" and r.actor == a.actor]
    return (readies[-1].step.get("when"), readies[-1].step.get("by")) if readies else (None,
                                                                                       None)


def _is_circumstance(made, when) -> bool:
    """T-5E-READY and T-4E-READY without positions: a move (for moves and either
    reach), an attack, a casting (5e)."""
    step = made.step
    if when in ("moves", "enters-reach", "leaves-reach"):
        return made.kind == "move" or "squares" in step or "path" in step or \
            (made.kind == "readied" and step.get("difficult") is True)
    if when == "attacks":
        return "attack" in step or made.kind == "opportunity"
    return step.get("spell") is True or step.get("slot") is True


@law("dnd4e", "readied_trigger_met")
@law("dnd5e", "readied_trigger_met")
def a_readied_response_answers_the_circumstance_it_was_readied_for(rec):
    for a in rec.allowed:
        if a.kind == "readied":
            when, by = _readied_for(rec, a)
            made = rec.frames.get(a.target)
            if when is not None:
                assert made is not None and _is_circumstance(made, when), (a.target, when)
            if by is not None:
                assert made is not None and rec.owner[a.target] == by, (a.target, by)


def _countered(rec, a) -> bool:
    made = [fid for fid, m in rec.frames.items() if m is a]
    return bool(made) and rec.outcome.get(made[0]) == "counter"


ACTIONS_5E = {"action", "dash", "disengage", "ready"}


REACTIONS_5E = {"reaction", "opportunity", "readied"}


@law("dnd5e", "reaction_left")
def one_reaction_between_starts_of_your_turns(rec):
    _at_most(_per([a for a in rec.allowed if a.kind in REACTIONS_5E],
                  lambda a: (a.actor, rec.turns_started(a.actor, a.serial))), 1,
             "Reactions between the starts of one's turns")


def _paid_by(a, flag) -> bool:
    """Whether a feature pays for the action with ``flag`` (bonus, additional)."""
    return a.kind in ACTIONS_5E and a.step.get(flag) is True


def _a_bonus_action(a) -> bool:
    return a.kind == "bonus" or _paid_by(a, "bonus")


@law("dnd5e", "action_left")
def one_action_per_turn(rec):
    _at_most(_per([a for a in rec.allowed if a.kind in ACTIONS_5E
                   and not _paid_by(a, "bonus") and not _paid_by(a, "additional")],
                  lambda a: (a.actor, a.serial)), 1, "actions in a turn")


@law("dnd5e", "additional_left")
def one_additional_action_per_turn(rec):
    _at_most(_per([a for a in rec.allowed if _paid_by(a, "additional")],
                  lambda a: (a.actor, a.serial)), 1, "additional actions in a turn")


@law("dnd5e", "additional_not_magic")
def the_additional_action_casts_no_spell(rec):
    for a in rec.allowed:
        if _paid_by(a, "additional"):
            assert not (a.step.get("spell") or a.step.get("slot")), a.step


@law("dnd5e", "bonus_left")
def one_bonus_action_per_turn(rec):
    _at_most(_per([a for a in rec.allowed if _a_bonus_action(a)],
                  lambda a: (a.actor, a.serial)), 1, "Bonus Actions in a turn")


@law("dnd5e", "bonus_granted")
def a_bonus_action_only_when_granted(rec):
    """By a feature (the creature's bonus), or by the spell a bonus casts."""
    for a in rec.allowed:
        if _a_bonus_action(a):
            casts = a.kind == "bonus" and (a.step.get("spell") is True or
                                           a.step.get("slot") is True)
            assert rec.enc.fighters[a.actor].bonus or casts, a.actor


@law("dnd5e", "interaction_left")
def one_free_interaction_per_turn(rec):
    _at_most(_per([a for a in rec.allowed if a.kind == "interact"],
                  lambda a: (a.actor, a.serial)), 1, "free object interactions in a turn")


@law("dnd5e", "own_turn")
def turn_actions_on_your_own_turn_5e(rec):
    for a in rec.allowed:
        if a.kind in ACTIONS_5E | {"bonus", "move", "interact"}:
            assert a.actor == a.active, (a.kind, a.actor, a.active)


def condition(rec, who, name, index) -> bool:
    """Whether ``who`` has the condition ``name`` when the allowed step at
    ``index`` is taken: as its combatant object starts, then as the last
    event on it that says so (T-5E-CONDITIONS), or its standing up."""
    value = rec.fields[who][name]
    for b in rec.allowed[:index]:
        if b.kind == "event" and b.step.get("actor") == who \
                and isinstance(b.step.get(name), bool):
            value = b.step[name]
        elif name == "prone" and b.kind == "move" and b.actor == who and b.step.get("stand"):
            value = False                 # it stood up (T-5E-PRONE)
    return value


@law("dnd5e", "able_to_act")
def an_incapacitated_creature_does_nothing(rec):
    for a in rec.allowed:
        if a.kind in ACTIONS_5E | REACTIONS_5E | {"bonus"}:
            assert not condition(rec, a.actor, "incapacitated", a.index), (a.kind, a.actor)


@law("dnd5e", "prone_to_stand")
def only_a_prone_creature_stands_up(rec):
    for a in rec.allowed:
        if a.kind == "move" and a.step.get("stand"):
            assert condition(rec, a.actor, "prone", a.index), ("stood up", a.actor)


_COUNTED = ("path", "squares", "parts", "attacks")


@law("dnd5e", "movement_left")
def movement_within_speed(rec):
    feet, dashes = Counter(), Counter()
    made = {m.index: fid for fid, m in rec.frames.items()}
    for a in rec.allowed:
        if a.kind == "dash":
            dashes[(a.actor, a.serial)] += 1
        elif a.kind == "move":
            fid = made.get(a.index)         # a stopped move counts the squares walked
            walked = rec.done[fid] if rec.outcome.get(fid) == "stop" else a.parts()
            if a.step.get("stand") and not any(k in a.step for k in _COUNTED):
                walked = 0                                   # it only stands up (T-5E-PRONE)
            rough = 2 if a.step.get("difficult") else 1      # Difficult Terrain (T-5E-SPACES)
            feet[(a.actor, a.serial)] += 5 * rough * walked
    speed = {c: f.speed for c, f in rec.enc.fighters.items()}
    _at_most(feet, lambda key: speed[key[0]] * (1 + dashes[key]), "feet moved in a turn")


@law("dnd5e", "slot_left")
def one_spell_slot_per_turn(rec):
    exempt = rec.enc.options["slot_reactions"] == "exempt"
    slots = _per([a for a in rec.allowed if a.step.get("slot")
                  and not (exempt and a.kind == "reaction")
                  and not _countered(rec, a)],
                 lambda a: (a.actor, a.serial))
    _at_most(slots, 1, "spell slots in a turn")


@law("dnd5e", "something_readied")
def a_readied_response_uses_a_ready(rec):
    waiting = Counter()
    for a in rec.allowed:
        if a.kind == "ready":
            waiting[a.actor] = 1
        elif a.kind == "readied":
            assert waiting[a.actor] == 1, ("readied without a ready", a.actor)
            waiting[a.actor] = 0


@law("dnd5e", "not_disengaged")
def no_opportunity_attack_on_a_disengaged_creature(rec):
    disengaged = {}                   # (creature, turn) -> when it took Disengage
    for a in rec.allowed:
        if a.kind == "disengage":
            disengaged.setdefault((a.actor, a.serial), a.index)
        if a.kind == "opportunity" and a.seen["frame"]:
            owner = a.seen["owner"]
            assert (owner, a.serial) not in disengaged, ("opportunity on", owner)


@law("dnd5e", "before_its_trigger")
def an_opportunity_attack_or_a_before_reaction_comes_before_its_trigger(rec):
    for a in rec.allowed:
        if (a.kind == "opportunity" or (a.kind == "reaction" and a.step.get("before"))) \
                and a.seen["frame"]:
            assert a.seen["pending"], (a.kind, "after", a.target)


@law("dnd5e", "after_its_trigger")
def a_reaction_comes_right_after_its_trigger(rec):
    for a in rec.allowed:
        if a.kind in ("reaction", "readied") and not a.step.get("before") and a.seen["frame"]:
            assert not a.seen["pending"] and a.seen["done"] >= 1, (a.kind, "before", a.target)


@law("dnd5e", "casting_a_spell", "counterspelled")
def only_a_spell_answered_by_a_reaction_spell_is_countered(rec):
    for a in rec.allowed:
        if a.kind == "counter":
            cast = a.seen["step"]
            assert cast.get("spell") or cast.get("slot"), ("countered", a.target)
            assert any(b.kind == "reaction" and b.target == a.target and b.step.get("before")
                       and (b.step.get("spell") or b.step.get("slot"))
                       for b in rec.allowed[:a.index]), ("no Counterspell on", a.target)


@law("dnd5e", "moves_by_itself", "leaves_reach", "sees_the_mover")
def an_opportunity_attack_answers_a_seen_creature_leaving_by_itself(rec):
    for a in rec.allowed:
        if a.kind == "opportunity":
            assert a.seen["frame"] and a.seen["kind"] != "event", a.target
            assert a.actor in (a.seen["step"].get("provokes") or ()), a.seen["step"]
            owner = a.seen["owner"]
            assert not condition(rec, owner, "unseen", a.index) \
                and not condition(rec, a.actor, "blinded", a.index), (a.actor, owner)


@law("dnd5e", "during_own_move_or_action")
def the_free_interaction_comes_during_ones_move_or_action(rec):
    for a in rec.allowed:
        if a.kind == "interact":
            assert [f for f in a.seen["open"] if f[1] == a.actor
                    and f[2] in ACTIONS_5E | {"move"}], (a.actor, a.seen["open"])


@law("dnd5e", "only_own_pauses_open")
def a_move_comes_only_between_ones_own_attacks_or_squares(rec):
    for a in rec.allowed:
        if a.kind == "move":
            for fid, owner, kind, between in a.seen["open"]:
                assert owner == a.actor and kind in ("action", "move") and between, \
                    (a.actor, fid)


@law("dnd5e", "only_own_move_paused")
def the_turn_goes_on_only_between_the_squares_of_ones_own_move(rec):
    for a in rec.allowed:
        if a.kind in STOPS_A_MOVE - {"move"}:
            assert all(paused_own_move(a, f) for f in a.seen["open"]), \
                (a.kind, a.seen["open"])


@law("dnd5e", "one_melee_attack")
def an_opportunity_attack_is_one_melee_attack(rec):
    for a in rec.allowed:
        if a.kind == "opportunity":
            assert a.parts() == 1 and a.step.get("attack") in (None, "melee"), a.step


def _readied_spell(rec, a) -> bool:
    """Whether the last Ready ``a``'s actor took before ``a`` readied a spell."""
    ready = [b for b in rec.allowed[:a.index] if b.kind == "ready" and b.actor == a.actor]
    return bool(ready) and bool(ready[-1].step.get("spell") or ready[-1].step.get("slot"))


def _readied_move(a) -> bool:
    """Whether the readied response ``a`` is a move: squares, a path, or
    Difficult Terrain said (T-5E-READY, T-5E-SPACES)."""
    return "squares" in a.step or "path" in a.step or a.step.get("difficult") is True


@law("dnd5e", "readied_one_attack")
def a_readied_response_makes_one_attack(rec):
    for a in rec.allowed:
        if a.kind == "readied" and not _readied_move(a):
            assert a.parts() == 1 or _readied_spell(rec, a), a.step


@law("dnd5e", "readied_move_within_speed")
def a_readied_move_goes_up_to_speed(rec):
    for a in rec.allowed:
        # a teleport covers no feet (T-5E-READY)
        if a.kind == "readied" and _readied_move(a) and a.step.get("teleport") is not True:
            rough = 2 if a.step.get("difficult") else 1
            assert 5 * rough * a.parts() <= rec.enc.fighters[a.actor].speed, a.step


# The toy (tests/test_toy_ruleset.py) --------------------------------------------------

@law("toy", "toy_strike_left")
def strikes_within_budget_per_turn(rec):
    most = {c: f.strikes_max for c, f in rec.enc.fighters.items()}
    _at_most(_per([a for a in rec.allowed if a.kind == "strike"],
                  lambda a: (a.actor, a.serial)), lambda key: most[key[0]], "strikes in a turn")


@law("toy", "own_turn")
def strikes_on_your_own_turn(rec):
    for a in rec.allowed:
        if a.kind == "strike":
            assert a.actor == a.active
