"""The compiled schema check says what jsonschema says of every message: the
reference's own results and hellos, and each of them broken in the ways an
engine gets them wrong."""

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from fsm.conformance.fastcheck import Unsupported, compile_schema
from fsm.conformance.reference import reference_hello, reference_result
from fsm.conformance.vectors import _validators, collect, public_vector
from fsm.paths import default_root


def _schema():
    return json.loads((default_root() / "spec" / "result.schema.json").read_text())


def _breakages(message):
    """The message broken one way at a time, wherever it has an object or a list."""
    out = []

    def visit(node, path):
        if isinstance(node, dict):
            for key in list(node):
                out.append((path + [key], "drop"))
                out.append((path + [key], True))
                out.append((path + [key], 1.0))
                out.append((path + [key], None))
                out.append((path + [key], "x" * 300))
                visit(node[key], path + [key])
            out.append((path + ["stray"], 1))
        elif isinstance(node, list):
            for i, item in enumerate(node[:2]):
                out.append((path + [i], {}))
                visit(item, path + [i])
    visit(message, [])
    for path, value in out:
        broken = copy.deepcopy(message)
        node = broken
        for key in path[:-1]:
            node = node[key]
        if value == "drop":
            del node[path[-1]]
        else:
            node[path[-1]] = value
        yield broken


def _messages():
    """The hello, and the results of every 120th vector of at most 60 steps
    (a result of hundreds of steps says nothing more of its shape, and its
    breakages would be counted in thousands)."""
    yield "hello", reference_hello()
    short = [doc for _, doc in collect(None) if len(doc.get("steps") or ()) <= 60]
    for doc in short[::120]:
        yield "result", reference_result(public_vector(doc))


@pytest.mark.parametrize("what,message", list(_messages()))
def test_the_compiled_check_agrees_with_jsonschema(what, message):
    quick, full = _validators(what)
    assert quick is not None
    for candidate in [message, *_breakages(message)]:
        assert quick(candidate) == full.is_valid(candidate), candidate


def test_numbers_and_booleans_are_told_apart_as_json_does():
    defs = {}
    check = compile_schema({"type": "integer"}, defs)
    assert check(3) and check(3.0) and not check(True) and not check(3.5)
    const = compile_schema({"const": 1}, defs)
    assert const(1) and const(1.0) and not const(True)
    full = Draft202012Validator({"type": "integer"})
    assert [full.is_valid(v) for v in (3, 3.0, True, 3.5)] == [True, True, False, False]


def test_a_keyword_it_does_not_know_is_refused_at_compile_time():
    with pytest.raises(Unsupported):
        compile_schema({"type": "object", "patternProperties": {"^x": {}}}, {})
    with pytest.raises(Unsupported):
        compile_schema({"pattern": "^a"}, {})


def test_every_keyword_of_the_result_schema_is_compiled():
    schema = _schema()
    for name in ("hello", "result"):
        compile_schema(schema["$defs"][name], schema["$defs"])
