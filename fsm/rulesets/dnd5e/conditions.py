"""D&D 5e (SRD 5.2.1): what an event changes in its actor's conditions and
Concentration (T-5E-CONDITIONS, T-5E-READY): a creature may become
Incapacitated, unseen, Blinded or Prone, or stop being so, during the
encounter; a spell it holds readied dissipates when its Concentration
breaks."""

from __future__ import annotations

CONCENTRATION = "concentration"     # an event's: its actor's Concentration breaks
# an event's, true or false: its actor gains or loses the condition
CONDITIONS = ("incapacitated", "unseen", "blinded", "prone")


def break_concentration(enc, st):
    """An event with ``concentration``: its actor's Concentration breaks, and a
    spell it readied dissipates without taking effect."""
    f = enc.fighters.get(st.actor) if CONCENTRATION in st.flags else None
    if f is not None:
        _dissipate(f, st, "Concentration breaks")


def set_conditions(enc, st):
    """An event's ``incapacitated``, ``unseen``, ``blinded`` or ``prone``: its
    actor has the condition from now on (true) or no longer (false); becoming
    Incapacitated breaks its Concentration (T-5E-CONDITIONS)."""
    f = enc.fighters.get(st.actor)
    if f is None:
        return
    for name in CONDITIONS:
        if name in st.flags or name in st.cleared:
            setattr(f, name, name in st.flags)
    if "incapacitated" in st.flags:
        _dissipate(f, st, "Concentration breaks as it becomes Incapacitated")


def _dissipate(f, st, why):
    if f.readied_spell:
        st.outcomes.notes.append(f"{f.id}'s {why}: the spell it readied "
                                 f"({f.readied}) dissipates without taking effect")
        f.readied, f.readied_spell = None, False
