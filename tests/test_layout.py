"""The layout keeps its seams: ruleset knowledge stays under fsm/rulesets/,
modules stay readable in one sitting, errors share one base, and no module
reaches into another's private parts."""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import fsm.errors
from fsm.engine.rows import ENGINE_STEPS, MACHINE_STEPS
from fsm.rulesets import RULESETS

PACKAGE = Path(fsm.errors.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_LINES = 400


def _docstrings(tree) -> set:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _ruleset_words() -> tuple:
    """Ruleset names, step kinds that only some rulesets have, the words their
    steps use of the scene (kinds of attack and of forced movement, but a name
    the engine gives its own steps), rule-id prefixes."""
    kinds = [set(rs.table.player_steps) | set(rs.table.machine_steps)
             for rs in RULESETS.values()]
    specific = set.union(*kinds) - set.intersection(*kinds)
    scene = {w for rs in RULESETS.values()
             for w in (*rs.scene.attack_kinds, *rs.scene.forced_kinds)}
    prefixes = tuple(f"{rs.rule_prefix}-" for rs in RULESETS.values())
    return set(RULESETS) | specific | (scene - set(ENGINE_STEPS + MACHINE_STEPS)), prefixes


def _named(path) -> list:
    """String constants in code (docstrings aside) that name a ruleset, one of
    its own step kinds, or one of its rule ids."""
    words, prefixes = _ruleset_words()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs
            and (node.value in words or node.value.startswith(prefixes))]


def _outside_rulesets():
    return [p for p in MODULES if "rulesets" not in p.relative_to(PACKAGE).parts]


@pytest.mark.parametrize("path", _outside_rulesets(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_rulesets_names_a_ruleset(path):
    """Outside fsm/rulesets/, no code names a ruleset, a step kind only some
    rulesets have, or a rule id: it reads them from the registry."""
    assert _named(path) == []


def test_the_scan_would_notice_a_ruleset_name(tmp_path):
    """The scan above finds a ruleset name, a specific kind, a rule id and a
    word of a ruleset's scene in code, and ignores them in a docstring."""
    name = next(iter(RULESETS))
    rs = RULESETS[name]
    kind = sorted(set(rs.table.player_steps) - set.intersection(
        *[set(r.table.player_steps) for r in RULESETS.values()]))[0]
    word = next(w for w in rs.scene.attack_kinds if w not in ENGINE_STEPS + MACHINE_STEPS)
    sample = tmp_path / "sample.py"
    sample.write_text(f'"""{name} {kind} {word}"""\nA = "{name}"\nB = ["{kind}"]\n'
                      f'C = "{rs.rule_prefix}-X"\nD = ("{word}",)\n', encoding="utf-8")
    assert sorted(line for line, _ in _named(sample)) == [2, 3, 4, 5]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_reads_in_one_sitting(path):
    """No module is longer than about 400 lines."""
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines"


def test_every_error_derives_from_one_base():
    """Every exception class the package defines is an FsmError."""
    defined = [obj for _, obj in inspect.getmembers(fsm.errors, inspect.isclass)
               if issubclass(obj, Exception) and obj.__module__ == "fsm.errors"]
    assert len(defined) > 3
    assert all(issubclass(cls, fsm.errors.FsmError) for cls in defined)
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and path.name != "errors.py":
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                assert not bases & {"Exception", "ValueError", "RuntimeError"}, \
                    f"{path.name}: {node.name} is an error outside fsm.errors"


def _module_name(path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _private(names) -> set:
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_class_overrides_a_private_method_of_another_module():
    """No class redefines a private method of a base class from another module
    (transitions' included): extension goes through public hooks."""
    found = []
    for path in MODULES:
        if path.name == "__main__.py":
            continue
        module = importlib.import_module(_module_name(path))
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            mine = _private(k for k, v in vars(cls).items() if callable(v))
            for base in cls.__mro__[1:-1]:
                if base.__module__ != cls.__module__:
                    found += [(cls.__qualname__, base.__qualname__, name)
                              for name in mine & _private(vars(base))]
    assert found == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_code_sets_a_private_attribute_of_another_object(path):
    """Outside the engine, no code assigns to another object's private
    attribute (the engine's modules share its encounter's internals)."""
    if path.parent.name == "engine":
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [node.lineno for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign))
           for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
           if isinstance(target, ast.Attribute) and _private([target.attr])
           and not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))]
    assert bad == []


def _reaches(tree) -> dict:
    """``enc.<name>`` in a module: name -> the first line it is on."""
    out: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "enc":
            out.setdefault(node.attr, node.lineno)
    return out


RULESET_MODULES = sorted((PACKAGE / "rulesets").rglob("*.py"))


@pytest.mark.parametrize("path", RULESET_MODULES,
                         ids=lambda p: str(p.relative_to(PACKAGE / "rulesets")))
def test_a_ruleset_touches_only_the_board(path):
    """Guards, effects and tools see the encounter through the board's
    documented names (fsm/engine/board.py), and never assign one."""
    from fsm.engine.board import INTERFACE
    tree = ast.parse(path.read_text(encoding="utf-8"))
    past = {name: line for name, line in _reaches(tree).items() if name not in INTERFACE}
    assert past == {}, f"{path.name} reaches past the board: {past}"
    assigned = [node.lineno for node in ast.walk(tree) if isinstance(node, (ast.Assign,
                                                                          ast.AugAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "enc"]
    assert assigned == []


def test_the_board_lists_what_the_encounter_has_and_the_rulesets_use():
    """Each name of the board is the encounter's, and some ruleset uses it
    (a name nobody uses is dropped from the list); the scan would notice a
    reach past it."""
    from fsm import Encounter
    from fsm.engine.board import INTERFACE
    enc = Encounter("dnd4e", [("a", "x"), ("b", "y")])
    assert [n for n in INTERFACE if not hasattr(enc, n)] == []
    used = set()
    for path in RULESET_MODULES:
        used |= set(_reaches(ast.parse(path.read_text(encoding="utf-8"))))
    assert set(INTERFACE) - used == set()
    assert set(_reaches(ast.parse("def g(enc, st):\n    return enc.log[-1]\n"))) == {"log"}
