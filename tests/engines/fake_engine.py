"""A misbehaving engine for the runner's robustness tests.

Usage: fake_engine.py MODE [VECTOR_ID [MARKER]]. It answers like the reference engine,
except on VECTOR_ID (or on every vector for 'slow' and 'pf2-only'), where MODE
decides what goes wrong: crash, hang, garbage, wrong-id, slow, pf2-only,
bad-hello, wrong-verdict, daemon (double-forks a daemon that leaves the
process group and holds the engine's output), daemon-swarm (double-forks a
daemon that goes on starting daemons of its own, up to SWARM, while the
engine answers), hostile-text (a reason of control characters and
a lone surrogate); huge-int, deep, bad-utf8, long-line, endless,
no-read (stops reading its input), hello-list, hello-number, and the
answers of MALFORMED; raise-at-hello and raise (an uncaught exception at
the hello or on VECTOR_ID, a traceback on stderr), late-hello (says hello only after VECTOR_ID seconds); and for
fuzzing (every vector): free-overlap (a combatant's free action during its
own pending action is allowed), shared-immediate (an immediate action is
refused once an ally took one this round), shift-provokes (after a shift,
an opportunity action the positions do not provoke is allowed).

With FAKE_ENGINE_ACK set to a path (a FIFO), the engine writes a line there
when it stops reading its input (no-read) or starts to hang (hang), so a
test can wait for that moment instead of sleeping.
"""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, installed or not

from fsm.conformance import reference_hello, reference_result


# Answers that are JSON but not the protocol's result (the step they break).
MALFORMED = {
    "bad-rules": lambda step: step.update(rules=5),
    "bad-notes": lambda step: step.update(notes=5),
    "bad-verdict": lambda step: step.update(verdict=[]),
    "bad-facts": lambda step: step.update(facts="x"),
    "bad-budgets": lambda step: step.update(facts={"budgets": 5}),
    "bad-budget-values": lambda step: step.update(facts={"budgets": {"c": 5}}),
}


def _raw(text):
    sys.stdout.buffer.write(text if isinstance(text, bytes) else text.encode())
    sys.stdout.buffer.flush()


SWARM = 40
# how long a hang or a stop in reading lasts: longer than any test waits on a
# busy machine (the runner ends the engine; a leftover ends by itself)
HANG = 900


def _ack(what):
    """Tell the test waiting on FAKE_ENGINE_ACK (a FIFO) that this happened."""
    path = os.environ.get("FAKE_ENGINE_ACK")
    if path:
        with open(path, "w") as fh:
            fh.write(what + "\n")


def main():
    mode = sys.argv[1]
    target = sys.argv[2] if len(sys.argv) > 2 else None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            if mode == "raise-at-hello":
                raise RuntimeError("this engine cannot start: no rules loaded")
            if mode == "late-hello":
                time.sleep(float(target))
            hello = reference_hello()
            if mode == "bad-hello":
                print("I am not an engine", flush=True)
                continue
            if mode == "hello-list":
                hello["rulesets"] = ["dnd4e", "pf2e"]
            if mode == "hello-number":
                hello["rulesets"] = {"dnd4e": 5}
            if mode == "daemon" and not os.environ.get("FAKE_DAEMON_STARTED"):
                os.environ["FAKE_DAEMON_STARTED"] = "1"
                _start_daemon()
            if mode == "daemon-swarm":
                _start_daemon(swarm=SWARM)
            if mode == "no-read":
                print(json.dumps(hello), flush=True)
                _ack("not reading")
                time.sleep(HANG)
            if mode == "pf2-only":
                del hello["rulesets"]["dnd4e"]
                del hello["rulesets"]["dnd5e"]
                hello["rulesets"]["pf2e"]["options"].pop("similar_triggers")
            if mode == "shift-provokes":         # a 4e engine: shifts are 4e's
                hello["rulesets"] = {"dnd4e": hello["rulesets"]["dnd4e"]}
            print(json.dumps(hello), flush=True)
            continue
        vector = msg["vector"]
        hit = target is None or vector["id"] == target
        if hit and mode == "crash":
            sys.exit(3)
        if hit and mode == "raise":
            raise ValueError(f"my engine cannot read vector {vector['id']}")
        if hit and mode == "hang":
            _ack("hanging")
            time.sleep(HANG)
        if hit and mode == "garbage":
            print("<<garbage>>", flush=True)
            continue
        if hit and mode == "huge-int":
            _raw('{"type": "result", "id": "%s", "steps": [{"verdict": "allowed", '
                 '"round": %s}]}\n' % (vector["id"], "9" * 5000))
            continue
        if hit and mode == "deep":
            _raw("[" * 200_000 + "]" * 200_000 + "\n")
            continue
        if hit and mode == "bad-utf8":
            _raw(b'{"type": "result", "id": "\xff\xfe"}\n')
            continue
        if hit and mode == "long-line":
            _raw(b'"' + b"x" * (6 * 1024 * 1024) + b'"\n')
            continue
        if hit and mode == "endless":
            chunk = b"x" * 65536
            while True:
                _raw(chunk)

        result = reference_result(vector)
        if mode == "free-overlap":
            for step in result["steps"]:
                if step.get("reason") == "own-action-in-progress":
                    step["verdict"], step["reason"] = "allowed", None
        if mode == "shared-immediate":
            _share_immediates(vector, result)
        if mode == "shift-provokes":
            _shifts_provoke(vector, result)
        if hit and mode == "wrong-id":
            result["id"] = "not-" + str(vector["id"])
        if hit and mode == "slow":
            time.sleep(0.2)
        if hit and mode == "wrong-verdict":
            for step in result["steps"]:
                if step["verdict"] == "rejected":
                    step["verdict"] = "allowed"
        if hit and mode == "hostile-text":
            # a wrong reason made of a terminal escape, a bell and a lone surrogate
            result["steps"][-1].update(verdict="rejected", reason="\x1b[2J\x1b]0;x\x07\ud800")
        if hit and mode in MALFORMED:
            MALFORMED[mode](result["steps"][0])
        print(json.dumps(result), flush=True)


def _start_daemon(swarm=0):
    """Double-fork a daemon in a session of its own that holds our stdout;
    with ``swarm``, the daemon then double-forks that many daemons of its
    own, one after the other, while the engine goes on."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for _ in range(swarm):
                if os.fork() == 0:
                    os.setsid()
                    if os.fork() == 0:
                        time.sleep(300)
                    os._exit(0)
                os.wait()
            time.sleep(300)
        os._exit(0)
    os.wait()


def _shifts_provoke(vector, result):
    """A scene bug: once a shift was declared, an opportunity action the
    positions do not provoke is allowed all the same."""
    shifted = False
    for step, answer in zip(vector["steps"], result["steps"]):
        if shifted and step.get("do") == "opportunity" and answer.get("reason") == "not-provoked":
            answer["verdict"], answer["reason"] = "allowed", None
        shifted = shifted or step.get("shift") is True


def _share_immediates(vector, result):
    """Answer as an engine whose immediate action is kept per side: a side
    that spent one this round is refused the next (the verdict only)."""
    sides = {c["id"]: c["side"] for c in vector.get("combatants", [])}
    spent = set()
    for step, answer in zip(vector["steps"], result["steps"]):
        if step.get("do") in ("interrupt", "reaction", "readied") and \
                answer.get("verdict") == "allowed":
            side = sides.get(step.get("actor"))
            if side in spent:
                answer["verdict"], answer["reason"] = "rejected", "immediate-used-this-round"
            spent.add(side)
        if step.get("do") == "end-turn":
            spent.clear()


if __name__ == "__main__":
    main()
