"""Questions asked of an encounter without changing it."""

from __future__ import annotations

from ..errors import StepError
from .crowd import Crowd, Possible
from .rows import EVENT


def possible(enc, *, share: bool = True):
    """What may happen now: for each combatant, each step kind it could take,
    with the verdict it would get (allowed, gm, or rejected with its reason);
    under ``"*"``, the stack moves, which nobody in particular takes.

    Combatants alike (:mod:`fsm.engine.crowd`) are judged once: the others
    get that answer worded for them as they are read. ``share=False`` (and
    an encounter with an observer, which is told of every try) tries every
    combatant; the answers are the same."""
    rs = enc.ruleset
    asks = [(kind, {"do": kind, **({"cost": 1} if spec is not None and spec.cost_field
                                   else {})})
            for kind in rs.player_steps
            for spec in (rs.spec_of.get(kind),)
            if kind not in rs.stack_moves and kind != EVENT]

    def answers(cid) -> dict:
        out = {}
        for kind, data in asks:
            try:
                out[kind] = enc.try_step({**data, "actor": cid})
            except StepError:
                pass
        return out

    star = {kind: enc.try_step({"do": kind})
            for kind in rs.player_steps if kind in rs.stack_moves}
    if not share or enc.observer is not None:
        out: dict = {cid: answers(cid) for cid in enc.fighters}
        out["*"] = star
        return out
    if enc.crowd is None:
        enc.crowd = Crowd(enc)
    single, tried = enc.crowd.now(enc)
    done = {cid: answers(cid) for cid in (*single, *tried.values())}
    return Possible(tuple(enc.fighters), done, dict(enc.crowd.key_of), tried, star)
