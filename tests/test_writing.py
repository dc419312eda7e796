"""Nothing of the user's is lost: every command that writes refuses a place
it cannot write in one line (exit 2, no traceback) before it does its work;
fsm site writes only into a new or empty folder or one it built; --fuzz
--out and fsm explore never replace a file, and a vector that cannot be
written is printed instead."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "vectors"
FEW = [str(VECTORS / f"{v}.json") for v in ("4e-interrupt-too-late", "pf2-three-actions")]
SCENARIO = str(ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json")
SERVE = f"{sys.executable} -m fsm serve"


def _writable(folder: Path) -> bool:
    try:
        (folder / ".probe").write_text("x")
    except OSError:
        return False
    (folder / ".probe").unlink()
    return True


class Unwritable:
    """Makes places nobody can write: read-only for an ordinary user, and
    immutable (chattr +i) for root, whom permissions do not stop."""

    def __init__(self):
        self.locked = []

    def folder(self, path: Path) -> Path:
        path.mkdir(parents=True, exist_ok=True)
        for here, dirs, files in os.walk(path):
            for name in files:
                os.chmod(os.path.join(here, name), 0o444)
        for here, dirs, files in os.walk(path, topdown=False):
            os.chmod(here, 0o555)
        self.locked.append(path)
        if _writable(path):
            done = subprocess.run(["chattr", "-R", "+i", str(path)], capture_output=True)
            if done.returncode != 0 or _writable(path):
                pytest.skip("no way to make a folder unwritable here (root without chattr)")
        return path

    def undo(self):
        for path in self.locked:
            subprocess.run(["chattr", "-R", "-i", str(path)], capture_output=True)
            for here, dirs, files in os.walk(path):
                os.chmod(here, 0o755)
                for name in files:
                    os.chmod(os.path.join(here, name), 0o644)


@pytest.fixture
def unwritable():
    maker = Unwritable()
    yield maker
    maker.undo()


def _checkout_copy(tmp_path) -> Path:
    """A copy of the checkout's spec/ (and an empty tests/), as fsm spec map
    and fsm conformance --generate take with --root."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / "spec", root / "spec")
    (root / "tests").mkdir()
    return root


# Each command, given the place it should write in (a folder).
WRITERS = {
    "site": lambda place, root: ["site", str(place)],
    "spec map": lambda place, root: ["spec", "map", "--root", str(root)],
    "diagram --write": lambda place, root: ["diagram", "--write", "--dir", str(place)],
    "diagram -o": lambda place, root: ["diagram", "dnd4e", "-o", str(place / "m.dot")],
    "check --diagram": lambda place, root: ["check", SCENARIO, "--diagram",
                                            str(place / "s.dot")],
    "conformance --junit": lambda place, root: ["conformance", *FEW, "--junit",
                                                str(place / "r.xml")],
    "conformance --report": lambda place, root: ["conformance", *FEW, "--report",
                                                 str(place / "r.md")],
    "conformance --fuzz --out": lambda place, root: ["conformance", "--fuzz", "1",
                                                     "--program", SERVE, "--out",
                                                     str(place / "found")],
    "conformance --generate": lambda place, root: ["conformance", "--generate", "--root",
                                                   str(root)],
    "explore --out": lambda place, root: ["explore", "pf2e", "--combatants", "2", "--rounds",
                                          "1", "--jobs", "1", "--out", str(place)],
}
# the commands that write into a checkout's spec/ (given with --root)
IN_SPEC = {"spec map", "conformance --generate"}


@pytest.mark.parametrize("kind", ["read-only", "a file"])
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_an_unwritable_place_is_refused_in_one_line(writer, kind, tmp_path, unwritable,
                                                    capsys):
    """A read-only folder (a read-only checkout's spec/ for the commands
    that write there), or a file where the folder should be: exit 2, one
    line on stderr naming the place, no traceback, and nothing written."""
    if writer == "conformance --fuzz --out":
        pytest.importorskip("hypothesis")
    root = _checkout_copy(tmp_path) if writer in IN_SPEC else tmp_path
    place = root / "spec" if writer in IN_SPEC else tmp_path / "place"
    if kind == "a file":
        if place.exists():
            shutil.rmtree(place)
        place.write_text("a file of the user's\n")
    else:
        unwritable.folder(place)
    before = sorted(p.name for p in place.iterdir()) if place.is_dir() else None
    code = main(WRITERS[writer](place, root))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(place) in err or str(place.parent) in err, err
    if kind == "a file":
        assert place.read_text() == "a file of the user's\n"
    else:
        assert sorted(p.name for p in place.iterdir()) == before


# -- fsm site writes only into a new or empty folder, or one it built --

def test_a_folder_of_the_users_is_refused_and_replace_keeps_what_the_site_does_not_write(
        tmp_path, capsys):
    out = tmp_path / "www"
    out.mkdir()
    (out / "index.html").write_text("my own page\n")
    (out / "style.css").write_text("body { color: red }\n")
    (out / "CNAME").write_text("rules.example.org\n")
    assert main(["site", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did not write" in err and "--replace" in err, err
    assert "CNAME, index.html, style.css" in err
    assert (out / "index.html").read_text() == "my own page\n"
    assert sorted(p.name for p in out.iterdir()) == ["CNAME", "index.html", "style.css"]
    assert main(["site", str(out), "--replace"]) == 0
    assert "<!DOCTYPE html>" in (out / "index.html").read_text()
    assert (out / "CNAME").read_text() == "rules.example.org\n"


def test_a_site_is_rebuilt_over_itself_and_the_users_files_beside_it_are_left(tmp_path,
                                                                             capsys):
    """A second build replaces the first one's files and removes those it
    no longer writes; a file the user put beside them stays; a file of the
    user's where the site would write is refused."""
    from fsm.site.folder import MARKER
    root = _checkout_copy(tmp_path)         # site/ in a checkout, as the README builds it
    out = root / "site"
    assert main(["site", str(out), "--root", str(root)]) == 0
    assert re.match(rf"wrote \d+ files under {re.escape(str(out))} in ",
                    capsys.readouterr().out)
    marker = out / MARKER
    listed = marker.read_text().splitlines()[1:]
    assert "index.html" in listed and "rule/4E-IMM-ONCE.html" in listed
    (out / "CNAME").write_text("rules.example.org\n")
    (out / "rule" / "OLD-RULE.html").write_text("a page of an older build\n")
    marker.write_text(marker.read_text() + "rule/OLD-RULE.html\n")
    assert main(["site", str(out), "--root", str(root)]) == 0
    assert "removed 1 its previous build had" in capsys.readouterr().out
    assert not (out / "rule" / "OLD-RULE.html").exists()
    assert (out / "CNAME").read_text() == "rules.example.org\n"
    # a file the marker does not list, where the site writes: the user's
    marker.write_text("\n".join(line for line in marker.read_text().splitlines()
                                if line != "reference.html") + "\n")
    before = (out / "reference.html").read_text()
    assert main(["site", str(out), "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reference.html" in err and "--replace" in err, err
    assert (out / "reference.html").read_text() == before


def test_a_marker_cannot_lead_a_rebuild_out_of_its_folder(tmp_path):
    """Names in the marker that leave the folder are not the site's."""
    from fsm.site.folder import HEADER, MARKER, built_before
    (tmp_path / MARKER).write_text(f"{HEADER}\n../outside.txt\n/etc/passwd\nindex.html\n")
    assert built_before(tmp_path) == {"index.html"}
    (tmp_path / MARKER).write_text("index.html\n")          # not fsm's own header
    assert built_before(tmp_path) is None


@pytest.mark.parametrize("inside", [".", "spec", "spec/vectors", "fsm"])
@pytest.mark.parametrize("replace", [(), ("--replace",)])
def test_the_projects_own_folders_are_never_a_sites_place(inside, replace, tmp_path, capsys):
    root = _checkout_copy(tmp_path)
    (root / "fsm").mkdir()
    out = root / inside
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    assert main(["site", str(out), "--root", str(root), *replace]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "such as site/" in err, err
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


# -- --fuzz --out never loses the disagreement it found --

FAKE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'fake_engine.py'}"


@pytest.mark.parametrize("given", ["file", "folder"])
def test_fuzz_out_never_replaces_a_file_it_finds_there(given, tmp_path, capsys):
    """--out naming a file that exists, or a folder holding a vector of the
    same name: the new vector gets a fresh name beside it (in a folder, its
    id follows the name, so the folder still runs as a suite)."""
    pytest.importorskip("hypothesis")
    out = tmp_path / ("mine.json" if given == "file" else "found")
    argv = ["conformance", "--program", f"{FAKE} crash", "--fuzz", "5", "--timeout", "5",
            "--out", str(out)]
    if given == "file":
        out.write_text("my notes\n")
        assert main(argv) == 1
        assert out.read_text() == "my notes\n"
        written = tmp_path / "mine-2.json"
    else:
        assert main(argv) == 1
        (first,) = out.glob("*.json")
        capsys.readouterr()
        assert main(argv) == 1
        written = first.with_name(first.stem + "-2.json")
        assert json.loads(written.read_text())["id"] == written.stem
        assert json.loads(first.read_text())["id"] == first.stem
    assert f"wrote {written} " in capsys.readouterr().out
    assert json.loads(written.read_text())["steps"]


def test_a_vector_that_cannot_be_written_is_printed_instead(tmp_path, capsys):
    """When --out cannot be written by the time the vector is found, one
    line says so on stderr and the vector is printed whole on stdout."""
    from fsm.cli.conformance import keep_vector
    (tmp_path / "a-file").write_text("x")
    vector = {"format": 1, "id": "fuzz-dnd4e-0123", "ruleset": "dnd4e", "steps": []}
    assert keep_vector(vector, str(tmp_path / "a-file" / "found")) is None
    out, err = capsys.readouterr()
    assert json.loads(out) == vector
    assert err.count("\n") == 1 and "cannot write" in err and "follows on stdout" in err

