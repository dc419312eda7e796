"""What happens to someone, offered by the builder apart from the turn: a
condition that starts or ends (5e: Incapacitated, unseen, Blinded, Prone),
taking effect at once, and, on a grid, forced movement (pushed, pulled,
slid, teleported: the ruleset's words), pending so that it may be answered,
whose squares its details form asks for. Each choice is an event with an
actor; its fields and words are read from the ruleset."""

from __future__ import annotations

from ..engine.rows import EVENT, RESOLVE
from .words import capital


def conditions(menu) -> list:
    """For each combatant, each condition the ruleset's events may change
    turned the other way in one click: the event, taking effect at once."""
    out = []
    for cid in menu.order:
        for name in menu.rs.words.unflags:
            step = {"actor": cid, "do": EVENT, name: not getattr(menu.enc.fighters[cid], name)}
            out.append(menu.choice([step, {"do": RESOLVE}],
                                   capital(", ".join(menu.namer.details(step))),
                                   who=menu.namer.who(cid)))
    return out


def forced(menu) -> list:
    """On a grid, for each combatant, each forced kind of the ruleset's
    events: the event, its squares asked for by its form (a teleport's one
    square, the others' walked from where it stands), left pending."""
    rs = menu.rs
    if not menu.scene or not rs.scene.forced_kinds:
        return []
    base = [f for f in menu.fields(EVENT) if f["name"] in ("name", "path")]
    out = []
    for cid in menu.order:
        verdict = menu.verdict_of([{"actor": cid, "do": EVENT}])     # the same, whatever
        if verdict is None:                                          # its squares
            continue
        for kind in rs.scene.forced_kinds:
            fields = [dict(f, required=True, jump=kind == rs.scene.jump or None)
                      if f["name"] == "path" else f for f in base]
            out.append(menu.choice([{"actor": cid, "do": EVENT, "forced": kind}],
                                   capital(rs.words.forced.get(kind, kind)),
                                   who=menu.namer.who(cid), fields=fields, verdict=verdict))
    return out
