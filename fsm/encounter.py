"""The encounter: a ``transitions`` machine built from the table, a stack of
action frames, and the verdict for every step.

A step is a dict in the scenario format (``{"actor": "orc", "do": "standard"}``).
:meth:`Encounter.step` answers with a :class:`Verdict`:

* ``allowed``: the step happened;
* ``rejected``: a rule forbids it (stable reason code, rule ids); nothing changed;
* ``gm``: the text leaves it to the GM; the step happens unless the step says
  ``"ruling": "deny"``.

A step that makes no sense (unknown combatant, resolving when nothing is
pending, a malformed field) raises :class:`StepError` and changes nothing.
"""

from __future__ import annotations

import difflib
import logging
from dataclasses import dataclass, field

from transitions import Machine

from .frames import (DISRUPTED, DONE, LOST, PENDING, RESOLVED, TURN_END, TURN_KINDS,
                     TURN_START, Fighter, Frame, fighter_values, frame_values)
from .guards import GM
from .rulesets import ON_TOP_UNFINISHED, RESPONSES, RULESETS, TURN_ACTIONS
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
    return by_pair, refuse_pair, kinds


_INDEX_CACHE: dict = {}


class Encounter:
    """One combat encounter under one ruleset.

    >>> enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    >>> enc.step({"actor": "orc", "do": "standard"}).verdict
    'allowed'
    """

    def __init__(self, ruleset: str, combatants, initiative=None, options=None):
        if ruleset not in RULESETS:
            raise StepError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})",
                            "ruleset")
        self.ruleset = RULESETS[ruleset]
        self.options = self.ruleset.defaults()
        for name, value in (options or {}).items():
            opt = self.ruleset.option(name)
            if opt is None:
                known = [o.name for o in self.ruleset.options]
                raise StepError(f"unknown option {name!r} for {ruleset}{suggest(name, known)}",
                                "options")
            problem = opt.check(value)
            if problem:
                raise StepError(problem, "options")
            self.options[name] = value
        self.fighters: dict[str, Fighter] = {}
        for c in combatants:
            if isinstance(c, dict):
                cid, side = c.get("id"), c.get("side")
                extra = {k: c[k] for k in self.ruleset.combatant_fields if k in c}
            else:
                cid, side, extra = c[0], c[1], {}
            if not isinstance(cid, str) or not cid:
                raise StepError(f"combatant id must be a non-empty string, not {cid!r}",
                                "combatants")
            if not isinstance(side, str) or not side:
                raise StepError(f"combatant {cid} needs a side (a non-empty string)",
                                "combatants")
            if cid in self.fighters:
                raise StepError(f"combatant {cid} is listed twice", "combatants")
            for k, v in extra.items():
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise StepError(f"combatant {cid}: {k} must be a non-negative integer",
                                    "combatants")
            self.fighters[cid] = Fighter(cid, side, **extra)
        if not self.fighters:
            raise StepError("an encounter needs at least one combatant", "combatants")
        order = list(initiative) if initiative is not None else list(self.fighters)
        for cid in order:
            if cid not in self.fighters:
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
        self.closed: dict[str, Frame] = {}
        self.closed_order: list[str] = []
        self.uses: dict = {}
        self.log: list[dict] = []
        self.steps_seen = 0
        self._failures: list = []
        self._gm_hits: list = []
        self.fighters[order[0]].turns_started = 1
        self.stack.append(Frame("turn-start@1", order[0], TURN_START, turn=1,
                                phase=RESOLVED))
        name = self.ruleset.name
        if name not in _INDEX_CACHE:
            _INDEX_CACHE[name] = _row_index(name)
        self._rows, self._refusals, self._kinds = _INDEX_CACHE[name]
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
        return [e["frame"] for e in self.log if e["event"] == outcome]

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
        if len(self.closed_order) > 2 * keep:
            for fid in self.closed_order[:-keep]:
                self.closed.pop(fid, None)
            del self.closed_order[:-keep]
        if len(self.turns) > 2 * keep:
            drop = len(self.turns) - keep
            del self.turns[:drop]
            self.turns_base += drop

    def find(self, fid):
        for f in self.stack:
            if f.id == fid:
                return f
        return None

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
                if kind in ("resolve", "continue", "lose", "disrupt", "event"):
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
        for kind in ("resolve", "continue", "lose", "disrupt"):
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

    def remember_closed(self, frame):
        self.closed[frame.id] = frame
        self.closed_order.append(frame.id)
        for key in [k for k in self.uses if k[0] == frame.id]:
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
        trigger = self.find(trigger_id) or self.closed.get(trigger_id)
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
                tuple(self.closed_order), tuple(sorted(self.uses.items())), len(self.log),
                tuple(map(fighter_values, self.fighters.values())))

    def snapshot(self):
        return (self.state, self.round, self.turn_index, self.turn_serial, len(self.turns),
                list(self.order), [f.copy() for f in self.stack], len(self.closed_order),
                dict(self.uses), len(self.log),
                {c: f.values() for c, f in self.fighters.items()})

    def restore(self, snap):
        (state, self.round, self.turn_index, self.turn_serial, turns, self.order, stack,
         closed, self.uses, log, fighters) = snap
        self.state = state
        del self.turns[turns:]
        self.stack = stack
        for fid in self.closed_order[closed:]:
            self.closed.pop(fid, None)
        del self.closed_order[closed:]
        del self.log[log:]
        for c, values in fighters.items():
            self.fighters[c].restore(values)

    # -- the step ---------------------------------------------------------

    def step(self, data) -> Verdict:
        """Adjudicate one step; see the module docstring."""
        self.steps_seen += 1
        st = self.parse(data, self.steps_seen)
        snap = None
        try:
            above = self._above_turn_end()
            if above is not None and not self._answers_turn_end(st):
                snap = self.snapshot()
                for _ in range(above):
                    self._machine_step("close", st)
                self._machine_step("next_turn", st)
            closes = self._closes_for(st)
            if closes:
                if snap is None:
                    snap = self.snapshot()
                for _ in range(closes):
                    self._machine_step("close", st)
            self._bind_target(st)
        except StepError:
            if snap is not None:
                self.restore(snap)
            self.steps_seen -= 1
            raise
        verdict = self._decide(st, snap)
        if st.target is not None:
            verdict.target_id = st.target.id
        return verdict

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
            self.steps_seen -= 1
            raise StepError(f"{st.kind} cannot happen in phase {self.state}", "do")
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

    def _machine_step(self, trigger, st):
        self._failures.clear()
        if not self.trigger(trigger, step=st):
            raise StepError(f"internal: machine step {trigger} found no row from {self.state}")

    def _above_turn_end(self):
        """How many finished frames sit above an open turn-end moment (None: the
        turn has not ended, or something above the moment is still unresolved)."""
        stack = self.stack
        if not stack or stack[0].kind != TURN_END:
            return None
        above = stack[1:]
        if all(f.finished for f in above):
            return len(above)
        return None

    def _answers_turn_end(self, st) -> bool:
        if not st.responding:
            return False
        if st.to is None or st.to == "turn-end":
            return True
        return any(f.id == st.to for f in self.stack)

    def _closes_for(self, st) -> int:
        stack = self.stack
        if st.responding:
            if st.to is None:
                return 0
            idx = self._stack_index(st.to)
            if idx is None:
                return 0
            above = stack[idx + 1:]
            for f in above:
                if not f.finished:
                    raise StepError(f"{f.id} is still unresolved above {stack[idx].id}; "
                                    f"resolve it first", "to")
            return len(above)
        if st.kind in TURN_ACTIONS or st.kind == "end-turn":
            if st.actor != self.active:
                return 0
            n = 0
            for f in reversed(stack):
                if f.finished or f.kind == TURN_START:
                    n += 1
                else:
                    break
            return n
        if st.kind in ON_TOP_UNFINISHED or st.kind == "continue":
            n = 0
            for f in reversed(stack):
                if f.kind in TURN_KINDS:
                    break
                if not f.finished:
                    if st.kind == "continue" and not f.between_parts:
                        raise StepError(f"{f.id} has no resolved part to continue from; "
                                        f"resolve it first", "do")
                    if st.kind != "continue" and f.phase != PENDING:
                        raise StepError(f"{f.id} is between parts; continue it first", "do")
                    if st.actor is not None and st.actor != f.owner:
                        raise StepError(f"{f.id} belongs to {f.owner}, not {st.actor}",
                                        "actor")
                    return n
                n += 1
            raise StepError(f"nothing is pending: there is no action to {st.kind}", "do")
        return 0

    def _stack_index(self, fid):
        for i in range(len(self.stack) - 1, -1, -1):
            f = self.stack[i]
            if f.id == fid or (fid == "turn-start" and f.kind == TURN_START) \
                    or (fid == "turn-end" and f.kind == TURN_END):
                return i
        return None

    def _bind_target(self, st):
        if st.responding:
            if st.to is None:
                st.target = self.stack[-1] if self.stack else None
                return
            idx = self._stack_index(st.to)
            if idx is not None:
                st.target = self.stack[idx]
                return
            if st.to in self.closed:
                st.target = self.closed[st.to]
                return
            if st.to in ("turn-start", "turn-end"):
                raise StepError(f"there is no {st.to} moment open now", "to")
            raise StepError(f"no trigger has the id {st.to!r}", "to")
        if st.kind in ON_TOP_UNFINISHED or st.kind == "continue":
            st.target = self.stack[-1]

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
            actor = self.active if self._above_turn_end() is None else \
                self.order[(self.turn_index + 1) % len(self.order)]
        st.actor = actor
        if "id" in data:
            fid = data["id"]
            if not isinstance(fid, str) or not fid or fid in ("turn-start", "turn-end"):
                raise StepError("'id' must be a non-empty string other than turn-start "
                                "and turn-end", "id")
            if self.find(fid) is not None or fid in self.closed:
                raise StepError(f"id {fid!r} is already used", "id")
            st.fid = fid
        elif self.find(st.fid) is not None or st.fid in self.closed:
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
