// Runs the fsm conformance suite against tracker.js, an engine with no
// pending-action stack. It speaks spec/PROTOCOL.md on stdin/stdout (JSON lines):
//
//   fsm conformance --program "node examples/stackless/adapter.js"
//
// The tracker settles everything when it is declared; the step format speaks
// of frames that are declared, then resolved part by part, answered while
// their window is open. This adapter keeps what the tracker does not: the
// frames (their ids and parts), the turn moments, which trigger an answer
// names, when the next turn starts. It asks the tracker every question of
// budgets and of who may do what, and turns the tracker's refusals into the
// suite's reason codes. Copy it and replace the calls on `Tracker` with your
// own engine's.
// @ts-check
"use strict";
const readline = require("node:readline");
const { Tracker, REFUSALS } = require("./tracker");

/** @typedef {import("../../spec/protocol").Hello} Hello */
/** @typedef {import("../../spec/protocol").Vector} Vector */
/** @typedef {import("../../spec/protocol").Step} Step */
/** @typedef {import("../../spec/protocol").Answer} Answer */
/** @typedef {import("../../spec/protocol").Facts} Facts */
/** @typedef {import("../../spec/protocol").Result} Result */
/** @typedef {import("../../spec/protocol").Message} Message */

// -- what the tracker models (the hello) ------------------------------------

// The names are typed: an editor flags a step kind or field the format does not have.
/** @typedef {import("../../spec/protocol").Rulesets["dnd5e"]} Dnd5e */
/** @type {Dnd5e["kinds"][]} */
const TURN = ["action", "dash", "disengage", "ready", "bonus", "move"];   // the turn's own
/** @type {Dnd5e["kinds"][]} */
const ANSWERS = ["reaction", "opportunity", "readied"];                     // take the Reaction
/** @type {Dnd5e["kinds"][]} */
const STACK_MOVES = ["resolve", "continue"];
/** @type {Dnd5e["kinds"][]} */
const KINDS = [...TURN, ...ANSWERS, ...STACK_MOVES, "event", "end-turn"];
/** @type {Dnd5e["fields"][]} */
const COUNTS = ["squares", "attacks", "parts"];
/** @type {Dnd5e["fields"][]} */
const FIELDS = ["actor", "id", "to", "name", "comment", "ruling", ...COUNTS, "provokes",
                "before", "readies"];

/** @type {Hello} */
const HELLO = {
  type: "hello", format: 1, engine: "stackless tracker (fsm example)",
  // No `counter`, `interact`, spells, positions or paths: vectors that need
  // them are skipped, and the run's headline counts the rules they leave untested.
  rulesets: { dnd5e: { options: {}, steps: KINDS, fields: FIELDS } },
  // No `slot` or `interaction` budget: the tracker does not keep them.
  facts: ["active", "round", "initiative", "resolved", "budgets.action", "budgets.bonus",
          "budgets.movement", "budgets.reaction", "budgets.readied"],
};

/** The tracker's refusals, as the suite's reason codes (spec/FORMAT.md).
 * @type {Map<string, string>} */
const REASON = new Map([
  [REFUSALS.notYourTurn, "not-your-turn"], [REFUSALS.incapacitated, "incapacitated"],
  [REFUSALS.actionTaken, "action-used"], [REFUSALS.noBonus, "no-bonus-action"],
  [REFUSALS.bonusTaken, "bonus-action-used"], [REFUSALS.tooFar, "not-enough-movement"],
  [REFUSALS.reactionTaken, "reaction-used"], [REFUSALS.nothingReadied, "nothing-readied"],
  [REFUSALS.tooEarly, "trigger-not-resolved"], [REFUSALS.tooLate, "trigger-already-resolved"],
  [REFUSALS.notOwnMovement, "not-own-movement"], [REFUSALS.disengaged, "disengaged"],
  [REFUSALS.notLeaving, "not-provoked"], [REFUSALS.cannotSee, "cannot-see"],
]);
/** A refusal the table misses is answered as itself, so its vectors fail and show it. */
const reasonOf = (/** @type {string} */ words) => REASON.get(words) ?? words;

// -- one vector: the tracker, and the frames the step format speaks of -------

/**
 * A frame: something declared that can be answered (spec/TIMING.md, Terms).
 * Turn moments (`turn-start@N`, `turn-end@N`) are frames finished from the start.
 * @typedef {{id: string, kind: string, owner: string|null, parts: number, part: number,
 *   partDone: boolean, provokes: string[], moment?: boolean}} Frame
 */

class Timeline {
  /** @param {Vector} vector */
  constructor(vector) {
    this.ids = new Set(vector.combatants.map((c) => c.id));
    this.tracker = new Tracker(vector.combatants, vector.initiative ?? [...this.ids]);
    // Everything the adapter keeps is in `s`, plain data, so that a refused
    // step can put it back (TIMING.md T-REFUSED) along with the tracker's.
    this.s = { frames: /** @type {Record<string, Frame>} */ ({}), stack: /** @type {string[]} */ ([]),
               turn: 1, ended: false, resolved: /** @type {string[]} */ ([]) };
    this.openMoment("turn-start");
  }

  /** One step: an error if it cannot be read, else a verdict and the facts after it.
   * @param {any} step  @param {number} n  the step's number, from 1 @returns {Answer} */
  play(step, n) {
    const error = this.unreadable(step);
    if (error) return { verdict: "error", ...error };
    const before = { s: structuredClone(this.s), tracker: this.tracker.save() };
    const reason = this.judge(step, n);
    if (reason) {                       // a refused step changes nothing
      this.s = before.s;
      this.tracker.load(before.tracker);
    }
    return { verdict: reason ? "rejected" : "allowed", reason, facts: this.facts() };
  }

  /** @returns {string|null} the reason code of a refusal, or null when allowed */
  judge(step, n) {
    const kind = step.do;
    let actor = step.actor ?? null;
    // `end-turn` names the active creature by default, or, once the turn has
    // ended, the next one in the order (TIMING.md T-NEXT-TURN).
    if (kind === "end-turn" && actor === null) actor = this.s.ended ? this.next() : this.tracker.active;
    // An answer's trigger is found before settling: `to`, or the top of the stack.
    let trigger = null;
    if (ANSWERS.includes(kind)) {
      trigger = this.triggerOf(step.to ?? null);
      if (trigger === null) return "no-trigger";
    }
    this.settle(kind, actor, trigger);
    const s = this.s, t = this.tracker;

    if (ANSWERS.includes(kind)) {
      const f = s.frames[trigger];
      if (!f) return "no-trigger";                    // the next turn could not start yet
      const at = s.stack.indexOf(trigger);
      if (at < 0) return "trigger-passed";           // in 5e a window closes as its frame leaves
      if (s.stack.slice(at + 1).some((id) => this.unresolved(s.frames[id]))) return "unresolved-above";
      // What the tracker needs to know of the trigger: who, and has it happened yet.
      const what = { by: f.owner, done: this.finished(f) || f.partDone, event: f.kind === "event",
                     leavesReachOf: f.provokes };
      const feet = step.squares == null ? 0 : 5 * step.squares;    // a readied move
      const no = kind === "reaction" ? t.react(actor, what, step.before === true)
        : kind === "opportunity" ? t.opportunityAttack(actor, what)
        : t.releaseReadied(actor, what, feet);
      return no ? reasonOf(no) : this.push(step, n, actor);
    }
    if (TURN.includes(kind) || kind === "end-turn") {
      if (actor !== t.active) return "not-your-turn";
      // One thing at a time; but a creature may move between the attacks of its
      // own Attack action, and its own move between two squares stops where it
      // takes another step of its turn (TIMING.md T-5E-TURN).
      const open = s.stack.map((id) => s.frames[id]).filter((f) => this.unresolved(f));
      const between = (f, kinds) => f.owner === actor && kinds.includes(f.kind) && f.partDone;
      const paused = kind === "move" ? ["action", "move"] : ["move"];
      if (!open.every((f) => between(f, paused))) return "action-in-progress";
      const top = s.frames[s.stack.at(-1)];
      const stopped = top && top.kind === "move" && open.includes(top) ? top : null;
      const back = stopped ? 5 * (stopped.parts - stopped.part) : 0;
      t.stopMoving(actor, back);                         // given back before it is judged
      const no = kind === "end-turn" ? null : kind === "bonus" ? t.takeBonusAction(actor)
        : kind === "move" ? t.move(actor, 5 * this.partsOf(step))
        : t.takeAction(actor, kind === "action" ? "attack" : kind, step.readies ?? undefined);
      if (no) {
        t.stopMoving(actor, -back);                      // a refused step changes nothing
        return reasonOf(no);
      }
      if (stopped) {                                     // it ends on the square reached
        stopped.parts = stopped.part;
        s.resolved.push(stopped.id);
        s.stack.pop();
      }
      if (kind === "end-turn") {
        this.openMoment("turn-end");
        s.ended = true;
        return null;
      }
      return this.push(step, n, actor);
    }
    if (STACK_MOVES.includes(kind)) {
      const top = s.frames[s.stack.at(-1)];
      if (!top || !this.unresolved(top)) return "nothing-pending";
      if (step.actor != null && step.actor !== top.owner) return "not-on-top";
      if (kind === "resolve") {
        if (top.partDone) return "between-parts";
        top.partDone = true;
        if (this.finished(top)) s.resolved.push(top.id);
      } else {
        if (!top.partDone) return "no-part-resolved";
        top.part += 1;
        top.partDone = false;
      }
      return null;
    }
    return this.push(step, n, actor);             // an event: nobody's action, always allowed
  }

  /** TIMING.md T-SETTLE 3: what leaves the stack, and whether the next turn starts, before
   * the step is judged. 5e keeps no window open off the stack (no T-CUT-IN, no T-OWNER). */
  settle(kind, actor, trigger) {
    const s = this.s;
    const answer = ANSWERS.includes(kind);
    const untriggered = TURN.includes(kind) || kind === "end-turn";
    for (;;) {
      const top = s.frames[s.stack.at(-1)];
      const leaves = top && !top.moment && this.finished(top) && (   // T-LEAVE
        STACK_MOVES.includes(kind) || (answer && trigger !== top.id) ||
        (untriggered && (actor === top.owner || actor === this.tracker.active)) ||
        (s.ended && !answer));
      const turnStartLeaves = top && top.kind === "turn-start" && untriggered &&
        actor === this.tracker.active;                                // T-TURN-START
      const nextTurn = s.ended && s.stack.length === 1 &&              // T-NEXT-TURN
        (!answer || trigger === `turn-start@${s.turn + 1}`);
      if (leaves || turnStartLeaves) s.stack.pop();
      else if (nextTurn) {
        s.stack = [];
        this.tracker.endTurn();                                       // the tracker's own turn change
        s.turn += 1;
        s.ended = false;
        this.openMoment("turn-start");
      } else return;
    }
  }

  // -- frames -----------------------------------------------------------------

  /** The trigger an answer names (`to`), or the top of the stack; null: none. */
  triggerOf(to) {
    const s = this.s;
    if (to === null) return s.stack.at(-1) ?? null;
    if (to === "turn-start") return `turn-start@${s.turn}`;
    if (to === "turn-end") return s.ended ? `turn-end@${s.turn}` : null;
    return to;
  }

  /** Puts the step's frame on the stack, pending; null: the step is allowed. */
  push(step, n, owner) {
    let id = step.id ?? `s${n}`;
    for (let k = 2; step.id == null && this.s.frames[id]; k++) id = `s${n}#${k}`;
    this.s.frames[id] = { id, kind: step.do, owner, parts: this.partsOf(step), part: 1,
                          partDone: false, provokes: step.provokes ?? [] };
    this.s.stack.push(id);
    return null;
  }

  openMoment(kind) {
    const id = `${kind}@${this.s.turn}`;
    this.s.frames[id] = { id, kind, owner: this.tracker.active, parts: 1, part: 1,
                          partDone: true, provokes: [], moment: true };
    this.s.stack.push(id);
  }

  partsOf(step) { return step.squares ?? step.attacks ?? step.parts ?? 1; }
  finished(f) { return f.moment || (f.partDone && f.part === f.parts); }
  unresolved(f) { return !this.finished(f); }
  next() {
    const order = this.tracker.order;
    return order[(order.indexOf(this.tracker.active) + 1) % order.length];
  }

  /** A `to` the step may name: a frame declared so far, a moment of this turn, or,
   * once the turn has ended, the next turn's start. */
  knows(to) {
    return to in this.s.frames || to === "turn-start" || to === "turn-end" ||
      (this.s.ended && to === `turn-start@${this.s.turn + 1}`);
  }

  /** @returns {Facts} */
  facts() {
    /** @type {Record<string, Record<string, number|string|null>>} */
    const budgets = {};
    for (const id of this.ids) budgets[id] = this.tracker.budgets(id);
    return { active: this.tracker.active, round: this.tracker.round,
             initiative: [...this.tracker.order], resolved: [...this.s.resolved], budgets };
  }

  // -- steps that cannot be read (FORMAT.md, Errors; the order is TIMING.md T-ERRORS) ----

  /** @returns {{error: string, message: string}|null} why the step cannot be read */
  unreadable(step) {
    const fault = (error, message) => ({ error, message });
    if (typeof step !== "object" || step === null || Array.isArray(step)) {
      return fault("not-an-object", "a step is an object");
    }
    const has = (k) => k in step;
    const bad = (message) => fault("bad-value", message);
    const elsewhere = (message) => fault("field-of-another-kind", message);
    const kind = step.do;
    const unknown = Object.keys(step).find((k) => k !== "do" && !FIELDS.some((f) => f === k));
    if (unknown) return fault("unknown-field", `no step has '${unknown}'`);
    if (kind == null) return fault("missing-kind", "the step has no 'do'");
    if (!KINDS.includes(kind)) return fault("unknown-kind", `no step does ${JSON.stringify(kind)}`);
    const makesFrame = !["resolve", "continue", "end-turn"].includes(kind);
    const misplaced = [...COUNTS, "provokes"].find((k) => has(k) && !makesFrame);
    if (misplaced) return elsewhere(`a ${kind} makes no frame: '${misplaced}'`);
    const actor = step.actor ?? null;
    if (actor !== null && typeof actor !== "string") return bad("'actor' is a string");
    if (actor !== null && !this.ids.has(actor)) return fault("unknown-combatant", `no combatant ${actor}`);
    if (actor === null && (TURN.includes(kind) || ANSWERS.includes(kind))) {
      return fault("missing-actor", `a ${kind} needs an 'actor'`);
    }
    if (has("id")) {
      if (typeof step.id !== "string" || ["", "turn-start", "turn-end"].includes(step.id)) {
        return bad("'id' is a non-empty string, not a turn moment's word");
      }
      if (step.id in this.s.frames || /^turn-(start|end)@\d+$/.test(step.id)) {
        return fault("id-taken", `the id ${step.id} is taken`);
      }
    }
    const answer = ANSWERS.includes(kind);
    if (step.to != null && !answer) return elsewhere(`a ${kind} answers nothing`);
    if (step.to != null && typeof step.to !== "string") return bad("'to' is a frame id");
    const counts = COUNTS.filter(has);
    if (counts.length > 1) return fault("two-part-counts", `both '${counts[0]}' and '${counts[1]}'`);
    const count = step[counts[0]];
    if (counts.length && !(Number.isInteger(count) && count >= 1 && count <= 100)) {
      return bad(`'${counts[0]}' is a whole number from 1 to 100`);
    }
    if (has("provokes")) {
      const p = step.provokes;
      if (!Array.isArray(p) || !p.every((x) => typeof x === "string")) return bad("'provokes' lists ids");
      const who = p.find((x) => !this.ids.has(x));
      if (who !== undefined) return fault("unknown-combatant", `no combatant ${who}`);
    }
    if (has("ruling") && !["allow", "deny"].includes(step.ruling)) return bad("'ruling' is allow or deny");
    if (step.name != null && typeof step.name !== "string") return bad("'name' is a string");
    if (has("before")) {
      if (kind !== "reaction") return elsewhere(`a ${kind} takes no 'before'`);
      if (typeof step.before !== "boolean") return bad("'before' is true or false");
    }
    if (step.readies != null) {
      if (kind !== "ready") return elsewhere(`a ${kind} takes no 'readies'`);
      if (typeof step.readies !== "string") return bad("'readies' is a string");
    }
    if (answer && step.to != null && !this.knows(step.to)) {     // looked up after the rest
      return fault("unknown-trigger", `no frame ${step.to} so far`);
    }
    return null;
  }
}

// -- the protocol: one JSON object per line ----------------------------------------

/** @param {Vector} vector @returns {Result} */
function run(vector) {
  let timeline;
  try {
    timeline = new Timeline(vector);
  } catch (e) {
    return { type: "result", id: vector.id, steps: [{ verdict: "error", error: "bad-document",
                                                       message: String(e) }] };
  }
  const steps = [];
  for (const [i, step] of vector.steps.entries()) {
    const answer = timeline.play(step, i + 1);
    steps.push(answer);
    if (answer.verdict === "error") break;        // an engine may stop at a step it cannot read
  }
  return { type: "result", id: vector.id, steps };
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  /** @type {Message} */
  const message = JSON.parse(line);
  const reply = message.type === "hello" ? HELLO : run(message.vector);
  process.stdout.write(JSON.stringify(reply) + "\n");
});
