"""spec/protocol.d.ts: the TypeScript declarations of the protocol and the
step format, generated from the two schemas by `fsm spec map`, held fresh by
`fsm spec check`, and refused in one line when a schema says what they cannot."""

import json
import shutil
from pathlib import Path

import pytest

from fsm.cli import main
from fsm.errors import SpecError
from fsm.spec import typescript

ROOT = Path(__file__).resolve().parent.parent


def _schemas(tmp_path) -> Path:
    """A root holding copies of the two schemas only."""
    (tmp_path / "spec").mkdir()
    for name in typescript.SOURCES:
        shutil.copy(ROOT / "spec" / name, tmp_path / "spec" / name)
    return tmp_path


def _edit(root: Path, name: str, change) -> None:
    path = root / "spec" / name
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_the_declarations_on_file_are_fresh():
    assert typescript.problems(ROOT) == []


def test_a_missing_or_hand_edited_file_is_reported(tmp_path):
    root = _schemas(tmp_path)
    assert "missing" in typescript.problems(root)[0]
    target = root / "spec" / typescript.NAME
    target.write_text(typescript.render(root), encoding="utf-8")
    assert typescript.problems(root) == []
    target.write_text(typescript.render(root).replace("verdict", "verdikt"), encoding="utf-8")
    assert "stale" in typescript.problems(root)[0]


def test_the_declarations_follow_the_schemas(tmp_path):
    """A field added to the hello, a step kind added to a ruleset and an
    option value appear in the text; required fields are not optional."""
    root = _schemas(tmp_path)
    before = typescript.render(root)
    assert "export interface Hello {" in before and "  rulesets: {" in before
    assert "  type: \"hello\";\n  format: number;\n  protocol?: number;" in before
    assert "export type Answer =\n  | {\n      verdict: \"allowed\" | \"rejected\" | \"gm\";" in before
    assert "export type Square = [number, number];" in before

    def change(doc):
        doc["$defs"]["hello"]["properties"]["colour"] = {"enum": ["red", "blue"]}
    _edit(root, "result.schema.json", change)

    def more(doc):
        doc["allOf"][0]["then"]["properties"]["steps"]["items"]["anyOf"][-1][
            "properties"]["do"]["enum"].append("juggle")
        doc["properties"]["options"]["properties"]["readied_as"]["enum"].append("never")
    _edit(root, "vector.schema.json", more)
    after = typescript.render(root)
    assert '  colour?: "red" | "blue";' in after
    assert '| "juggle";' in after
    assert 'readied_as?: "reaction" | "interrupt" | "never";' in after
    assert typescript.problems(root)[0].endswith("missing (run fsm spec map)")


@pytest.mark.parametrize("name,change,said", [
    ("result.schema.json",
     lambda d: d["$defs"]["facts"].update(patternProperties={"^x": {}}),
     "spec/result.schema.json: #/$defs/facts: keyword 'patternProperties' has no "
     "TypeScript form here"),
    ("result.schema.json",
     lambda d: d["$defs"]["result"]["properties"]["steps"].update(
         items={"$ref": "other.json#/x"}),
     "spec/result.schema.json: #/$defs/result/properties/steps/items: $ref 'other.json#/x' "
     "is not a #/$defs/NAME reference"),
    ("vector.schema.json",
     lambda d: d["allOf"].append({"required": ["id"]}),
     "spec/vector.schema.json: #/allOf/3: not a ruleset's if/then"),
])
def test_what_the_generator_cannot_say_is_one_line(tmp_path, name, change, said):
    root = _schemas(tmp_path)
    _edit(root, name, change)
    with pytest.raises(SpecError) as caught:
        typescript.render(root)
    assert str(caught.value).startswith(said)
    assert "\n" not in str(caught.value)
    assert typescript.problems(root) == [str(caught.value)]


def test_a_schema_that_is_not_json_is_one_line(tmp_path):
    root = _schemas(tmp_path)
    (root / "spec" / "result.schema.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SpecError, match=r"result\.schema\.json: not JSON \("):
        typescript.render(root)


def test_spec_map_refuses_an_untranslatable_schema_with_exit_2(tmp_path, capsys):
    """`fsm spec map` on a checkout whose result schema the generator cannot
    translate: exit 2, one line on stderr, no traceback."""
    for folder in ("spec", "tests"):
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "vectors", "scenarios"))
    _edit(tmp_path, "result.schema.json",
          lambda d: d["$defs"]["answer"].update(dependentSchemas={}))
    assert main(["spec", "map", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("fsm spec: spec/result.schema.json: #/$defs/answer: keyword "
                          "'dependentSchemas'")
