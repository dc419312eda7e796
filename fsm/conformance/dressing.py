"""How the fuzzer varies a step beyond what the explorer's alphabet offers:
dressed with fields the alphabet never sets, made forced movement on a scene,
or made unreadable (each way an error of spec/FORMAT.md); and which steps it
tries again, or at once, where a mistaken budget or provocation would show."""

from __future__ import annotations

import random

from ..engine.steps import makes_frame
from ..errors import StepError


def dress(data: dict, enc, pick: random.Random, ids: list) -> dict:
    """``data`` with fields the explorer's alphabet never sets, chosen by
    ``pick``: an explicit id (now and then one already taken), a ruling, an
    actor on a stack move or an event (with one of the event's true/false
    fields), parts or attacks, what is readied, a name, a stated attack with
    targets."""
    out = dict(data)
    kind = out["do"]
    rs = enc.ruleset
    framed = makes_frame(rs, kind)
    roll = pick.randrange(8)
    if roll == 0 and framed:
        taken = [f.id for f in enc.stack] + list(enc.past_order[-3:])
        out["id"] = pick.choice(taken) if taken and pick.random() < 0.2 else \
            f"x{pick.randrange(1000)}"
    elif roll == 1:
        out["ruling"] = pick.choice(("allow", "deny"))
    elif roll == 2 and kind in rs.stack_moves and enc.stack:
        top = enc.stack[-1].owner
        out["actor"] = top if top is not None and pick.random() < 0.7 else pick.choice(ids)
    elif roll == 3 and kind == "event":
        out["actor"] = pick.choice(ids)
        flags = rs.spec_of[kind].flags if kind in rs.spec_of else ()
        if flags:           # what it says of its actor (5e: Concentration, a condition)
            flag = pick.choice(flags)
            out[flag] = flag not in rs.words.unflags or pick.random() < 0.5
    elif roll == 4 and framed and "path" not in out and "cost" not in out \
            and not any(k in out for k in ("squares", "attacks", "parts")):
        out[pick.choice(("parts", "attacks"))] = pick.randint(1, 3)
    elif roll == 5 and rs.spec_of.get(kind) is not None and rs.spec_of[kind].text_fields:
        # a free-text field (what a 4e ready readies): one of the turn's actions
        out[rs.spec_of[kind].text_fields[0]] = pick.choice(sorted(rs.turn_actions))
    elif roll == 6 and framed and enc.scene and kind != "event":
        out["attack"] = pick.choice(rs.scene.attack_kinds)
        out["targets"] = [pick.choice([i for i in ids if i != out.get("actor")] or ids)]
    elif roll == 7:
        out["name"] = f"step {pick.randrange(100)}"
    return out


def forced(data: dict, enc, pick: random.Random, ids: list) -> dict:
    """An event on a scene as forced movement: someone pushed, pulled, slid
    or teleported one square, to see whether it provokes; half the time away
    from the others (a square as far from the nearest as one square can go:
    out of a reach, most often)."""
    who = data.get("actor") or pick.choice(ids)
    x, y = enc.fighters[who].at
    ways = ((1, 0), (-1, 0), (0, 1), (0, -1))
    others = [f.at for c, f in enc.fighters.items() if c != who and f.at is not None]
    if others and pick.randrange(2):
        dx, dy = max(ways, key=lambda w: min(max(abs(x + w[0] - a), abs(y + w[1] - b))
                                             for a, b in others))
    else:
        dx, dy = pick.choice(ways)
    return dict(data, actor=who, forced=pick.choice(enc.ruleset.scene.forced_kinds),
                path=[[x + dx, y + dy]])


# Ways to make a step unreadable: each an error of spec/FORMAT.md
BREAKS = (
    lambda d, ids: dict(d, stride=1),                               # unknown-field
    lambda d, ids: dict(d, actor="nobody"),                         # unknown-combatant
    lambda d, ids: {"do": "resolve", "on": "x"},                    # field-of-another-kind
    lambda d, ids: {"do": "end-turn", "squares": 2},                # field-of-another-kind
    lambda d, ids: dict(d, squares=2, parts=2),                     # two-part-counts
    lambda d, ids: dict(d, parts=0),                                # bad-value
    lambda d, ids: {k: v for k, v in d.items() if k != "do"},       # missing-kind
    lambda d, ids: dict(d, do="stride"),                            # unknown-kind
    lambda d, ids: {k: v for k, v in d.items() if k != "actor"},    # missing-actor, often
    lambda d, ids: dict(d, to="nowhere"),                           # unknown-trigger, often
    lambda d, ids: dict(d, shift=True),                             # shift-without-path, often
    lambda d, ids: dict(d, path=[[0, 0], [5, 5]]),                  # path-without-scene, bad-path
    lambda d, ids: dict(d, provokes=["nobody"]),                    # unknown-combatant
)


# -- what the fuzzer tries again --------------------------------------------------

def alike(move, wanted) -> bool:
    """Whether ``move`` is the step ``wanted``: (actor, kind), or (actor,
    kind, fields) for one of another kind with one of those fields."""
    if len(wanted) == 2:
        return (move.actor, move.do) == wanted
    return move.actor == wanted[0] and move.do != wanted[1] \
        and not set(move.fields).isdisjoint(wanted[2])


def refused_answers(rs, alphabet, enc, probe, moved: str, modelled) -> list:
    """Each answer to the move (the frame on top) by another combatant that
    the reference refuses, once someone was moved (pushed, teleported), as a
    step the engine models: whether being moved provoked shows."""
    out, top = {}, len(enc.stack) - 1
    for m in alphabet.moves(enc):
        if m.do in rs.answers and (m.actor, m.do) not in out and m.target == top \
                and m.actor != moved:
            data = m.render(enc)
            try:
                if modelled(data) and probe.try_step(data).verdict == "rejected":
                    out[m.actor, m.do] = data
            except StepError:
                pass
    return list(out.values())


def turn_probes(rs, taken: list, active, limit: int) -> list:
    """What to try again when a turn has begun, each when offered at once: the
    last steps taken that answer something (a reaction or a readied action
    spent before: back too soon, or firing again) or that the one now acting
    may take (a budget of the turn)."""
    recent = list(dict.fromkeys((a, k) for a, k, _ in reversed(taken)))
    return [(a, k) for a, k in recent if k in rs.answers or a == active][:limit]
