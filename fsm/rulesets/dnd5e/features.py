"""D&D 5e: the additional action a feature gives on one's turn (Action Surge,
Haste), a limit the combat sections do not state; the published rules, the
step saying which feature is used (spec/divergences.yaml, ASM-5E-FEATURES;
TIMING.md, T-5E-TURN, *Features*). A Dash or Disengage taken as the Bonus
Action is checked by the Bonus Action's own limits (``limits``)."""

from __future__ import annotations

from ...engine.guard import guard
from .limits import ADDITIONAL, BONUS, SLOT, SPELL, paid_by_feature


def _seen(words: str):
    def seen(enc, st):
        said = words.format(actor=st.actor) if ADDITIONAL in st.flags else ""
        return {"actor": st.actor, "ok": said}
    return seen


@guard("additional-action-used", "{actor} has taken an additional action this turn "
       "already; a feature such as Action Surge or Haste gives one a turn",
       seen=_seen("{actor} has taken no additional action this turn"), ok="{ok}")
def additional_left(enc, st):
    """One additional action a turn, when the step says a feature gives it."""
    return ADDITIONAL not in st.flags or not enc.fighters[st.actor].additional_used


@guard("additional-action-magic", "the additional action of Action Surge or Haste is "
       "never the Magic action; {actor}'s casts a spell",
       seen=_seen("{actor}'s additional action casts no spell"), ok="{ok}")
def additional_not_magic(enc, st):
    """The additional action casts no spell (it is never the Magic action)."""
    return ADDITIONAL not in st.flags or not st.flags & {SPELL, SLOT}


def spend_action(enc, st):
    """The turn's action, or what a feature pays with instead: the Bonus
    Action, the additional action (both, when the step says both)."""
    f = enc.fighters[st.actor]
    if BONUS in st.flags:
        f.bonus_used = True
    if ADDITIONAL in st.flags:
        f.additional_used = True
    if not paid_by_feature(st):
        f.action_used = True
