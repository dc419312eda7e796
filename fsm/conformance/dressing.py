"""How the fuzzer varies a step beyond what the explorer's alphabet offers:
dressed with fields the alphabet never sets, made forced movement on a scene,
or made unreadable (each way an error of spec/FORMAT.md)."""

from __future__ import annotations

import random

from ..engine.steps import makes_frame


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
    or teleported one square, to see whether it provokes."""
    who = data.get("actor") or pick.choice(ids)
    x, y = enc.fighters[who].at
    dx, dy = pick.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
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
