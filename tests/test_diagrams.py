"""Diagrams: drawn from the table, deterministic, fresh, and readable as a path."""

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from fsm import diagrams as D
from fsm.engine import rows as T
from fsm.rulesets import RULESETS
from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "spec" / "scenarios"
HAVE_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason="Graphviz 'dot' is not installed")

EDGE = re.compile(r"^\t(\w+) -> (\w+) \[(.*)\]$", re.M)
NODE = re.compile(r"^\t+(\w+) \[(.*)\]$", re.M)


def edges(dot: str) -> list:
    """(tail, head, attributes) of every edge of a DOT text, as it points: an
    edge written with its arrow turned (``dir=back``) from its head to its tail."""
    return [(head, tail, attrs) if "dir=back" in attrs else (tail, head, attrs)
            for tail, head, attrs in EDGE.findall(dot)]


def nodes(dot: str) -> dict:
    return {name: attrs for name, attrs in NODE.findall(dot)
            if name not in ("graph", "node", "edge")}


def words(label: str) -> set:
    return set(re.sub(r"<[^>]*>", " ", label).split())


def label_of(attrs: str) -> str:
    found = re.search(r"label=<(.*?)>(?: \w+=|$)", attrs)
    return found.group(1) if found else ""


def steps_in(attrs: str, ruleset: str) -> set:
    names = {row.step for row in RULESETS[ruleset].rows}
    return words(label_of(attrs)) & names


def tail_for(row, source) -> str:
    covers_box = all(s in row.sources for s in T.TRIGGERED)
    return D.BOX if covers_box and source in T.TRIGGERED else source


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_table_row_is_an_edge_of_the_overview(ruleset):
    """Each row leaves each of its phases on an edge labelled with its step; a row
    that leaves every trigger-open phase is drawn once, from their box."""
    drawn = edges(D.machine_source(ruleset, "overview", "graphviz"))
    for row in RULESETS[ruleset].rows:
        for source in row.sources:
            tail = tail_for(row, source)
            assert any(t == tail and h == row.dest and row.step in steps_in(a, ruleset)
                       for t, h, a in drawn), (row.step, source, row.dest)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_overview_invents_no_edge(ruleset):
    """Every step on every edge is a row of the table from that tail to that head."""
    rows = RULESETS[ruleset].rows
    for tail, head, attrs in edges(D.machine_source(ruleset, "overview", "graphviz")):
        for step in steps_in(attrs, ruleset):
            assert any(r.step == step and r.dest == head and
                       any(tail_for(r, s) == tail for s in r.sources) for r in rows), \
                (step, tail, head)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_refusal_rows_are_not_drawn(ruleset):
    """No edge carries a step out of a phase where a refusal row forbids it."""
    drawn = edges(D.machine_source(ruleset, "overview", "graphviz"))
    for refusal in RULESETS[ruleset].refusals:
        for source in refusal.sources:
            tails = {source, D.BOX} if source in T.TRIGGERED else {source}
            assert not any(t in tails and refusal.step in steps_in(a, ruleset)
                           for t, _, a in drawn), (refusal.step, source)


def test_the_box_holds_exactly_the_trigger_open_phases():
    """The shaded box holds the phases where a trigger is open, and the box's tail."""
    dot = D.machine_source("dnd4e", "overview", "graphviz")
    inside = dot.split(f"subgraph {D.model.CLUSTER} {{", 1)[1].split("\t}", 1)[0]
    assert set(nodes(inside)) == {*T.TRIGGERED, D.BOX}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_machine_steps_are_dashed_and_player_steps_are_not(ruleset):
    """close and next-turn edges are dashed; edges of player steps are solid."""
    machine = {r.step for r in RULESETS[ruleset].rows if r.by == T.MACHINE}
    for _, _, attrs in edges(D.machine_source(ruleset, "overview", "graphviz")):
        steps = steps_in(attrs, ruleset)
        assert ("style=dashed" in attrs) == bool(steps & machine), attrs


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_windows_view_names_every_guard_with_its_rule_ids(ruleset):
    """Each player row at a window has a card listing each guard and its rule ids."""
    cards = {n: a for n, a in nodes(D.machine_source(ruleset, "windows", "graphviz")).items()
             if n.startswith("c_")}
    for row in RULESETS[ruleset].rows:
        if row.by != T.PLAYER or not ({row.dest, *row.sources} & set(D.model.WINDOWS)):
            continue
        card = next(a for a in cards.values() if f"<B>{row.step}</B>" in a)
        for fn, rules in row.guards:
            assert fn.name in card
            assert all(rule in card for rule in rules)


def test_guard_counts_follow_the_table():
    """The overview says how many guards each player step has (none: no count)."""
    dot = D.machine_source("dnd4e", "overview", "graphviz")
    opportunity = next(r for r in RULESETS["dnd4e"].rows if r.step == "opportunity")
    assert len(opportunity.guards) > 1
    assert "<B>opportunity</B> <FONT" in dot and f"{len(opportunity.guards)} guards" in dot
    assert "<B>resolve</B> <FONT" in dot and "1 guard<" in dot
    assert "<B>event</B>>" in dot or "<B>event</B><BR/>" in dot


@pytest.mark.parametrize("view", D.VIEWS)
def test_every_picture_has_a_legend(view):
    """The DOT graph label and the Mermaid note explain the line styles."""
    dot = D.machine_source("pf2e", view, "graphviz")
    legend = dot.split("label=<<TABLE", 1)[1]
    assert "a step a player declares" in legend and "the machine fires itself" in legend
    mermaid = D.machine_source("pf2e", view, "mermaid")
    assert "note right of turn_end" in mermaid and "Legend" in mermaid


@pytest.mark.parametrize("fmt", ["dot", "mermaid", pytest.param("svg", marks=needs_dot)])
def test_output_is_the_same_byte_for_byte_each_time(fmt):
    """Rendering twice gives identical bytes, with no date in them."""
    first = D.render("dnd4e", "windows", fmt)
    assert first == D.render("dnd4e", "windows", fmt)
    assert not re.search(rb"20\d\d-\d\d-\d\d", first)


def test_the_committed_diagrams_are_fresh(capsys):
    """fsm diagram --check passes on the committed diagrams/ folder."""
    assert main(["diagram", "--check"]) == 0
    assert "diagram check: ok" in capsys.readouterr().out


def _copy_of_diagrams(tmp_path) -> Path:
    copy = tmp_path / "diagrams"
    shutil.copytree(ROOT / "diagrams", copy)
    return copy


def test_check_fails_when_the_table_changes_without_regenerating(tmp_path, monkeypatch,
                                                                 capsys):
    """Dropping one guard from one row makes --check fail and name the stale pictures."""
    rows = RULESETS["dnd4e"].rows
    changed = tuple(dataclasses.replace(r, guards=r.guards[:-1]) if r.step == "standard"
                    else r for r in rows)
    monkeypatch.setitem(RULESETS, "dnd4e", RULESETS["dnd4e"].with_table(changed))
    assert main(["diagram", "--check", "--dir", str(_copy_of_diagrams(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "stale: dnd4e-overview.dot" in out and "stale: dnd4e-windows.mmd" in out
    assert "pf2e-overview.dot" not in out


def test_check_fails_on_a_missing_or_leftover_picture(tmp_path, capsys):
    """A picture that is missing, or no longer generated, makes --check fail."""
    copy = _copy_of_diagrams(tmp_path)
    (copy / "pf2e-windows.mmd").unlink()
    (copy / "old-view.dot").write_text("digraph {}\n", encoding="utf-8")
    assert main(["diagram", "--check", "--dir", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "stale: pf2e-windows.mmd" in out and "no longer generated: old-view.dot" in out


def test_svg_from_another_graphviz_is_not_compared(tmp_path, capsys):
    """An SVG drawn by another Graphviz version is skipped, and --check says so."""
    copy = _copy_of_diagrams(tmp_path)
    svg = copy / "dnd4e-overview.svg"
    text = svg.read_text(encoding="utf-8")
    svg.write_text(re.sub(r"graphviz version \S+", "graphviz version 0.0.1", text)
                   .replace("</svg>", "<!-- laid out elsewhere --></svg>"), encoding="utf-8")
    assert main(["diagram", "--check", "--dir", str(copy)]) == 0
    assert "SVG not compared" in capsys.readouterr().out


@needs_dot
def test_svg_from_the_same_graphviz_is_compared(tmp_path, capsys):
    """An SVG that differs from what the local Graphviz draws is stale."""
    copy = _copy_of_diagrams(tmp_path)
    svg = copy / "pf2e-overview.svg"
    svg.write_text(svg.read_text(encoding="utf-8").replace("turn_acting", "turn_actin"),
                   encoding="utf-8")
    assert main(["diagram", "--check", "--dir", str(copy)]) == 1
    assert "stale: pf2e-overview.svg" in capsys.readouterr().out


def test_a_scenario_path_highlights_exactly_the_visited_phases():
    """The shift-away example visits every phase but turn_end, and only those are lit."""
    _, trace = D.trace_scenario(SCENARIOS / "4e-interrupt-shift-away.json")
    dot = D.machine_source("dnd4e", "overview", "graphviz", trace)
    lit = {n for n, a in nodes(dot).items() if D.model.FILL["visited"] in a}
    assert lit == set(trace.visited_states()) == set(T.STATES) - {T.ENDING}


def test_a_scenario_path_numbers_the_steps_on_the_edges_they_took():
    """Taken edges are red and carry the numbers of the steps that took them."""
    _, trace = D.trace_scenario(SCENARIOS / "4e-interrupt-shift-away.json")
    drawn = edges(D.machine_source("dnd4e", "overview", "graphviz", trace))
    taken = {(t, h): a for t, h, a in drawn if D.model.PATH_INK in a and "penwidth" in a}
    assert set(taken) == {(T.STARTING, T.ACTING), (T.ACTING, T.BEFORE), (D.BOX, T.BEFORE),
                          (T.BEFORE, T.AFTER), (T.AFTER, T.BEFORE)}
    assert "step 2" in taken[(D.BOX, T.BEFORE)]          # the interrupt
    assert "step 4" in taken[(T.BEFORE, T.AFTER)]        # the lost club


def test_rejected_steps_leave_no_path():
    """A refused step takes no edge, not even the window it closed on the way."""
    _, trace = D.trace_scenario(SCENARIOS / "4e-interrupt-shift-away.json")
    assert {step for step, *_ in trace.moves} == {1, 2, 3, 4}     # step 5 is refused


def test_check_draws_both_scenario_pictures(tmp_path, capsys):
    """fsm check --diagram FILE writes the path picture and FILE's .sequence.mmd."""
    target = tmp_path / "shift.dot"
    assert main(["check", str(SCENARIOS / "4e-interrupt-shift-away.json"),
                 "--diagram", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("digraph")
    sequence = (tmp_path / "shift.sequence.mmd").read_text(encoding="utf-8")
    assert "participant c1 as orc (monsters)" in sequence
    assert "participant c2 as ayla (heroes)" in sequence
    assert "c2->>c1: 2 · interrupt “shift away” to club [shift]" in sequence
    assert "✗ club is lost" in sequence
    assert "every expectation holds" in capsys.readouterr().out


def test_the_sequence_shows_windows_and_refused_answers():
    """Windows are noted across the lanes; a refused answer is a crossed arrow."""
    replay, trace = D.trace_scenario(SCENARIOS / "4e-reaction-when-hit.json")
    text = D.sequence_diagram(replay, trace)
    assert text.count("  participant ") == 3
    assert "Note over c1,c3: axe resolved · answers may come after it" in text
    assert re.search(r"c3-xc1: 7 · reaction .* ✗ trigger-passed", text)


def test_the_sequence_opens_with_the_first_turns_owner_though_initiative_moved():
    """A readied action moves Ayla's place in the initiative; the picture still
    opens with her turn, the first one, not with who leads the order at the end."""
    replay, trace = D.trace_scenario(SCENARIOS / "4e-readied-action-moves-initiative.json")
    assert replay.encounter.order[0] != "ayla"
    text = D.sequence_diagram(replay, trace)
    banners = re.findall(r"round \d+ · (\w+)'s turn starts", text)
    assert banners[:3] == ["ayla", "bob", "orc"]


def test_the_sequence_bands_a_disrupted_action():
    """A disrupted frame is shown in a red band, and its lane's activation ends."""
    replay, trace = D.trace_scenario(SCENARIOS / "pf2-disrupted-spell.json")
    text = D.sequence_diagram(replay, trace)
    band = text.split(D.LOSS_BAND, 1)[1]
    assert "✗ spell is disrupted" in band.split("end\n", 1)[0]
    assert text.count("activate c1") == text.count("deactivate c1") * 2


def test_every_example_is_pictured():
    """The texts' own examples each have a path SVG and a sequence diagram."""
    for scenario_id in D.EXAMPLES:
        assert D.scenario_file(scenario_id).exists()
        assert (ROOT / "diagrams" / "scenarios" / f"{scenario_id}.svg").exists()
        assert (ROOT / "diagrams" / "scenarios" / f"{scenario_id}.sequence.mmd").exists()


def test_diagram_writes_the_format_the_file_asks_for(tmp_path, capsys):
    """-o FILE.mmd gives Mermaid; no -o gives DOT on standard output."""
    out = tmp_path / "pf2.mmd"
    assert main(["diagram", "pf2e", "--view", "windows", "-o", str(out)]) == 0
    assert "stateDiagram-v2" in out.read_text(encoding="utf-8")
    assert main(["diagram", "dnd4e"]) == 0
    assert capsys.readouterr().out.startswith("digraph")


@pytest.mark.parametrize("argv", [
    ["diagram"],
    ["diagram", "d&d"],
    ["diagram", "dnd4e", "-o", "picture.gif"],
    ["diagram", "dnd4e", "--check"],
    ["check", "spec/scenarios/4e-reaction-when-hit.json", "--diagram", "path.txt"],
    ["check", "spec/scenarios/4e-reaction-when-hit.json",
     "spec/scenarios/pf2-disrupted-spell.json", "--diagram", "path.svg"],
])
def test_bad_diagram_usage_exits_2_with_one_line(argv, capsys, monkeypatch):
    """Misuse exits 2 with a single line on stderr and no traceback."""
    monkeypatch.chdir(ROOT)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_machine_edges_speak_in_words_with_the_guard_names_as_tooltips(ruleset):
    """A machine row's edge says when it fires in words; its guards' names
    are no part of the label, only of its tooltip."""
    svg = (ROOT / "diagrams" / f"{ruleset}-overview.svg").read_text(encoding="utf-8")
    labels = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    tips = " ".join(re.findall(r'xlink:title="([^"]*)"', svg))
    rows = [r for r in RULESETS[ruleset].rows if r.by == T.MACHINE]
    for r in rows:
        for g, _ in r.guards:
            assert g.name not in labels, (r.step, g.name)
            assert g.name in tips, (r.step, g.name)
        timing = [g for g, _ in r.guards if g.routing and not (g.structural or g.once)]
        for g in timing:
            assert g.says.replace("'", "&#39;") in labels or g.says in labels, g.says


def _text_boxes(svg: str) -> list:
    """(x0, y0, x1, y1, text, group) of every text Graphviz drew in a node,
    an edge or a cluster, its width estimated from its length."""
    import html as H
    out = []
    starts = list(re.finditer(r'<g id="([^"]+)" class="(?:node|edge|cluster)">', svg))
    for k, g in enumerate(starts):
        body = svg[g.end():starts[k + 1].start() if k + 1 < len(starts) else len(svg)]
        for m in re.finditer(r"<text ([^>]*)>(.*?)</text>", body, re.S):
            attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
            text = H.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
            if not text.strip():
                continue
            size, x, y = (float(attrs.get("font-size", 14)), float(attrs["x"]),
                          float(attrs["y"]))
            x += (len(text) - len(text.lstrip())) * size * 0.25
            width = len(text.strip()) * size * 0.5
            anchor = attrs.get("text-anchor", "start")
            x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
            out.append((x0, y - size * 0.75, x0 + width, y + size * 0.2, text.strip(), g.group(1)))
    return out


def _overprinted(svg: str) -> list:
    boxes = _text_boxes(svg)
    return [(p[4], q[4]) for i, p in enumerate(boxes) for q in boxes[i + 1:]
            if p[5] != q[5] and p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]]


@pytest.mark.parametrize("path", sorted((ROOT / "diagrams").rglob("*.svg")), ids=lambda p: p.name)
def test_no_label_of_a_picture_prints_over_another(path):
    """No text of one node, edge or box of a committed picture lies over a
    text of another (the windows view once put a loop's label over a card)."""
    assert _overprinted(path.read_text(encoding="utf-8")) == []


def test_the_overprint_check_sees_an_overprint():
    svg = ('<g id="node1" class="node"><text text-anchor="start" x="10" y="20" '
           'font-size="10">own turn</text></g><g id="edge1" class="edge"><text '
           'text-anchor="middle" x="30" y="22" font-size="10">close when</text></g>')
    assert _overprinted(svg) == [("own turn", "close when")]
    assert _overprinted(svg.replace('y="22"', 'y="60"')) == []
