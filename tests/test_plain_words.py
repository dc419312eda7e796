"""Text meant for people names no internal thing: no Python ``None``, no
phase id of the machine, no guard's name. The ids stay where programs read
them (JSON, the HTML's data and tooltips); every other output of a gallery
scenario (text, --explain, Markdown, BBCode, --at, the site's page as it
reads) is held to that here."""

import html
import re
from pathlib import Path

import pytest

from fsm.cli import main
from fsm.engine.rows import STATES
from fsm.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted(p for p in (ROOT / "spec" / "scenarios").iterdir()
                 if p.suffix in (".json", ".yaml"))
# a guard named by one English word ("provoked") may be said; ids with "_" may not
GUARDS = sorted({name for rs in RULESETS.values() for name in rs.table.guards if "_" in name})
INTERNAL = re.compile(r"\b(None|" + "|".join(map(re.escape, (*STATES, *GUARDS))) + r")\b")


def _internal(text: str) -> list:
    return sorted(set(INTERNAL.findall(text)))


def test_the_names_looked_for_are_the_tables():
    assert len(GUARDS) > 30 and "own_turn" in GUARDS and "window_reaction" in STATES
    assert _internal("it is ogre's own turn; None of it") == ["None"]
    assert _internal("the window_reaction phase; own_turn saw") == ["own_turn", "window_reaction"]


def _run(capsys, *argv) -> str:
    main(list(argv))
    out, err = capsys.readouterr()
    return out + err


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_no_internal_name_in_what_fsm_check_prints(path, capsys):
    outputs = {fmt: _run(capsys, "check", "--format", fmt, "--explain", str(path))
               for fmt in ("text", "markdown", "bbcode")}
    outputs["plain"] = _run(capsys, "check", str(path))
    for at in (0, 1, 3):
        outputs[f"--at {at}"] = _run(capsys, "check", "--at", str(at), str(path))
        outputs[f"--at {at} markdown"] = _run(capsys, "check", "--format", "markdown",
                                              "--at", str(at), str(path))
    for name, text in outputs.items():
        assert _internal(text) == [], (name, _internal(text))


def _readable(page: str) -> str:
    """What a reader sees of a page: no scripts, data, tooltips or attributes."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<title>.*?</title>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    assert main(["site", str(out)]) == 0
    return out


def test_no_internal_name_in_the_pages_as_they_read(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    found = {}
    for page in pages:
        names = _internal(_readable(page.read_text(encoding="utf-8")))
        if names:
            found[str(page.relative_to(site))] = names
    assert found == {}
