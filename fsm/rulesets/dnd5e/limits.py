"""D&D 5e (SRD 5.2.1): the creature's budgets, and the guards and effects
only this ruleset has. The rows hold these guards through the table's guard
book (``table.GUARDS``), which names them by keyword.

A creature has one action, at most one Bonus Action (if a feature grants
one), its Speed in feet and one free object interaction on each of its
turns; one Reaction from the start of one of its turns to the start of the
next; at most one spell slot expended per turn (option ``slot_reactions``).
"""

from __future__ import annotations

from ...engine.frames import DISRUPTED, RESOLVED, TURN_KINDS, Fighter
from ...engine.guard import guard
from .. import common as c
from .squares import DIFFICULT, FEET_PER_SQUARE, SIZES, feet, square_feet

TURN_ACTIONS = frozenset({"action", "dash", "disengage", "ready", "bonus", "move",
                          "interact"})
ACTIONS = frozenset({"action", "dash", "disengage", "ready"})    # each costs the action
ANSWERS = ("reaction", "opportunity", "readied")
STACK_MOVES = frozenset({"resolve", "continue", "counter"})
SPELL, SLOT, BEFORE = "spell", "slot", "before"
# a step's: a feature pays for the action (features.py, ASM-5E-FEATURES)
BONUS, ADDITIONAL = "bonus", "additional"
# the texts' two Reactions that come before their trigger, cited where they fit
SHIELD, COUNTERSPELL = "5E-SHIELD", "5E-COUNTERSPELL"


class Fighter5e(Fighter):
    """What a creature has left of its turn and its Reaction, and what it has readied."""

    __slots__ = ("speed", "bonus", "incapacitated", "unseen", "blinded", "prone", "size",
                 "action_used", "bonus_used", "additional_used", "movement", "interaction_used",
                 "disengaged", "reaction_used", "slot_turn", "readied", "readied_spell",
                 "readied_when", "move_feet")
    FIELDS = {"speed": (0, 1000), "bonus": bool, "incapacitated": bool, "unseen": bool,
              "blinded": bool, "prone": bool, "size": SIZES}

    def __init__(self, id, side, *, speed: int = 30, bonus: bool = False,
                 incapacitated: bool = False, unseen: bool = False, blinded: bool = False,
                 prone: bool = False, size: str = "medium"):
        super().__init__(id, side)
        self.speed = speed
        self.bonus = bonus                 # a feature grants it a Bonus Action
        self.incapacitated = incapacitated
        self.unseen = unseen               # nobody can see it (invisible, hidden)
        self.blinded = blinded             # it can see nobody
        self.prone = prone                 # it crawls, or stands up first (T-5E-PRONE)
        self.size = size                   # one of SIZES (T-5E-SPACES)
        self.action_used = self.bonus_used = self.interaction_used = False
        self.additional_used = False       # a feature's additional action (Action Surge)
        self.disengaged = False            # its movement provokes nothing this turn
        self.movement = speed              # feet left this turn
        self.reaction_used = False
        self.slot_turn = -1                # the turn in which it last expended a spell slot
        self.readied = None                # what it has readied, until its next turn
        self.readied_spell = False         # a spell held with Concentration
        self.readied_when = (None, None)   # the circumstance it fires on, and whose (ready.py)
        self.move_feet = None    # its last move's (id, feet per part), one not 5 ft


# -- what guards see, for explanations ------------------------------------------------

def _seen(enc, st):
    f = enc.fighters[st.actor]
    return {"actor": st.actor, "active": enc.active, "movement": f.movement,
            "feet": feet(enc, st), "readied": f.readied or "nothing"}


# -- guards -----------------------------------------------------------------------------

@guard("incapacitated", "{actor} is Incapacitated: it takes no action, Bonus Action or "
       "Reaction", seen=_seen, ok="{actor} is not Incapacitated")
def able_to_act(enc, st):
    """An Incapacitated creature takes no action, Bonus Action or Reaction."""
    return not enc.fighters[st.actor].incapacitated


def paid_by_feature(st) -> bool:
    """Whether a feature pays for the step's action: it is taken as the Bonus
    Action or as the additional action (ASM-5E-FEATURES)."""
    return bool(st.flags & {BONUS, ADDITIONAL})


def a_bonus_action(st) -> bool:
    return st.kind == "bonus" or BONUS in st.flags


def _only_if(applies, words: str):
    """A guard's ``seen`` whose ``ok`` words are said only of a step it applies to."""
    def seen(enc, st):
        return {**_seen(enc, st), "ok": words.format(actor=st.actor) if applies(st) else ""}
    return seen


@guard("action-used", "{actor} has taken its action this turn already",
       seen=_only_if(lambda st: not paid_by_feature(st),
                     "{actor} has not taken its action this turn"), ok="{ok}")
def action_left(enc, st):
    """One action on your turn (Attack, Dash, Disengage, Ready, Magic, ...),
    unless a feature pays for it."""
    return paid_by_feature(st) or not enc.fighters[st.actor].action_used


@guard("no-bonus-action", "no feature of {actor}'s grants it a Bonus Action, and it casts "
       "no spell as one", ok="{ok}", seen=_only_if(
           a_bonus_action, "a feature of {actor}'s, or the spell it casts, grants it one"))
def bonus_granted(enc, st):
    """A Bonus Action exists only when a feature, spell or ability grants one:
    the creature's ``bonus``, or the spell a ``bonus`` casts (``spell``, ``slot``)."""
    return not a_bonus_action(st) or enc.fighters[st.actor].bonus or \
        (st.kind == "bonus" and bool(st.flags & {SPELL, SLOT}))


@guard("bonus-action-used", "{actor} has taken a Bonus Action this turn already",
       seen=_only_if(a_bonus_action, "{actor} has taken no Bonus Action this turn"),
       ok="{ok}")
def bonus_left(enc, st):
    """At most one Bonus Action on a turn."""
    return not a_bonus_action(st) or not enc.fighters[st.actor].bonus_used


def _own_move_or_action(enc, actor):
    for frame in enc.stack:
        if frame.owner == actor and frame.outcome is None \
                and (frame.kind in ACTIONS or frame.kind == "move"):
            return frame
    return None


@guard("not-during-move-or-action", "{actor} has no move or action of its own under way; "
       "the free interaction comes during one", seen=c.target_seen,
       ok="{actor}'s own move or action is under way")
def during_own_move_or_action(enc, st):
    """The free object interaction happens during your move or your action."""
    return _own_move_or_action(enc, st.actor) is not None


@guard("interaction-used", "{actor} has had its free object interaction this turn; "
       "another needs the Utilize action", seen=_seen,
       ok="{actor} has not had its free object interaction this turn")
def interaction_left(enc, st):
    """One free object interaction per turn."""
    return not enc.fighters[st.actor].interaction_used


@guard("reaction-used", "{actor} has taken a Reaction since the start of its last turn",
       seen=_seen, ok="{actor} has its Reaction")
def reaction_left(enc, st):
    """One Reaction, back at the start of your next turn."""
    return not enc.fighters[st.actor].reaction_used


def _timing_seen(before: bool):
    def seen(enc, st):
        out = c.target_seen(enc, st)
        comes_before = st.kind != "reaction" or BEFORE in st.flags
        out["ok"] = "" if comes_before != before else (
            f"{out['trigger']} has not taken effect yet ({out['done']}/{out['parts']} parts "
            "done)" if before else
            f"{out['trigger']} has resolved ({out['done']}/{out['parts']} parts)"
            if st.target is not None and st.target.kind not in TURN_KINDS
            else f"{out['trigger']} is a moment of the turn, which a Reaction may follow")
        return out
    return seen


def _examples_that_fit(enc, st, rules):
    """Of Shield and Counterspell, the example a reaction spell before its
    trigger follows: Shield answers an attack, Counterspell a casting (a
    spell with an ``attack``, Magic Missile say, is both); a Reaction that
    casts no spell follows neither."""
    t = st.target
    cast = bool(st.flags & {SPELL, SLOT}) and t is not None and t.kind not in TURN_KINDS
    casting = cast and bool(t.flags & {SPELL, SLOT})
    fits = {SHIELD: cast and (not casting or t.attack is not None), COUNTERSPELL: casting}
    return [r for r in rules if fits.get(r, True)]


@guard("trigger-already-resolved",
       "trigger {trigger} has already resolved ({done}/{parts} parts); this Reaction comes "
       "before its trigger takes effect", seen=_timing_seen(True), ok="{ok}",
       bears=_examples_that_fit)
def before_its_trigger(enc, st):
    """A Reaction whose description puts it before its trigger (``before``; an
    Opportunity Attack always) answers it while the trigger is pending."""
    if st.kind == "reaction" and BEFORE not in st.flags:
        return True
    return st.target.pending


@guard("trigger-not-resolved",
       "trigger {trigger} has not resolved yet ({done}/{parts} parts); a Reaction comes "
       "right after its trigger", seen=_timing_seen(False), ok="{ok}")
def after_its_trigger(enc, st):
    """A Reaction comes right after its trigger (a turn moment, or a resolved
    part), unless its description says otherwise (``before``)."""
    if BEFORE in st.flags:
        return True
    t = st.target
    return t.kind in TURN_KINDS or t.phase == RESOLVED


@guard("nothing-readied", "{actor} has nothing readied", seen=_seen,
       ok="{actor} has readied {readied}")
def something_readied(enc, st):
    """A readied response needs a Ready action taken since the start of your last turn."""
    return enc.fighters[st.actor].readied is not None


def _shape_seen(enc, st):
    f = enc.fighters[st.actor]
    seen = {"actor": st.actor, "parts": st.parts, "speed": f.speed, "feet": feet(enc, st),
            "attack": f" ({st.attack})" if st.attack else "", "kind": st.kind,
            "shape": "", "within": ""}
    if st.kind == "readied":
        seen["shape"] = (f"{st.actor}'s readied response is a move" if _a_move(st) else
                         f"{st.actor} readied a spell, whose parts stand" if f.readied_spell
                         else f"{st.actor}'s readied response makes one attack")
        if _a_move(st):
            seen["within"] = (f"{st.actor}'s readied move covers {feet(enc, st)} ft, within its "
                              f"Speed ({f.speed} ft)")
    return seen


@guard("one-melee-attack", "an Opportunity Attack is one melee attack; {actor}'s has "
       "{parts} part(s){attack}", seen=_shape_seen,
       ok="{actor}'s Opportunity Attack is one melee attack")
def one_melee_attack(enc, st):
    """An Opportunity Attack makes one melee attack: one part, no other kind."""
    return st.parts == 1 and st.attack in (None, "melee")


def _a_move(st) -> bool:
    return st.moving or bool(st.path) or DIFFICULT in st.flags


@guard("extra-attack-on-your-turn", "{actor}'s readied response makes {parts} attacks; "
       "taken with the Reaction, an Attack action makes one (Extra Attack and its like "
       "work on one's own turn)", seen=_shape_seen,
       ok="{shape}")
def readied_one_attack(enc, st):
    """A readied Attack is taken with the Reaction, off one's turn: one attack
    (a readied spell, or a move, keeps its parts)."""
    return _a_move(st) or enc.fighters[st.actor].readied_spell or st.parts == 1


@guard("not-enough-movement", "{actor}'s readied move covers {feet} ft; Ready lets it "
       "move up to its Speed, {speed} ft", seen=_shape_seen,
       ok="{within}")
def readied_move_within_speed(enc, st):
    """A readied move goes up to the creature's Speed (its turn's movement is
    not what it spends)."""
    return not _a_move(st) or feet(enc, st) <= enc.fighters[st.actor].speed


def _slot_seen(enc, st):
    f = enc.fighters[st.actor]
    ok = ""
    if SLOT in st.flags:
        ok = ("a Reaction's spell slot is free of the one-slot limit (option "
              "slot_reactions: exempt)" if _exempt(enc, st)
              else f"{st.actor} has expended no spell slot on this turn")
    hint = c.option_hint("slot_reactions", "exempt") if st.kind == "reaction" else ""
    return {"actor": st.actor, "when": enc.describe_turn(f.slot_turn), "ok": ok, "hint": hint}


@guard("spell-slot-used", "{actor} has expended a spell slot on this turn already "
       "({when}){hint}", seen=_slot_seen, ok="{ok}")
def slot_left(enc, st):
    """One spell slot per turn, a Reaction's counted (the literal reading,
    option ``slot_reactions: counted``) or not (``exempt``)."""
    if SLOT not in st.flags or _exempt(enc, st):
        return True
    return enc.fighters[st.actor].slot_turn != enc.turn_serial


def _exempt(enc, st) -> bool:
    return st.kind == "reaction" and enc.options["slot_reactions"] == "exempt"


def _counted(enc, frame) -> bool:
    """Whether ``frame`` expended a slot that counts toward its owner's one
    slot of its turn: it has ``slot`` and is no exempt Reaction (T-5E-SPELLS)."""
    return SLOT in frame.flags and not _exempt(enc, frame)


@guard("not-a-spell", "{trigger} is not a spell being cast", seen=c.target_seen,
       ok="{trigger} is a spell being cast")
def casting_a_spell(enc, st):
    """Only a spell's casting can be countered."""
    return bool(st.target.flags & {SPELL, SLOT})


def _countering(enc, frame) -> list:
    return [who for (fid, _, who), kinds in enc.uses.items()
            if fid == frame.id and any(kind == SPELL for kind, _ in kinds)]


@guard("not-counterspelled", "no reaction spell answered {trigger} before it took effect",
       seen=c.target_seen, ok="a reaction spell answered {trigger} before it took effect")
def counterspelled(enc, st):
    """A casting is countered by a reaction spell cast before it took effect."""
    return bool(_countering(enc, st.target))


# -- effects ------------------------------------------------------------------------------

def spend_bonus(enc, st):
    enc.fighters[st.actor].bonus_used = True


def spend_movement(enc, st):
    """The feet of the move, spent as it is declared; what each part cost is
    kept when one was not 5 ft, for a stop (movement.feet_back)."""
    costs = square_feet(enc, st)
    f = enc.fighters[st.actor]
    f.movement -= sum(costs)
    f.move_feet = (st.fid, tuple(costs)) if any(cost != FEET_PER_SQUARE for cost in costs) \
        else None


def dash(enc, st):
    """Extra movement equal to your Speed for the rest of the turn."""
    f = enc.fighters[st.actor]
    f.movement += f.speed


def disengage(enc, st):
    """Your movement provokes no Opportunity Attack for the rest of the turn."""
    enc.fighters[st.actor].disengaged = True


def use_interaction(enc, st):
    enc.fighters[st.actor].interaction_used = True


def spend_reaction(enc, st):
    enc.fighters[st.actor].reaction_used = True


def spend_slot(enc, st):
    """A spell cast with a slot expends it on this turn (a Reaction's, unless
    it is exempt)."""
    if SLOT in st.flags and not _exempt(enc, st):
        enc.fighters[st.actor].slot_turn = enc.turn_serial


def note_spell(enc, st):
    """A reaction spell cast before its trigger: remembered, so that the
    casting it answers can be countered."""
    if st.flags & {SPELL, SLOT} and BEFORE in st.flags:
        key = (st.target.id, st.target.occurrence, st.actor)
        enc.uses[key] = enc.uses.get(key, ()) + ((SPELL, st.on),)


def note_readied(enc, st):
    """What is readied: the step's ``readies``, or an action."""
    f = enc.fighters[st.actor]
    f.readied = st.text.get("readies") or "an action"
    f.readied_spell = bool(st.flags & {SPELL, SLOT})
    f.readied_when = (st.text.get("when"), st.text.get("by"))


def use_readied(enc, st):
    f = enc.fighters[st.actor]
    f.readied, f.readied_spell = None, False


def counter(enc, st):
    """The countered spell dissipates: no effect, the action that cast it is
    wasted, and a spell slot it used is not expended (only a slot that
    counted toward the turn's one slot is given back: an exempt Reaction's
    never counted)."""
    top = enc.stack[-1]
    c.void(enc, st, DISRUPTED)
    owner = enc.fighters.get(top.owner)
    if owner is not None and _counted(enc, top) and owner.slot_turn == top.turn:
        owner.slot_turn = -1
    if owner is not None and top.kind == "ready":
        if owner.readied is not None:
            st.outcomes.notes.append(f"the spell {owner.id} was readying with {top.id} "
                                     "dissipates: nothing is readied")
        owner.readied, owner.readied_spell = None, False   # the held spell dissipates


def refresh(enc, st):
    """The new turn's owner gets its action, Bonus Action, Speed, free
    interaction and Reaction back; what it readied lapses."""
    f = enc.fighters[enc.active]
    f.action_used = f.bonus_used = f.interaction_used = f.disengaged = False
    f.reaction_used = f.additional_used = False
    f.movement = f.speed
    f.move_feet = None
    if f.readied is not None:
        held = "the spell it readied dissipates" if f.readied_spell else "it lapses"
        st.outcomes.notes.append(f"{f.id}'s turn starts with {f.readied} still readied: "
                                 f"{held}")
    f.readied, f.readied_spell = None, False
