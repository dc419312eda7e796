"""pytest plugin used by ``fsm spec``: record which tests carry which ``rule`` marker.

Loaded with ``-p fsm._collect_rules`` during ``pytest --collect-only``; it
writes ``{rule id: [test ids]}`` as JSON to the file named by the
``FSM_RULES_OUT`` environment variable. Parametrised cases are folded into
their test function.
"""

import json
import os


def pytest_collection_finish(session):
    out = os.environ.get("FSM_RULES_OUT")
    if not out:
        return
    rules: dict = {}
    for item in session.items:
        test_id = item.nodeid.split("[", 1)[0]
        for marker in item.iter_markers("rule"):
            for rule_id in marker.args:
                tests = rules.setdefault(rule_id, [])
                if test_id not in tests:
                    tests.append(test_id)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({k: sorted(v) for k, v in sorted(rules.items())}, fh, indent=1)
