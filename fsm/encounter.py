"""The encounter: a ``transitions`` machine built from the table, a stack of
action frames, and the verdict for every step.

A step is a dict in the scenario format (``{"actor": "orc", "do": "standard"}``).
:meth:`Encounter.step` answers with a :class:`Verdict`:

* ``allowed``: the step happened;
* ``rejected``: a rule forbids it (stable reason code, rule ids); nothing changed;
* ``gm``: the text leaves it to the GM; the step happens unless the step says
  ``"ruling": "deny"``.

A step that cannot be read (an unknown field, kind, combatant or frame id, a
value of the wrong type) raises :class:`StepError` and changes nothing. A
step that can be read but breaks the order of play (resolving when nothing
is pending, answering beneath an unresolved frame) is a rules question: it
gets ``rejected`` with a reason code, like any other limit.
"""

from __future__ import annotations

import difflib
import logging
from dataclasses import dataclass, field

from transitions import Machine

from .frames import (DISRUPTED, DONE, LOST, RESOLVED, TURN_END, TURN_KINDS,
                     TURN_START, Fighter, Frame, fighter_values, frame_values)
from .guards import GM
from .kinds import RESPONSES, STACK_MOVES, TURN_ACTIONS
from .rulesets import RULESETS
from . import table as T

logging.getLogger("transitions").setLevel(logging.WARNING)

ALLOWED, REJECTED, GM_VERDICT = "allowed", "rejected", "gm"

STEP_FIELDS = frozenset({
    "do", "actor", "to", "on", "id", "name", "squares", "attacks", "parts",
    "provokes", "triggers", "cost", "ruling", "readies", "expect", "comment",
})


def suggest(word, known) -> str:
    """' (did you mean X?)' for the nearest known name, or ''."""
    if not isinstance(word, str):
        return ""
    near = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


class TableGap(RuntimeError):
    """A situation the table does not decide: a bug in the table, never a verdict."""


class StepError(ValueError):
    """A step that makes no sense in this encounter. Nothing was changed."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclass
class Verdict:
    """The answer for one step."""

    step: int
    verdict: str
    reason: str | None = None
    rules: tuple = ()
    guard: str | None = None
    notes: tuple = ()
    seen: dict = field(default_factory=dict)
    says: str | None = None
    target_id: str | None = None

    @property
    def target(self) -> str | None:
        """The id of the trigger answered, or of the frame resolved, lost or disrupted."""
        return self.target_id

    @property
    def allowed(self) -> bool:
        return self.verdict == ALLOWED

    def as_dict(self) -> dict:
        out = {"step": self.step, "verdict": self.verdict, "reason": self.reason,
               "rules": list(self.rules)}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


class Step:
    """A parsed step, as the guards and effects see it."""

    __slots__ = ("index", "kind", "trigger", "actor", "to", "target", "parts", "moving",
                 "provokes", "labels", "on", "cost", "name", "fid", "ruling", "ready",
                 "ready_type", "responding")

    def __init__(self, index, kind):
        self.index = index
        self.kind = kind
        self.trigger = kind.replace("-", "_")
        self.actor = None
        self.to = None
        self.target = None
        self.parts = 1
        self.moving = False
        self.provokes = ()
        self.labels = ("",)
        self.on = ""
        self.cost = 0
        self.name = None
        self.fid = f"s{index}"
        self.ruling = "allow"
        self.ready = None
        self.ready_type = None
        self.responding = kind in RESPONSES


def judge(enc, st, fn, rules, routing) -> bool:
    """Whether guard ``fn`` lets the row fire, as every dispatcher takes it: a
    ``gm`` answer is noted and follows the step's ruling; a failure is noted
    as a reason unless the guard only routes between rows."""
    answer = fn(enc, st)
    if answer is True:
        return True
    if answer == GM:
        enc._gm_hits.append((fn, rules))
        return st.ruling != "deny"
    if not routing:
        enc._failures.append((fn, rules))
    return False


def _condition(fn, rules, routing):
    def condition(event):
        return judge(event.model, event.kwargs["step"], fn, rules, routing)

    condition.__name__ = fn.__name__
    condition.__qualname__ = fn.__name__
    return condition


def _effect(fn):
    def effect(event):
        fn(event.model, event.kwargs["step"])

    effect.__name__ = fn.__name__
    effect.__qualname__ = fn.__name__
    return effect


def machine_transitions(ruleset: str) -> list[dict]:
    """The table's rows as ``transitions`` transition definitions."""
    rows, _ = T.TABLES[ruleset]
    out = []
    for r in rows:
        out.append({
            "trigger": r.trigger,
            "source": list(r.sources),
            "dest": r.dest,
            "conditions": [_condition(fn, rules, getattr(fn, "routing", False))
                           for fn, rules in r.guards],
            "after": [_effect(fn) for fn in r.effects],
        })
    return out


_TRANSITIONS_CACHE: dict = {}


def _cached_transitions(ruleset: str) -> list[dict]:
    if ruleset not in _TRANSITIONS_CACHE:
        _TRANSITIONS_CACHE[ruleset] = machine_transitions(ruleset)
    return _TRANSITIONS_CACHE[ruleset]


def _row_index(ruleset: str):
    rows, refusals = T.TABLES[ruleset]
    by_pair, refuse_pair = {}, {}
    for r in rows:
        for s in r.sources:
            by_pair.setdefault((s, r.trigger), []).append(r)
    for r in refusals:
        for s in r.sources:
            refuse_pair[(s, r.trigger)] = r
    kinds = frozenset(T.player_steps(ruleset))   # what a step may 'do'
    machine = tuple(step.replace("-", "_") for step in T.machine_steps(ruleset))
    return by_pair, refuse_pair, kinds, machine


_INDEX_CACHE: dict = {}
# Phases from which a machine row may fire before a step (see _settle).
_SETTLING = frozenset({T.AFTER, T.TURN_START, T.TURN_END})


class Encounter:
    """One combat encounter under one ruleset.

    >>> enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    >>> enc.step({"actor": "orc", "do": "standard"}).verdict
    'allowed'
    """

    def __init__(self, ruleset: str, combatants, initiative=None, options=None):
        if not isinstance(ruleset, str) or ruleset not in RULESETS:
            raise StepError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})",
                            "ruleset")
        self.ruleset = RULESETS[ruleset]
        self.options = self.ruleset.defaults()
        if options is not None and not isinstance(options, dict):
            raise StepError("options must be an object: {name: value}", "options")
        for name, value in (options or {}).items():
            opt = self.ruleset.option(name) if isinstance(name, str) else None
            if opt is None:
                known = [o.name for o in self.ruleset.options]
                raise StepError(f"unknown option {name!r} for {ruleset}{suggest(name, known)}",
                                "options")
            problem = opt.check(value)
            if problem:
                raise StepError(problem, "options")
            self.options[name] = value
        if isinstance(combatants, (str, bytes, dict)) or not hasattr(combatants, "__iter__"):
            raise StepError("combatants must be a list of {id, side} objects or "
                            "(id, side) pairs", "combatants")
        self.fighters: dict[str, Fighter] = {}
        for c in combatants:
            if isinstance(c, dict):
                cid, side = c.get("id"), c.get("side")
                extra = {k: c[k] for k in self.ruleset.combatant_fields if k in c}
            elif isinstance(c, (tuple, list)) and len(c) == 2:
                cid, side, extra = c[0], c[1], {}
            else:
                raise StepError(f"a combatant is an {{id, side}} object or an (id, side) "
                                f"pair, not {c!r}", "combatants")
            if not isinstance(cid, str) or not cid:
                raise StepError(f"combatant id must be a non-empty string, not {cid!r}",
                                "combatants")
            if not isinstance(side, str) or not side:
                raise StepError(f"combatant {cid} needs a side (a non-empty string)",
                                "combatants")
            if cid in self.fighters:
                raise StepError(f"combatant {cid} is listed twice", "combatants")
            for k, v in extra.items():
                if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 100:
                    raise StepError(f"combatant {cid}: {k} must be an integer from 0 to 100",
                                    "combatants")
            self.fighters[cid] = Fighter(cid, side, **extra)
        if not self.fighters:
            raise StepError("an encounter needs at least one combatant", "combatants")
        if initiative is not None and (isinstance(initiative, (str, bytes, dict))
                                       or not hasattr(initiative, "__iter__")):
            raise StepError("initiative must be a list of combatant ids", "initiative")
        order = list(initiative) if initiative is not None else list(self.fighters)
        for cid in order:
            if not isinstance(cid, str) or cid not in self.fighters:
                raise StepError(f"initiative names unknown combatant {cid!r}"
                                f"{suggest(cid, self.fighters)}", "initiative")
        if sorted(order) != sorted(self.fighters):
            missing = sorted(set(self.fighters) - set(order))
            raise StepError(
                f"initiative must list every combatant exactly once (missing: {missing})"
                if missing else "initiative lists a combatant twice", "initiative")
        self.order = order
        self.round = 1
        self.turn_index = 0
        self.turn_serial = 1
        self.turns = [(1, order[0])]          # turn serial - 1 - turns_base -> (round, active)
        self.turns_base = 0
        self.stack: list[Frame] = []
        self.past: dict[str, Frame] = {}      # frames that have left the stack
        self.past_order: list[str] = []
        self.kept: dict[str, Frame] = {}      # past frames whose window is still open
        self._on_stack: dict = {}             # frame id -> how many on the stack
        self._outcomes: dict = {DONE: [], LOST: [], DISRUPTED: []}
        self.uses: dict = {}
        self.log: list[dict] = []
        self.steps_seen = 0
        self._failures: list = []
        self._gm_hits: list = []
        self.fighters[order[0]].turns_started = 1
        self.push(Frame("turn-start@1", order[0], TURN_START, turn=1,
                                phase=RESOLVED))
        name = self.ruleset.name
        if name not in _INDEX_CACHE:
            _INDEX_CACHE[name] = _row_index(name)
        self._rows, self._refusals, self._kinds, self._machine = _INDEX_CACHE[name]
        self._attach_machine(name)

    def _attach_machine(self, name: str) -> None:
        """Build the ``transitions`` machine that moves this encounter
        (:class:`fsm.lean.LeanEncounter` walks the table without one)."""
        self.machine = Machine(model=self, states=list(T.STATES), initial=T.TURN_START,
                               transitions=_cached_transitions(name),
                               auto_transitions=False, send_event=True,
                               ignore_invalid_triggers=False)

    # -- reading the encounter ------------------------------------------

    @property
    def active(self) -> str:
        return self.order[self.turn_index]

    def budgets(self, cid: str | None = None) -> dict:
        if cid is not None:
            return self.ruleset.budgets(self, self.fighters[cid])
        return {c: self.ruleset.budgets(self, f) for c, f in self.fighters.items()}

    def outcomes(self, outcome: str) -> list[str]:
        """Frame ids in the order they resolved, were lost or were disrupted."""
        return list(self._outcomes.get(outcome, ()))

    def facts(self) -> dict:
        """Everything a scenario may expect after a step."""
        return {
            "state": self.state,
            "round": self.round,
            "active": self.active,
            "initiative": list(self.order),
            "budgets": self.budgets(),
            "resolved": self.outcomes(DONE),
            "lost": self.outcomes(LOST),
            "disrupted": self.outcomes(DISRUPTED),
            "stack": [f.id for f in self.stack if f.kind not in TURN_KINDS],
        }

    def describe_turn(self, serial: int) -> str:
        if serial < 1 or serial > self.turn_serial:
            return "never"
        if serial - 1 - self.turns_base < 0:
            return "long ago"
        rnd, who = self.turns[serial - 1 - self.turns_base]
        return f"in round {rnd}, during {who}'s turn"

    def prune(self, keep: int = 1000) -> None:
        """Forget old history (log entries, closed frames, past turns) beyond ``keep``,
        so that replaying a very long log runs in bounded memory. Only call it
        between steps; outcome lists in facts() then cover the kept history only."""
        if len(self.log) > 2 * keep:
            del self.log[:-keep]
        for frames in self._outcomes.values():
            if len(frames) > 2 * keep:
                del frames[:-keep]
        if len(self.past_order) > 2 * keep:
            for fid in self.past_order[:-keep]:
                if fid not in self.kept:
                    self.past.pop(fid, None)
            del self.past_order[:-keep]
        if len(self.turns) > 2 * keep:
            drop = len(self.turns) - keep
            del self.turns[:drop]
            self.turns_base += drop

    def forget_history(self) -> None:
        """Drop the log and the outcome lists (nothing a verdict reads)."""
        self.log = []
        self._outcomes = {k: [] for k in self._outcomes}

    def find(self, fid):
        """The frame ``fid`` if it is on the stack (most lookups are of ids that
        are not, answered at once by the index of the stack's ids)."""
        if fid not in self._on_stack:
            return None
        for f in reversed(self.stack):
            if f.id == fid:
                return f
        return None

    # -- the stack: every change goes through these, which keep the id index --

    def push(self, frame) -> None:
        self.stack.append(frame)
        self._on_stack[frame.id] = self._on_stack.get(frame.id, 0) + 1

    def pop(self):
        frame = self.stack.pop()
        count = self._on_stack.get(frame.id, 0) - 1
        if count > 0:
            self._on_stack[frame.id] = count
        else:
            self._on_stack.pop(frame.id, None)
        return frame

    def set_stack(self, frames) -> None:
        self.stack = frames
        self._on_stack = {}
        for f in frames:
            self._on_stack[f.id] = self._on_stack.get(f.id, 0) + 1

    def try_step(self, data) -> Verdict:
        """The verdict ``data`` would get now, leaving the encounter unchanged."""
        snap = self.snapshot()
        seen = self.steps_seen
        try:
            return self.step(data)
        finally:
            self.restore(snap)
            self.steps_seen = seen

    def possible(self) -> dict:
        """What may happen now: for each combatant, each step kind it could take,
        with the verdict it would get (allowed, gm, or rejected with its reason);
        under ``"*"``, the steps nobody in particular takes. Kinds that make no
        sense now (nothing to resolve, say) are left out."""
        out: dict = {}
        kinds = self.ruleset.steps
        for cid in self.fighters:
            row = {}
            for kind in kinds:
                if kind in STACK_MOVES or kind == "event":
                    continue
                data = {"do": kind, "actor": cid}
                if kind == "activity":
                    data["cost"] = 1
                try:
                    row[kind] = self.try_step(data)
                except StepError:
                    continue
            out[cid] = row
        anyone = {}
        for kind in sorted(STACK_MOVES, key=("resolve", "continue", "lose", "disrupt").index):
            if kind not in kinds:
                continue
            try:
                anyone[kind] = self.try_step({"do": kind})
            except StepError:
                continue
        out["*"] = anyone
        return out

    # -- helpers the effects call ------------------------------------------

    def note(self, st, frame, event):
        self.log.append({"step": st.index, "frame": frame.id, "actor": frame.owner,
                         "kind": frame.kind, "event": event})
        if event in self._outcomes:
            self._outcomes[event].append(frame.id)

    def remember_past(self, frame):
        """``frame`` has left the stack; forget what was answered on it once
        its window is closed."""
        self.past[frame.id] = frame
        self.past_order.append(frame.id)
        if frame.closed:
            self.forget_uses(frame.id)

    def forget_uses(self, fid):
        for key in [k for k in self.uses if k[0] == fid]:
            del self.uses[key]

    def advance(self):
        self.turn_index += 1
        if self.turn_index >= len(self.order):
            self.turn_index = 0
            self.round += 1
        self.turn_serial += 1
        self.turns.append((self.round, self.active))
        self.fighters[self.active].turns_started += 1

    def move_before(self, mover: str, trigger_id: str):
        trigger = self.find(trigger_id) or self.past.get(trigger_id)
        if trigger is None or trigger.owner is None or trigger.owner == mover:
            return
        active = self.active
        self.order.remove(mover)
        self.order.insert(self.order.index(trigger.owner), mover)
        self.turn_index = self.order.index(active)

    # -- snapshot / restore -------------------------------------------------

    def fingerprint(self) -> tuple:
        """A hashable picture of the whole state, for "nothing changed" checks."""
        return (self.state, self.round, self.turn_index, self.turn_serial, len(self.turns),
                tuple(self.order), tuple(map(frame_values, self.stack)),
                tuple(self.past_order), tuple(map(frame_values, self.kept.values())),
                tuple(sorted(self.uses.items())), len(self.log),
                tuple(map(fighter_values, self.fighters.values())))

    def snapshot(self):
        return (self.state, self.round, self.turn_index, self.turn_serial, len(self.turns),
                list(self.order), [f.copy() for f in self.stack], len(self.past_order),
                {fid: f.copy() for fid, f in self.kept.items()},
                dict(self.uses), len(self.log),
                {c: f.values() for c, f in self.fighters.items()},
                {k: len(v) for k, v in self._outcomes.items()})

    def restore(self, snap):
        (state, self.round, self.turn_index, self.turn_serial, turns, self.order, stack,
         past, kept, self.uses, log, fighters, outcomes) = snap
        self.state = state
        del self.turns[turns:]
        self.set_stack(stack)
        for fid in self.past_order[past:]:
            self.past.pop(fid, None)
        del self.past_order[past:]
        self.kept = kept
        for fid, frame in kept.items():
            self.past[fid] = frame
        del self.log[log:]
        for key, n in outcomes.items():
            del self._outcomes[key][n:]
        for c, values in fighters.items():
            self.fighters[c].restore(values)

    # -- the step ---------------------------------------------------------

    def step(self, data) -> Verdict:
        """Adjudicate one step; see the module docstring."""
        st = self.parse(data, self.steps_seen + 1)
        if st.responding:
            self._bind_answer(st)
        self.steps_seen += 1
        snap = self.snapshot() if self.state in _SETTLING else None
        self._settle(st)
        if not st.responding:
            self._bind_top(st)
        verdict = self._decide(st, snap)
        if st.target is not None:
            verdict.target_id = st.target.id
        return verdict

    def _settle(self, st) -> None:
        """Fire the machine's own rows (``close``, ``keep-open``, ``next-turn``)
        while one applies to the coming step: the stack and the turn moments
        settle before the step is judged (spec/TIMING.md, T-SETTLE)."""
        machine, rows = self._machine, self._rows
        for _ in range(2 * len(self.stack) + 6):
            for trigger in machine:
                if (self.state, trigger) in rows and self._fire(trigger, st):
                    break
            else:
                return
        raise TableGap(f"the machine rows did not settle before {st.kind} in {self.state}")

    def _fire(self, trigger, st) -> bool:
        """Fire one machine row of ``trigger`` if its guards pass."""
        return self.trigger(trigger, step=st)

    def _decide(self, st, snap) -> Verdict:
        self._failures.clear()
        self._gm_hits.clear()
        pair = (self.state, st.trigger)
        refusal = self._refusals.get(pair)
        if refusal is not None:
            verdict = self._refuse(st, refusal)
            if snap is not None:
                self.restore(snap)
            return verdict
        rows = self._rows.get(pair)
        if not rows:
            if snap is not None:
                self.restore(snap)
            raise TableGap(f"no row decides {st.kind} in phase {self.state}")
        ok = self.trigger(st.trigger, step=st)
        if ok:
            if self._gm_hits:
                fn, rules = self._gm_hits[0]
                return self._verdict(st, GM_VERDICT, fn, rules, fn.info.gm_reason)
            return Verdict(st.index, ALLOWED, None, rows[0].rule_ids(),
                           notes=self._notes(st))
        if snap is not None:
            self.restore(snap)
        if self._gm_hits and st.ruling == "deny":
            fn, rules = self._gm_hits[0]
            return self._verdict(st, GM_VERDICT, fn, rules, fn.info.gm_reason)
        if not self._failures:
            raise TableGap(f"{st.kind} in phase {self.state}: every row refused it "
                           f"without a reason")
        fn, rules = self._failures[0]
        return self._verdict(st, REJECTED, fn, rules, fn.info.reason)

    def _refuse(self, st, refusal) -> Verdict:
        for fn, rules in refusal.guards:
            if fn(self, st) is not True:
                return self._verdict(st, REJECTED, fn, rules, fn.info.reason)
        raise TableGap(f"{st.kind} by {st.actor} in phase {self.state}: a refusal row "
                       f"applies but none of its guards fails")

    def _verdict(self, st, verdict, fn, rules, reason) -> Verdict:
        info = fn.info
        seen = info.seen(self, st) if info.seen else {}
        try:
            says = info.says.format(**seen)
        except (KeyError, IndexError):
            says = info.says
        return Verdict(st.index, verdict, reason, rules, guard=info.name, seen=seen,
                       says=says, notes=self._notes(st) if verdict == GM_VERDICT else ())

    def _notes(self, st) -> tuple:
        if st.kind == "disrupt":
            return ("gm: what the disruption does beyond cancelling the effects "
                    "(a Leap stopped midway, an item dropped) is the GM's call",)
        return ()

    def moment(self, kind):
        """The current turn's turn-start or turn-end moment, or None if it has
        not come (a turn-end before the turn ends)."""
        for f in reversed(self.stack):
            if f.kind == kind:
                return f
        return self.past.get(f"{kind}@{self.turn_serial}")

    def _bind_answer(self, st):
        """The trigger an answer names: a frame on the stack (the top one by
        default), a frame that has left it, or the turn's moment."""
        if st.to is None:
            st.target = self.stack[-1] if self.stack else None
            return
        if st.to in (TURN_START, TURN_END):
            st.target = self.moment(st.to)
            return
        for f in reversed(self.stack):
            if f.id == st.to:
                st.target = f
                return
        if st.to in self.past:
            st.target = self.past[st.to]
            return
        raise StepError(f"no trigger has the id {st.to!r}", "to")

    def _bind_top(self, st):
        """Resolve, continue, lose and disrupt act on the top unresolved frame."""
        if st.kind in STACK_MOVES and self.stack:
            top = self.stack[-1]
            if top.outcome is None and top.kind not in TURN_KINDS:
                st.target = top

    # -- parsing ------------------------------------------------------------

    def parse(self, data, index: int) -> Step:
        """Check one step's fields and build a :class:`Step` (StepError if malformed)."""
        if not isinstance(data, dict):
            raise StepError(f"a step is an object, not {type(data).__name__}")
        if not STEP_FIELDS.issuperset(data):
            for key in data:
                if key not in STEP_FIELDS:
                    raise StepError(f"unknown field {key!r}{suggest(key, STEP_FIELDS)}", key)
        kind = data.get("do")
        if kind is None:
            raise StepError("missing field 'do' (what happens)", "do")
        if not isinstance(kind, str) or kind not in self._kinds:
            raise StepError(f"unknown step kind {kind!r} for {self.ruleset.name}"
                            f"{suggest(kind, self.ruleset.steps)}", "do")
        st = Step(index, kind)
        actor = data.get("actor")
        if actor is not None:
            if not isinstance(actor, str) or actor not in self.fighters:
                raise StepError(f"unknown combatant {actor!r}{suggest(actor, self.fighters)}",
                                "actor")
        elif kind in TURN_ACTIONS or st.responding:
            raise StepError(f"a {kind} step needs an 'actor'", "actor")
        elif kind == "end-turn":
            # the combatant whose turn it is when the step is judged (T-NEXT-TURN)
            ended = bool(self.stack) and self.stack[0].kind == TURN_END
            actor = self.order[(self.turn_index + 1) % len(self.order)] if ended \
                else self.active
        st.actor = actor
        if "id" in data:
            fid = data["id"]
            if not isinstance(fid, str) or not fid or fid in ("turn-start", "turn-end"):
                raise StepError("'id' must be a non-empty string other than turn-start "
                                "and turn-end", "id")
            if self.find(fid) is not None or fid in self.past:
                raise StepError(f"id {fid!r} is already used", "id")
            st.fid = fid
        elif self.find(st.fid) is not None or st.fid in self.past:
            st.fid = f"s{index}#{len(self.log)}"
        to = data.get("to")
        if to is not None:
            if not st.responding:
                raise StepError(f"'to' names a trigger; a {kind} step answers none", "to")
            if not isinstance(to, str):
                raise StepError("'to' must be a string: the id of a trigger", "to")
            st.to = to
        if "on" in data:
            on = data["on"]
            if not isinstance(on, str):
                raise StepError("'on' must be a string: which trigger of the frame", "on")
            st.on = on
        if "squares" in data or "attacks" in data or "parts" in data:
            given = [k for k in ("squares", "attacks", "parts") if k in data]
            if len(given) > 1:
                raise StepError(f"give only one of {', '.join(given)}", given[1])
            n = data[given[0]]
            if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n > 100:
                raise StepError(f"{given[0]} must be an integer from 1 to 100", given[0])
            st.parts = n
            st.moving = given[0] == "squares"
        else:
            given = None
            if kind == "move":
                st.moving = True
        if "provokes" in data:
            provokes = data["provokes"]
            if not isinstance(provokes, list) or not all(isinstance(p, str) for p in provokes):
                raise StepError("'provokes' must be a list of combatant ids", "provokes")
            for p in provokes:
                if p not in self.fighters:
                    raise StepError(f"'provokes' names unknown combatant {p!r}", "provokes")
            st.provokes = tuple(provokes)
        triggers = data.get("triggers")
        if triggers is not None:
            if not isinstance(triggers, list) or not triggers or \
                    not all(isinstance(t, str) for t in triggers):
                raise StepError("'triggers' must be a non-empty list of labels", "triggers")
            st.labels = tuple(triggers)
        if kind == "activity":
            cost = data.get("cost")
            if not isinstance(cost, int) or isinstance(cost, bool) or not 1 <= cost <= 3:
                raise StepError("an activity needs a 'cost' of 1, 2 or 3 actions", "cost")
            st.cost = cost
            if not given:
                st.parts = cost
        elif "cost" in data:
            raise StepError(f"'cost' applies to activities only, not to {kind}", "cost")
        elif kind == "action":
            st.cost = 1
        if "ruling" in data:
            ruling = data["ruling"]
            if ruling not in ("allow", "deny"):
                raise StepError("'ruling' must be allow or deny", "ruling")
            st.ruling = ruling
        name = data.get("name")
        if name is not None:
            if not isinstance(name, str):
                raise StepError("'name' must be a string", "name")
            st.name = name
        readies = data.get("readies")
        if readies is not None:
            if kind != "ready" or not isinstance(readies, str):
                raise StepError("'readies' (a string) belongs to a ready step", "readies")
            st.ready_type = readies
        return st
