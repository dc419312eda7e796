// A small D&D 5e combat tracker (SRD 5.2.1), the kind a virtual tabletop or a
// chat bot keeps. It has no pending actions and no stack: it knows each
// creature's budgets and flags, the initiative order and whose turn it is, and
// it settles each thing a creature does at the moment it is declared.
//
// Every method that does something returns null when it is done, or a short
// refusal in the tracker's own words (see REFUSALS) when the rules forbid it;
// a refused call changes nothing. The tracker's checks come in the order the
// rules put them (spec/PRECEDENCE.md, dnd5e), so the first refusal is the one
// a player would be told.
//
// What it leaves out, as a small tracker would: spell slots, the free object
// interaction, Counterspell, Concentration, positions (who stands where).
// Opportunity Attacks are judged from what the caller says of the trigger.
// @ts-check
"use strict";

/** The tracker's refusals, one per limit it knows. */
const REFUSALS = Object.freeze({
  notYourTurn: "it is not your turn",
  incapacitated: "you are incapacitated",
  actionTaken: "you already took your action this turn",
  noBonus: "nothing gives you a Bonus Action",
  bonusTaken: "you already took a Bonus Action this turn",
  tooFar: "you do not have that much movement left",
  reactionTaken: "you already used your Reaction",
  nothingReadied: "you have nothing readied",
  tooEarly: "a Reaction comes after its trigger",
  tooLate: "the trigger has already happened",
  notOwnMovement: "the creature is not moving by itself",
  disengaged: "the creature took the Disengage action",
  notLeaving: "the creature is not leaving your reach",
  cannotSee: "you cannot see the creature",
});

/**
 * What a Reaction answers, as the caller describes it.
 * @typedef {object} Trigger
 * @property {string|null} by  the creature doing it (null: nobody's doing, a trap)
 * @property {boolean} done    it has happened (false: it is about to)
 * @property {boolean} [event] something happening to the creature, not its own doing
 * @property {string[]} [leavesReachOf] whose reach the creature is leaving
 */

/**
 * @typedef {object} Creature
 * @property {string} id
 * @property {string} side
 * @property {number} speed      feet per turn
 * @property {boolean} hasBonus  a feature grants it a Bonus Action
 * @property {boolean} incapacitated
 * @property {boolean} unseen    no one can see it
 * @property {boolean} blinded   it can see no one
 * @property {boolean} action    its action is still there this turn
 * @property {boolean} bonus     its Bonus Action is still there this turn
 * @property {number} movement   feet left this turn
 * @property {boolean} reaction  its Reaction is still there
 * @property {boolean} disengaged it took the Disengage action this turn
 * @property {string|null} readied what it readied, or null
 */

class Tracker {
  /**
   * @param {Array<{id: string, side: string, speed?: number, bonus?: boolean,
   *   incapacitated?: boolean, unseen?: boolean, blinded?: boolean}>} creatures
   * @param {string[]} order  the initiative order (every creature once)
   */
  constructor(creatures, order) {
    /** @type {Record<string, Creature>} */
    this.creatures = {};
    for (const c of creatures) {
      const speed = c.speed ?? 30;
      this.creatures[c.id] = {
        id: c.id, side: c.side, speed, hasBonus: !!c.bonus,
        incapacitated: !!c.incapacitated, unseen: !!c.unseen, blinded: !!c.blinded,
        action: true, bonus: true, movement: speed, reaction: true,
        disengaged: false, readied: null,
      };
    }
    this.order = [...order];
    this.turnIndex = 0;   // the encounter starts with the first creature's turn
    this.round = 1;
  }

  /** Whose turn it is. */
  get active() { return this.order[this.turnIndex]; }

  // -- on your own turn ---------------------------------------------------

  /**
   * The turn's action. `kind` is "attack" (or any other action: Magic,
   * Help...), "dash", "disengage" or "ready"; `readies` says what is readied.
   * @param {string} who
   * @param {"attack"|"dash"|"disengage"|"ready"} kind
   * @param {string} [readies]
   * @returns {string|null}
   */
  takeAction(who, kind = "attack", readies = undefined) {
    const c = this.creatures[who];
    const no = this.ownTurn(who) || (c.incapacitated && REFUSALS.incapacitated) ||
      (!c.action && REFUSALS.actionTaken);
    if (no) return no;
    c.action = false;
    if (kind === "dash") c.movement += c.speed;
    if (kind === "disengage") c.disengaged = true;
    if (kind === "ready") c.readied = readies ?? "an action";
    return null;
  }

  /** A Bonus Action, for a creature that a feature grants one. */
  takeBonusAction(who) {
    const c = this.creatures[who];
    const no = this.ownTurn(who) || (c.incapacitated && REFUSALS.incapacitated) ||
      (!c.hasBonus && REFUSALS.noBonus) || (!c.bonus && REFUSALS.bonusTaken);
    if (no) return no;
    c.bonus = false;
    return null;
  }

  /** Movement: `feet` more of this turn's movement. */
  move(who, feet) {
    const c = this.creatures[who];
    const no = this.ownTurn(who) || (feet > c.movement && REFUSALS.tooFar);
    if (no) return no;
    c.movement -= feet;
    return null;
  }

  /** A move stopped short (its owner took its action, say): `feet` come back. */
  stopMoving(who, feet) {
    this.creatures[who].movement += feet;
  }

  /**
   * The turn ends and the next creature in the order starts its own: its
   * action, Bonus Action, movement and Reaction come back, it is no longer
   * disengaged, and what it readied lapses. Nothing comes back at the end of
   * a turn, only at the start of one's own.
   */
  endTurn() {
    this.turnIndex += 1;
    if (this.turnIndex === this.order.length) {
      this.turnIndex = 0;
      this.round += 1;
    }
    const c = this.creatures[this.active];
    Object.assign(c, { action: true, bonus: true, movement: c.speed, reaction: true,
                       disengaged: false, readied: null });
  }

  // -- on anyone's turn: the Reaction --------------------------------------

  /**
   * A Reaction (Shield, Hellish Rebuke...). It comes right after its trigger,
   * or, with `before` (its description says so), while the trigger is about
   * to happen.
   * @param {string} who
   * @param {Trigger} trigger
   * @param {boolean} [before]
   */
  react(who, trigger, before = false) {
    const c = this.creatures[who];
    const no = this.canReact(c) ||
      (before && trigger.done && REFUSALS.tooLate) ||
      (!before && !trigger.done && REFUSALS.tooEarly);
    if (no) return no;
    c.reaction = false;
    return null;
  }

  /**
   * An Opportunity Attack: right before a creature the attacker can see
   * leaves its reach by its own movement.
   * @param {string} who
   * @param {Trigger} trigger
   */
  opportunityAttack(who, trigger) {
    const c = this.creatures[who];
    const mover = trigger.by === null ? null : this.creatures[trigger.by];
    const no = this.canReact(c) ||
      (trigger.done && REFUSALS.tooLate) ||
      (trigger.event && REFUSALS.notOwnMovement) ||
      (mover && mover.disengaged && this.active === mover.id && REFUSALS.disengaged) ||
      (!(trigger.leavesReachOf ?? []).includes(who) && REFUSALS.notLeaving) ||
      ((c.blinded || (mover && mover.unseen)) && REFUSALS.cannotSee);
    if (no) return no;
    c.reaction = false;
    return null;
  }

  /** The readied response, taken with the Reaction once its trigger happened;
   * `feet`: a readied move, up to the creature's Speed (not its turn's movement). */
  releaseReadied(who, trigger, feet = 0) {
    const c = this.creatures[who];
    const no = this.canReact(c) || (c.readied === null && REFUSALS.nothingReadied) ||
      (!trigger.done && REFUSALS.tooEarly) || (feet > c.speed && REFUSALS.tooFar);
    if (no) return no;
    c.reaction = false;
    c.readied = null;
    return null;
  }

  // -- what a tracker shows --------------------------------------------------

  /** The budgets of one creature, as the step format names them. */
  budgets(who) {
    const c = this.creatures[who];
    return { action: +c.action, bonus: +(c.hasBonus && c.bonus), movement: c.movement,
             reaction: +c.reaction, readied: c.readied };
  }

  /** Everything the tracker knows, to put back later (an undo). */
  save() {
    return structuredClone({ creatures: this.creatures, turnIndex: this.turnIndex,
                             round: this.round });
  }

  /** Put back what save() returned. */
  load(saved) {
    Object.assign(this, structuredClone(saved));
  }

  // -- the checks several methods share --------------------------------------

  ownTurn(who) { return who === this.active ? null : REFUSALS.notYourTurn; }

  canReact(c) {
    return (c.incapacitated && REFUSALS.incapacitated) ||
      (!c.reaction && REFUSALS.reactionTaken) || null;
  }
}

module.exports = { Tracker, REFUSALS };
