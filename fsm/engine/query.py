"""Questions asked of an encounter without changing it."""

from __future__ import annotations

from ..errors import StepError
from .crowd import Crowd, Possible, plan
from .rows import EVENT
from .setup import ANYONE


def possible(enc, *, share: bool = True):
    """What may happen now: for each combatant, each step kind it could take,
    with the verdict it would get (allowed, gm, or rejected with its reason);
    under ``"*"``, the stack moves, which nobody in particular takes.

    Of the combatants alike (:mod:`fsm.engine.crowd`) two are tried: when
    their answers are one another's with the names swapped, the others get
    the first one's worded for them as they are read; when not, all are tried. ``share=False`` (and
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
        out[ANYONE] = star
        return out
    crowd = enc.crowd = enc.crowd or Crowd(enc)
    single, tried = crowd.now(enc)
    done = {cid: answers(cid) for cid in single}
    like, plans = {}, {}
    for key, (first, second) in tried.items():
        done[first] = answers(first)
        if second is None:
            continue
        done[second] = answers(second)
        at = plan(first, second, done[first], done[second])
        if at is not None:
            like[key], plans[first] = first, at
            continue
        for cid in crowd.groups[key]:       # two of a class answered apart: try them all
            if cid not in done:
                done[cid] = answers(cid)
    return Possible(tuple(enc.fighters), done, dict(crowd.key_of), like, plans, star)
