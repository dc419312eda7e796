"""The reference machine with one mutant's table (a tracker's mistake, say),
speaking the protocol: argv[1] is the mutant's id (``fsm mutate`` lists
them); ``--verdicts`` makes its hello report no facts and no rule ids;
``--alone`` makes it name the mutant's ruleset only, as an engine written
for one game would."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checkout, installed or not

from fsm.conformance import reference_hello, reference_result  # noqa: E402
from fsm.conformance.scoring import FAMILIES, family  # noqa: E402

MUTANT = next(m for name in FAMILIES for m in family(name) if m.id == sys.argv[1])
HELLO = reference_hello()
if "--verdicts" in sys.argv:
    HELLO = dict(HELLO, facts=[], reports=[])
if "--alone" in sys.argv:
    HELLO = dict(HELLO, rulesets={MUTANT.ruleset: HELLO["rulesets"][MUTANT.ruleset]})

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = HELLO
    else:
        vector = msg["vector"]
        if vector.get("ruleset") == MUTANT.ruleset and MUTANT.defaults:
            vector = dict(vector, options={**MUTANT.defaults, **(vector.get("options") or {})})
        ruleset = MUTANT.value if vector.get("ruleset") == MUTANT.ruleset else None
        reply = reference_result(vector, ruleset)
    print(json.dumps(reply), flush=True)
