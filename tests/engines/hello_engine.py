"""The reference machine behind a hello of the caller's choosing: argv[1] is
a JSON object whose keys replace the reference hello's (for the tests of
what a hello may say); argv[2], when given, names a budget the engine
reports wrongly (as 7, for every combatant, after every step). A vector
with a step kind or field its hello's ruleset entry leaves out (its
``steps`` and ``fields``) is answered with an error at that step, as an
engine that does not model it would."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, installed or not

from fsm.conformance import reference_hello, reference_result  # noqa: E402

HELLO = dict(reference_hello(), **json.loads(sys.argv[1]))
WRONG = sys.argv[2] if len(sys.argv) > 2 else None

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = HELLO
    else:
        vector = msg["vector"]
        entry = HELLO["rulesets"].get(vector["ruleset"]) or {}
        kinds, fields = entry.get("steps"), entry.get("fields")
        beyond = next((i for i, step in enumerate(vector["steps"])
                       if (kinds is not None and isinstance(step.get("do"), str)
                           and step["do"] not in kinds)
                       or (fields is not None and set(step) - {"do"} - set(fields))), None)
        reply = reference_result(vector)
        if beyond is not None:
            reply["steps"] = reply["steps"][:beyond] + [{"verdict": "error",
                                                         "error": "unknown-kind"}]
        for step in reply["steps"] if WRONG else ():
            for budget in (step.get("facts") or {}).get("budgets", {}).values():
                if WRONG in budget:
                    budget[WRONG] = 7
    print(json.dumps(reply), flush=True)
