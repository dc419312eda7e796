"""What the live checker's builder offers at the moment a scenario has
reached, in a player's words (:mod:`.words`), grouped the way players think
of a moment at the table:

* what waits to take effect: it takes effect, goes on to its next part, is
  lost (the ruleset's own stack moves), or plays on to its end in one click;
* the answers to each trigger still open, for every combatant, each with the
  verdict it would get (a refused one disabled, with its reason), and the
  answers that fit once what waits has taken effect, or once an earlier
  move is said to leave the answerer's reach (no grid: a stated
  ``provokes``);
* the active combatant's turn: its actions (after its own action takes
  effect, when that is what stands in the way), the end of its turn, and
  skipping to someone's next turn;
* what anyone may do now (an event, another combatant's free action), and
  a condition that starts or ends (5e: Incapacitated, unseen, Blinded);
* the rest, refused, folded away with its reason.

Each choice holds the steps one click adds (and any change to an earlier
step), the verdict the machine gives its last step, and the fields its
details form offers. Every kind, variant and field is read from the ruleset:
its step kinds and their classes, its step specs and scene words, the
answer variants its explorer tries, its words.
"""

from __future__ import annotations

import json

from ..engine.frames import TURN_KINDS
from ..engine.rows import CONTINUE, END_TURN, EVENT, RESOLVE
from ..engine.steps import COST_RANGE
from ..engine.turn import whose_turn
from ..errors import FsmError
from ..report import why
from . import happenings
from .fields import step_fields
from .playon import skips, trying, until
from .words import Namer, capital, find, top_unresolved

PAST_TRIGGERS = 4                 # frames that left the stack, most recent first, offered
DEEP = 3                          # unresolved frames, from the top, offered to play on to


class Menu:
    """The choices for one encounter (``enc``, replayed from ``doc``)."""

    def __init__(self, enc, doc):
        self.enc, self.doc, self.rs = enc, doc, enc.ruleset
        self.namer = Namer(self.rs, doc)
        self.order = list(enc.order)
        self.scene = bool(enc.scene)
        self.side = {c.get("id"): c.get("side") for c in doc.get("combatants") or ()
                     if isinstance(c, dict)}

    # -- trying steps ----------------------------------------------------------------

    def verdict_of(self, steps):
        """The verdict of the last of ``steps`` played now, each before it
        allowed (None if one is not); nothing changes."""
        with trying(self.enc) as enc:
            try:
                for step in steps[:-1]:
                    if enc.step(step).verdict == "rejected":
                        return None
                return enc.step(steps[-1])
            except FsmError:             # a step that cannot be read here is not offered
                return None

    def choice(self, steps, label, *, who=None, fields=(), hint="", edits=(), key="",
               verdict=None):
        v = verdict or self.verdict_of(steps)
        if v is None:
            return None
        last = steps[-1]
        extra = [{"name": "ruling", "type": "choice", "choices": ["allow", "deny"],
                  "label": "the GM rules"}] if v.verdict == "gm" and len(steps) == 1 else []
        return {"steps": steps, "edits": list(edits), "label": label, "who": who or "",
                "key": key or _key(last), "verdict": v.verdict, "reason": v.reason,
                "say": self.namer.say(self.enc, last, v), "why": why(v), "says": v.says or "",
                "rules": list(v.rules), "fields": list(fields) + extra, "hint": hint,
                "title": self.namer.title(self.enc, last) if len(steps) == 1 else "",
                "kind": last.get("do"), "actor": last.get("actor") or "",
                "to": last.get("to") or ""}

    # -- the groups ------------------------------------------------------------------

    def groups(self) -> list:
        out, rest, moments = [], [], []
        top = top_unresolved(self.enc)
        if top is not None:
            out.append({"id": "waiting", "title": f"{self.namer.frame(top)}: what happens to it",
                        "choices": self._stack(top)})
        for fid, words in self._triggers():
            allowed, refused, supposed = self._answers(fid, top)
            rest += supposed                # refused as stated, offered as supposed above
            owner = getattr(find(self.enc, fid), "owner", None)
            rest += [c for c in refused if c["actor"] == owner]      # its own, seldom asked
            refused = [c for c in refused if c["actor"] != owner]
            allowed.sort(key=lambda c: c["actor"] == owner)      # its own answers last
            group = {"id": "answers", "trigger": fid, "title": f"Answers to {words}",
                     "choices": allowed + refused}
            if allowed or fid == (top.id if top else None):
                (moments if fid in TURN_KINDS else out).append(group)
            else:
                rest += refused
        turn, anyone, others = self._turn(top)
        out.append({"id": "turn", "title": f"{self.namer.who(whose_turn(self.enc))}'s turn",
                    "choices": turn})
        out += moments                    # answers to a turn's start or end, seldom asked
        if anyone:
            out.append({"id": "anyone", "title": "Anyone, now", "choices": anyone})
        conditions = happenings.conditions(self)
        if conditions:
            out.append({"id": "conditions", "title": "A condition starts or ends, at once",
                        "choices": conditions})
        moved = happenings.forced(self)
        if moved:
            out.append({"id": "forced", "title": "Someone is moved by force (pushed, "
                        "teleported...): its squares next", "choices": moved})
        if top is None:         # asked all the same: nothing waits to take effect
            rest.append(self.choice([{"do": RESOLVE}], "Something takes effect"))
        out.append({"id": "rest", "title": "Not now", "folded": True,
                    "choices": [c for c in rest + others if c]})
        for g in out:
            g["choices"] = [c for c in g["choices"] if c]
        return out

    def _stack(self, top) -> list:
        """Resolve, continue and the ruleset's own stack moves, then playing on."""
        out, seen = [], set()
        for kind in self.rs.player_steps:
            if kind in self.rs.stack_moves:
                c = self.choice([{"do": kind}], self._move_label(kind, top_unresolved(self.enc)))
                if c and c["verdict"] != "rejected":
                    out.append(c)
                    seen.add(json.dumps(c["steps"]))
        for n, fid in enumerate([f.id for f in self._unresolved()]):
            for steps, label in self._play_on(find(self.enc, fid), n == 0):
                if json.dumps(steps) not in seen:
                    seen.add(json.dumps(steps))
                    out.append(self.choice(steps, label, key=f"on:{fid}:{len(steps)}"))
        return out

    def _move_label(self, kind, top) -> str:
        part = self.namer.part(top)
        if kind == RESOLVE:
            if top.parts > 1:
                return f"{part.capitalize()} {top.done + 1} of {top.parts} takes effect"
            return "It takes effect"
        if kind == CONTINUE:
            return f"It goes on: {part} {top.done + 1} begins"
        move = self.rs.words.moves.get(kind)
        return (move.split(":")[0].replace("{frame}", "it") if move else
                self.namer.noun(kind)).capitalize()

    def _unresolved(self) -> list:
        """The frames still to take effect, from the top of the stack down."""
        out = []
        for f in reversed(self.enc.stack):
            if f.outcome is None and f.kind not in TURN_KINDS and f not in out:
                out.append(f)
        return out[:DEEP]

    def _play_on(self, f, on_top) -> list:
        """(steps, label) that play the stack on until ``f`` has its next
        part begun, and until it is done."""
        out, part, fid = [], self.namer.part(f), f.id
        first = "" if on_top else f"{self.namer.frame(f)}: "
        above = "" if on_top else " (what is above it takes effect first)"
        steps, done = until(self.enc, f, next_part=True)
        f = find(self.enc, fid)
        if steps and len(steps) > 1 and done < f.parts:      # else: the same as to its end
            out.append((steps, capital(f"{first}{part} {done} takes effect, {part} {done + 1} "
                                       f"begins{above}")))
        steps, _ = until(self.enc, f)
        f = find(self.enc, fid)
        if steps and (len(steps) > 1 or not on_top):
            out.append((steps, capital(f"{first}it plays on to its end{above}")))
        return out

    def _triggers(self) -> list:
        """(what an answer's ``to`` names, the trigger in words) of every
        trigger an answer could name now: the frames on the stack, top
        first, the turn's moments, and the frames that left it most recently."""
        enc, out, seen = self.enc, [], set()
        for f in reversed(enc.stack):
            to = f.kind if f.kind in TURN_KINDS else f.id
            if to not in seen:
                seen.add(to)
                out.append((to, self.namer.frame(f)))
        added = 0
        for fid in reversed(enc.past_order):
            f = enc.past.get(fid)
            if added == PAST_TRIGGERS:
                break
            if f is None or f.id in seen or f.kind in TURN_KINDS:
                continue
            seen.add(f.id)
            added += 1
            out.append((f.id, self.namer.frame(f)))
        return out

    def _answers(self, to, top) -> tuple:
        """The answers to trigger ``to``: for every combatant each answer kind
        and its variants (allowed or not), and where a refused one would be
        allowed once the pending action takes effect, or once the trigger is
        said to provoke the answerer, that too; (allowed, refused, and the
        refusals a supposition stands for: off a grid "if it provokes" comes
        first, its plain refusal folded away, not to read as the verdict)."""
        allowed, refused, later = [], [], []
        for cid in self.order:
            for kind in self.rs.player_steps:
                if kind not in self.rs.answer_kinds:
                    continue
                for extra, words in self._variants(kind) + self._labels(to):
                    step = {"actor": cid, "do": kind, "to": to, **extra}
                    label = self.namer.noun(kind) + (f", {words}" if words else "")
                    c = self.choice([step], label, who=self.namer.who(cid),
                                    fields=self.fields(kind, answer=True),
                                    hint=self._hint(kind, extra))
                    if c is None:
                        continue
                    (allowed if c["verdict"] != "rejected" else refused).append(c)
                    if c["verdict"] == "rejected":
                        later.append((c, step))
        supposed = []
        for (c, step), better in zip(later, self._after_top([s for _, s in later])):
            provoked = better is None and self._provoked(step, step["actor"])
            better = better or provoked
            if better:
                allowed.append({**better, "label": c["label"] + better.pop("also"),
                                "who": c["who"], "fields": c["fields"]})
            if provoked and not any(f["type"] == "flag" for f in c["fields"]):
                refused.remove(c)       # kept where its details may change it (4e own_trigger)
                supposed.append(c)
        return allowed, refused, supposed

    def _variants(self, kind) -> list:
        """([fields, words]) of an answer: plain, and each variant the ruleset's
        explorer tries (a flag, an ``on`` label on a grid)."""
        out = [({}, "")]
        explore = self.rs.explore
        tried = list(explore.answer_variants) if explore else []
        if explore and self.scene:
            tried += [v for v in explore.grid_answers if all(k != "steps" for k, _ in v[1])]
        for k, fields in tried:
            if k != kind:
                continue
            extra = dict(fields)
            if not all(isinstance(v, (str, bool, int)) for v in extra.values()):
                continue
            out.append((extra, ", ".join(self.namer.details(extra))))
        return out

    def _labels(self, to) -> list:
        """([fields, words]) answering each trigger label the frame presents
        (a PF2 trait), when it presents more than the default one."""
        f = find(self.enc, to)
        labels = [label for label in (f.labels if f is not None else ()) if label]
        return [({"on": label}, ", ".join(self.namer.details({"on": label})))
                for label in labels]

    def _hint(self, kind, extra) -> str:
        hints = self.rs.words.hints
        return "; ".join(h for h in [hints.get(kind)] + [hints.get(k) for k in extra] if h)

    def _after_top(self, steps) -> list:
        """For each of ``steps`` (refused now), its choice once the pending
        action on top has taken effect, if that makes it allowed, else None;
        the pending action is resolved once for them all."""
        top = top_unresolved(self.enc)
        if top is None or not top.pending or not steps:
            return [None] * len(steps)
        what = self.namer.frame(top)
        if top.parts > 1:
            what = f"{self.namer.part(top)} {top.done + 1} of {what}"
        also = f", once {what} has taken effect"
        verdicts = []
        with trying(self.enc) as enc:
            if enc.step({"do": RESOLVE}).verdict == "rejected":
                return [None] * len(steps)
            for step in steps:
                with trying(enc):
                    try:
                        verdicts.append(enc.step(step))
                    except FsmError:
                        verdicts.append(None)
        out = []
        for step, v in zip(steps, verdicts):
            if v is None or v.verdict == "rejected":
                out.append(None)
                continue
            c = self.choice([{"do": RESOLVE}, step], "", key=_key(step) + ":after", verdict=v)
            out.append({**c, "also": also})
        return out

    def _provoked(self, step, cid):
        """An opportunity answer refused as not provoked, without a grid:
        allowed once the trigger's step says it provokes ``cid``."""
        if self.scene or step.get("to") is None:
            return None
        f = find(self.enc, step["to"])
        steps = self.doc.get("steps") or []
        if f is None or not 0 < f.step <= len(steps) or self.side.get(f.owner) == \
                self.side.get(cid) or (self.rs.words.only_moves_provoke and not f.moving):
            return None
        made = steps[f.step - 1]
        if not isinstance(made, dict) or cid in (made.get("provokes") or ()):
            return None
        v = self.enc.try_step(step)
        if v.reason != "not-provoked":
            return None
        from ..scenario import replay
        doc = json.loads(json.dumps(self.doc))
        doc["steps"][f.step - 1]["provokes"] = [*(made.get("provokes") or ()), cid]
        try:
            again = replay(doc, "scenario").encounter.try_step(step)
        except FsmError:
            return None
        if again.verdict == "rejected":
            return None
        words = (self.rs.words.provokes if f.moving else "{mover}'s action provokes {who}") \
            .format(mover=self.namer.who(f.owner), who=self.namer.who(cid))
        c = self.choice([step], "", verdict=again, key=_key(step) + ":provoked",
                        edits=[{"index": f.step, "provokes": cid}])
        return {**c, "also": f", if {words}"}     # a supposition, not a fact

    def _turn(self, top) -> tuple:
        """(the active combatant's turn, what anyone may do now, the rest refused)."""
        active = whose_turn(self.enc)
        turn, anyone, others, later = [], [], [], []
        for cid in self.order:
            for kind in self.rs.player_steps:
                if kind in self.rs.stack_moves or kind in self.rs.answer_kinds or kind == EVENT:
                    continue
                if kind == END_TURN and cid != active:
                    continue
                spec = self.rs.spec_of.get(kind)
                for c, step in self._turn_choices(kind, cid, active, spec):
                    if cid == active:
                        turn.append(c)
                        if c["verdict"] == "rejected":
                            later.append((c, step))
                    elif c["verdict"] != "rejected":
                        anyone.append(c)
                    else:
                        others.append(c)
        for (c, _), better in zip(later, self._after_top([s for _, s in later])):
            if better:          # each after the refused one it stands for
                turn.insert(turn.index(c) + 1, {**better, "label": c["label"] + better.pop("also"),
                                                "who": c["who"], "fields": c["fields"]})
        turn += [self.choice(steps, f"Skip to the start of {self.namer.who(who)}'s "
                             f"{'next ' if who == whose_turn(self.enc) else ''}turn"
                             f"{f' ({len(steps)} turns end first)' if len(steps) > 1 else ''}",
                             key=f"skip:{who}")
                 for steps, who in skips(self.enc, self.order)]
        anyone.append(self.choice([{"do": EVENT}], "Something happens (a trap, a fall, "
                                  "a spell's effect)", fields=self.fields(EVENT)))
        return turn, anyone, others

    def _turn_choices(self, kind, cid, active, spec) -> list:
        """(choice, step) of a turn's step: one per cost when it has a cost
        (a two-action activity), and past one action one more in one part (as
        a spell is), else one; and one per value the ruleset's words suggest
        for a free-text field (what is readied)."""
        variants = [{}]
        if spec is not None and spec.cost_field:
            variants = [{"cost": n} for n in range(COST_RANGE[0], COST_RANGE[1] + 1)] + \
                [{"cost": n, "parts": 1} for n in range(COST_RANGE[0] + 1, COST_RANGE[1] + 1)]
        for name in spec.text_fields if spec is not None and cid == active else ():
            variants += [{name: value} for value in self.rs.words.suggest.get(name, ())]
        if cid == active:
            variants += [dict(v) for v in self.rs.words.offers.get(kind, ())]
        if cid != active:
            variants = variants[:1]
        out = []
        for extra in variants:
            step = {"do": kind} if kind == END_TURN else {"actor": cid, "do": kind}
            label = f"End {self.namer.who(whose_turn(self.enc))}'s turn" if kind == END_TURN \
                else self.namer.noun(kind)
            step.update(extra)
            if extra:
                label += f" ({', '.join(self.namer.details(extra))})"
            c = self.choice([step], capital(label) if cid == active else label,
                            who=self.namer.who(cid), fields=self.fields(kind),
                            hint=self.rs.words.hints.get(kind, ""))
            if c is not None:
                out.append((c, step))
        return out

    def fields(self, kind, answer=False) -> list:
        return step_fields(self.rs, kind, list(self.enc.fighters), self.namer.who,
                           self.scene, answer)


def _key(step) -> str:
    """A choice's stable name for the page (and its tests)."""
    return ":".join(str(step.get(k, "")) for k in ("actor", "do", "to")) + "".join(
        f":{k}={v}" for k, v in sorted(step.items()) if k not in ("actor", "do", "to"))
