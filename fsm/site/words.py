"""Steps, verdicts and moments as a player says them, for the pages and the
live checker: "Goblin's standard action", "No: Orc has used its Reaction
and gets it back only at the start of its own turn", "Ayla spends her
immediate action". Frame ids, turn moments' ids, the stack, rule and option
ids stay in the details (and in JSON); the words are the ruleset's
(:class:`~fsm.rulesets.words.Words`; a kind it does not word: its own name).

A :class:`Namer` is made for one scenario (its combatants' names, which of
its steps would read alike and so say their number); its methods read an
encounter at the moment asked (a step's title: just before the step).
"""

from __future__ import annotations

import re
import string
from collections import Counter

from ..engine.frames import EVENT as EVENT_FRAME, TURN_END, TURN_KINDS, TURN_START
from ..engine.rows import (ACTING, AFTER, BEFORE, CONTINUE, END_TURN, ENDING, EVENT,
                           RESOLVE, STARTING)
from ..engine.turn import whose_turn
from ..rulesets.words import COUNT, COUNTED, FEET, USED, WHAT

SHORT = 36               # a name is cut to this many characters in a step's title
_MOMENT_ID = re.compile(r"(turn-start|turn-end)@([0-9]+)\Z")
_MACHINE = (re.compile(r" ?\((?:\d+/\d+ [a-z ]*|[a-z_]+=[^)]*|outcome: [^)]*)\)"),
            re.compile(r"\btrigger (?=\{)"))

_OPTION = re.compile(r"\boption ([a-z_]+)\b")     # an option by its id (option_hint's words)
_INNARDS = re.compile(r"\b(?:stack|frames?|s\d+|turn-(?:start|end)@\d+)\b")


def display(cid, name=None) -> str:
    """A combatant as it is named for people: its ``name``, else its id with
    a capital ("orc" reads "Orc"; "the orc" stays)."""
    if isinstance(name, str) and name.strip():
        return name.strip()
    cid = str(cid)
    return cid if cid[:4].lower() == "the " else cid[:1].upper() + cid[1:]


def split_say(say: str) -> tuple:
    """("No", ": the reason.") of a verdict's sentence: its answer, set apart
    on a page, and the rest."""
    for head in ("Yes", "No", "The GM decides"):
        if say.startswith(head):
            return head, say[len(head):]
    return say, ""


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def short(text, width=SHORT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 1] + "\u2026"


class _Slots(dict):
    def __missing__(self, key):
        return "\u2026"


class Namer:
    """Words for one scenario's steps (module docstring)."""

    def __init__(self, ruleset, doc):
        self.rs, self.w = ruleset, ruleset.words
        combatants = [c for c in doc.get("combatants") or () if isinstance(c, dict)]
        self.names = {c["id"]: display(c["id"], c.get("name")) for c in combatants
                      if isinstance(c.get("id"), str)}
        self.steps = [s if isinstance(s, dict) else {} for s in doc.get("steps") or ()]
        self.alike = Counter(self._key(s) for s in self.steps)
        self._ids = None          # a pattern of the combatants' ids, made when first needed

    @staticmethod
    def _key(s):
        name = s.get("name")
        return (s.get("actor"), s.get("do"), name if isinstance(name, str) else None)

    # -- names ----------------------------------------------------------------------

    def who(self, cid) -> str:
        return self.names.get(cid) or display(cid) if cid is not None else "nobody"

    def noun(self, kind) -> str:
        return self.w.kinds.get(kind) or str(kind).replace("-", " ").replace("_", " ")

    def frame(self, f) -> str:
        """An action, answer, event or turn moment by who does what."""
        if f is None:
            return "nothing"
        if f.kind == TURN_START:
            return f"the start of {self.who(f.owner)}'s turn"
        if f.kind == TURN_END:
            return f"the end of {self.who(f.owner)}'s turn"
        made = self.steps[f.step - 1] if 0 < f.step <= len(self.steps) else {}
        if f.kind == EVENT_FRAME:
            text = f"the event “{short(f.name)}”" if f.name else "the event"
        else:
            text = f"{self.who(f.owner)}'s {self.noun(f.kind)}"
            if f.name:
                text += f" “{short(f.name)}”"
        if self.alike[self._key(made)] > 1 or (f.kind == EVENT_FRAME and not f.name):
            text += f" (step {f.step})"
        return text

    def frame_id(self, enc, fid) -> str:
        """A frame by its id, as :meth:`frame` names it (a moment's id too)."""
        f = find(enc, fid)
        if f is not None:
            return self.frame(f)
        m = _MOMENT_ID.match(str(fid))
        if m:
            turn = enc.turn_of(int(m.group(2)))
            who = self.who(turn[1]) if turn else "someone"
            return f"the {'start' if m.group(1) == TURN_START else 'end'} of {who}'s turn"
        return "a trigger"

    def part(self, f) -> str:
        """What one part of a frame is: a square, an attack, an action, a part."""
        made = self.steps[f.step - 1] if 0 < f.step <= len(self.steps) else {}
        if len(f.path) < f.parts and f.path:        # squares, then an attack after them
            return "part"
        if f.moving or made.get("path") or made.get("squares"):
            return "square"
        if made.get("attacks"):
            return "attack"
        if made.get("cost"):
            return dict(COUNTED)["cost"][0]
        return "part"

    # -- a step, just before it ------------------------------------------------------

    def title(self, enc, data) -> str:
        """What a step does, by who does it ("Ayla's immediate reaction to
        Goblin's standard action"), read just before it is judged."""
        if not isinstance(data, dict):
            return "a step that cannot be read"
        kind, actor = data.get("do"), data.get("actor")
        if kind in self.rs.stack_moves:
            return capital(self._stack_move(enc, kind))
        if kind == END_TURN:
            return f"{self.who(actor or whose_turn(enc))}'s turn ends"
        if kind == EVENT:
            text = "Something happens" + (f" to {self.who(actor)}" if actor else "")
            if data.get("name"):
                text += f": “{short(data['name'])}”"
        else:
            text = f"{self.who(actor)}'s {self.noun(kind)}"
            if data.get("name"):
                text += f" “{short(data['name'])}”"
        extra = self.details(data)
        text += f" ({', '.join(extra)})" if extra else ""
        if kind in self.rs.answer_kinds:
            text += f" to {self.trigger(enc, data)}"
        return capital(text)

    def details(self, data) -> list:
        """The fields of a step that change what it is, in words."""
        out = []
        for key, (one, many) in COUNTED:
            n = data.get(key)
            if isinstance(n, int) and not isinstance(n, bool) and (n > 1 or key == "cost"):
                out.append(f"{n} {one if n == 1 else many}")
        if data.get("parts") == 1 and isinstance(data.get("cost"), int) and data["cost"] > 1:
            out.append("in one go")         # one part for all its actions (a spell)
        for flag in sorted(f for f in self.rs.flag_fields if isinstance(data.get(f), bool)):
            words = self.w.flags if data[flag] else self.w.unflags
            if data[flag] or flag in words:
                out.append(words.get(flag) or flag.replace("_", " "))
        for key, text in sorted((k, v) for k, v in data.items()
                                if isinstance(v, str) and k in _text_fields(self.rs)):
            said = self.who(text) if key == "by" else text.replace("-", " ")    # by Orc
            out.append(f"{key.replace('_', ' ')} {short(said, 24)}")
        if isinstance(data.get("on"), str) and data["on"]:
            label = self.w.labels.get(data["on"])
            out.append(label.format_map(_Slots(actor=self.who(data.get("actor")))) if label
                       else f"on “{short(data['on'], 24)}”")
        targets = data.get("targets")
        at = " at " + ", ".join(map(self.who, targets)) if isinstance(targets, list) else ""
        attack = f"{data['attack']} attack{at}" if isinstance(data.get("attack"), str) else ""
        out += [attack] if attack else []
        path = data.get("path")
        if isinstance(path, list) and path and isinstance(path[-1], list):
            jump = self.rs.scene.jump
            where = f"to ({path[-1][0]},{path[-1][1]})"
            if jump and (data.get("forced") == jump or data.get(jump) is True):
                out.append(where if data.get(jump) is True else f"{jump} {where}")   # no walk
            else:
                how = data.get("forced") or ("shifting" if data.get("shift") is True
                                             else "moving")
                out.append(f"{how} {len(path)} square{'s' * (len(path) > 1)} {where}")
            if attack and self.w.flags.get(self.rs.scene.after) in out:     # then the attack
                out.remove(attack)
                out.remove(self.w.flags[self.rs.scene.after])
                out.append(f"then {attack}")
        provokes = data.get("provokes")
        if isinstance(provokes, list) and provokes:
            out.append(self.w.provokes.format_map(_Slots(
                mover="it", who=", ".join(map(self.who, provokes)))))
        return out

    def trigger(self, enc, data) -> str:
        to = data.get("to")
        if to in (TURN_START, TURN_END):
            return f"the {'start' if to == TURN_START else 'end'} of " \
                   f"{self.who(enc.active)}'s turn"
        if isinstance(to, str):
            return self.frame_id(enc, to)
        return self.frame(enc.stack[-1]) if enc.stack else "nothing"

    def _stack_move(self, enc, kind) -> str:
        f = top_unresolved(enc)
        if f is None:
            return "What is waiting takes effect" if kind == RESOLVE else \
                f"What is waiting: {self.noun(kind)}"
        ref = self.frame(f)
        between = f.done >= 1 and f.phase != "pending"
        if kind == RESOLVE:
            if f.parts > 1:
                n = f.done + 1
                last = " (the last)" if n == f.parts else ""
                return f"{ref}: {self.part(f)} {n} of {f.parts} takes effect{last}"
            return f"{ref} takes effect"
        if kind == CONTINUE:
            if between:
                return f"{ref} goes on: {self.part(f)} {f.done + 1} of {f.parts} begins"
            return f"{ref} goes on"
        move = self.w.moves.get(kind)
        return (move.split(":")[0] if move else f"{self.noun(kind)}: {{frame}}").format_map(
            _Slots(frame=ref))

    # -- a verdict -------------------------------------------------------------------

    def say(self, enc, data, verdict) -> str:
        """The verdict in one sentence a player would say, read just after the
        step (for a refusal the state is the one it was judged in)."""
        if verdict.verdict == "allowed":
            kind = data.get("do") if isinstance(data, dict) else None
            move = self.w.moves.get(kind)
            if move and verdict.target_id:
                said = "Yes: " + move.format_map(_Slots(frame=self.frame_id(
                    enc, verdict.target_id)))
                f = find(enc, verdict.target_id)
                if f is not None and f.cost:          # what the action cost, said in numbers
                    one, many = dict(COUNTED)["cost"]
                    said += f" ({self.who(f.owner)}'s {f.cost} {one if f.cost == 1 else many})"
                return said + "."
            why = "" if kind in self.rs.stack_moves else self._why_yes(enc, verdict)
            return f"Yes: {why}." if why else "Yes."
        head = "The GM decides" if verdict.verdict == "gm" else "No"
        return f"{head}: {self.reason(enc, verdict)}."

    def _why_yes(self, enc, verdict) -> str:
        """The last limit an allowed step met, the one nearest to refusing it
        (a budget, a window), in a player's words; '' when none was said."""
        for template, values in reversed(verdict.templates[1] if verdict.templates else ()):
            for pattern in _MACHINE[1:]:
                template = pattern.sub("", template)
            slots = _Slots({k: self._value(enc, v) for k, v in (values or {}).items()})
            text = _MACHINE[0].sub("", string.Formatter().vformat(template, (), slots))
            for fid in {v for v in (values or {}).values() if find(enc, v) is not None}:
                # a frame named inside a sentence a limit made ("swing has resolved")
                text = re.sub(rf"(?<![\w-]){re.escape(fid)}(?![\w-])",
                              lambda _, f=fid: self.frame_id(enc, f), text)
            if not _INNARDS.search(text):       # the stack's own words stay in the details
                return text
        return ""

    def reason(self, enc, verdict) -> str:
        """What refused a step (or left it to the GM), in a player's words."""
        template = self.w.reason(verdict.reason) or verdict.templates[0] or verdict.says or ""
        for pattern in _MACHINE[1:]:
            template = pattern.sub("", template)
        slots = _Slots()
        for key, value in (verdict.seen or {}).items():
            slots[key] = self._value(enc, value)
        top = top_unresolved(enc)
        slots.setdefault("pending", self.frame(top) if top else "another action")
        text = string.Formatter().vformat(template, (), slots) if template else verdict.reason
        return _OPTION.sub(self._option, _MACHINE[0].sub("", text)) or "the rules forbid it"

    def _option(self, match) -> str:
        """An option named by its id, said by what it decides (its doc up to a pause)."""
        opt = self.rs.option(match.group(1))
        return f"the table's option “{re.split(r'[:;(]', opt.doc, maxsplit=1)[0].strip()}”" \
            if opt else match.group(0)

    def _value(self, enc, value):
        if not isinstance(value, str):
            return value
        if value in self.names:
            return self.who(value)
        f = find(enc, value)
        if f is not None or _MOMENT_ID.match(value):
            return self.frame_id(enc, value)
        head = value.split(" (", 1)[0]        # "s2 (ayla's interrupt)"
        if head != value and (find(enc, head) is not None or _MOMENT_ID.match(head)):
            return self.frame_id(enc, head)
        if self._ids is None:
            ids = sorted(self.names, key=len, reverse=True)
            self._ids = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])") \
                if ids else False
        return self._ids.sub(lambda m: self.who(m.group(1)), value) if self._ids else value

    def costs(self, before: dict, after: dict, actor) -> str:
        """What a step spent, from the budgets just before it and after it
        ("Ayla's immediate action; Orc's 2 actions (1 left)"); '' when nothing."""
        out = []
        for cid in ([actor] if actor in after else []) + [c for c in after if c != actor]:
            old, new = before.get(cid) or {}, after.get(cid) or {}
            spent = [p for key in new for p in [self._spent(key, old.get(key), new[key])] if p]
            if spent:
                out.append(f"{self.who(cid)}'s {' and '.join(spent)}")
        return "; ".join(out)

    def _spent(self, key, old, new) -> str:
        noun, how = self.w.budgets.get(key) or (key.replace("_", " "), COUNT)
        if old == new or how is None:
            return ""
        if how == WHAT:
            return f"{noun} ({old})" if new is None else ""
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (old, new)):
            return ""
        if how == FEET and new < old:
            return f"{noun}: {old - new} ft ({new} ft left)"
        if how == USED and new > old:
            return f"{noun} ({new} this turn)"
        if how == COUNT and new < old:
            n = old - new
            left = f" ({new} left)" if old > 1 else ""
            return f"{noun}{left}" if n == 1 else f"{n} {noun}s{left}"
        return ""

    def purse(self, budgets: dict) -> str:
        """Every combatant's budgets, named ("Ayla: standard action 1, ...")."""
        out = []
        for cid, row in budgets.items():
            parts = []
            for key, value in row.items():
                noun, how = self.w.budgets.get(key) or (key.replace("_", " "), COUNT)
                if how == WHAT:
                    parts.append(f"{noun}: {value if value is not None else 'none'}")
                elif how == FEET:
                    parts.append(f"{noun} {value} ft")
                elif how == USED:
                    parts.append(f"{noun}s used {value}")
                else:
                    parts.append(f"{noun} {'no limit' if value is None else value}")
            out.append(f"{self.who(cid)}: {', '.join(parts)}")
        return "; ".join(out)

    # -- the moment ------------------------------------------------------------------

    def now(self, enc) -> str:
        """Where play stands, in one sentence."""
        who, state = self.who(enc.active), enc.state
        head = f"Round {enc.round}, {who}'s turn"
        top = top_frame(enc)
        if state == STARTING:
            return f"{head}: it starts; what answers its start comes now"
        if state == ENDING:
            return f"{head}: it is ending; {self.who(whose_turn(enc))}'s turn comes next"
        if state == ACTING or top is None:
            return f"{head}: {who} may act"
        ref = self.frame(top)
        if state == BEFORE:
            part = f" ({self.part(top)} {top.done + 1} of {top.parts})" if top.parts > 1 else ""
            return f"{head}: {ref}{part} is declared and has not taken effect yet"
        if state == AFTER and top.parts > 1 and top.done < top.parts and top.outcome is None:
            return f"{head}: {self.part(top)} {top.done} of {top.parts} of {ref} has " \
                   f"taken effect"
        if top.outcome in (None, "resolved"):
            return f"{head}: {ref} has taken effect"
        return f"{head}: {ref} has no effect (it was {top.outcome})"


def _text_fields(rs) -> set:
    return {f for s in rs.step_specs for f in s.text_fields}


def find(enc, fid):
    """A frame by id, on the stack or gone from it (None if none)."""
    if not isinstance(fid, str):
        return None
    return enc.find(fid) or enc.past.get(fid)


def top_unresolved(enc):
    """The frame a resolve or continue acts on now (None if nothing waits)."""
    return next((f for f in reversed(enc.stack)
                 if f.outcome is None and f.kind not in TURN_KINDS), None)


def top_frame(enc):
    return next((f for f in reversed(enc.stack) if f.kind not in TURN_KINDS), None)
