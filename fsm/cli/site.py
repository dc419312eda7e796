"""fsm site: build the rules, the machine and every worked example as a
static web site."""

from __future__ import annotations

import argparse
import os
import shlex
import time

from ..io.writing import cannot_write
from .common import RawFormatter, SEEDS_ENV, output_path, sources_folder

EPILOG_SITE = """\
The site is plain files (HTML, one style sheet, inline SVG and a small
script): put the folder on any static host, or open index.html from disk.
Building it needs Graphviz's dot (the pictures are drawn as SVG).
Every page reads without JavaScript; the scenario pages add a step-through
(previous/next, the arrow keys, #step-N in the address).

--live adds live/index.html, a checker that runs this package in the
browser under Pyodide: paste a scenario, get every verdict and the
step-through; the address holds the scenario, so a link reproduces it. The
build needs npm, to fetch the pyodide package (about 14 MB, copied into the
site: nothing is fetched when the page is viewed), unless --pyodide names a
copy of it. Browsers load WebAssembly only over HTTP: serve the folder (for
a look on your own machine: python -m http.server -d OUT).

Built without --sources, no sentence of the texts appears: the pages give
them in our words. With --sources the originals are shown beside them, for a
private build; the pages say so.

OUT must be a new or empty folder, or one fsm site built before: it leaves
a list of what it wrote there (.fsm-site), and a later build replaces those
files, removes the ones it no longer writes and leaves any other file alone.
A folder holding files it did not write is refused, unless --replace is
given: then those of the same names as the site's are replaced and the
others left. The project's own folders (the checkout, its spec/, fsm/,
tests/...) are refused even so: build into a folder of its own, like site/.

exit status: 0 built, 2 bad usage (OUT refused or unwritable, or npm could not
fetch the runtime).
examples:
  fsm site site/
  fsm site site/ --live                          (adds the live checker; needs npm)
  fsm site site/ --sources ../shared      (private: the texts' sentences shown)
"""


def add_parser(sub) -> None:
    site = sub.add_parser(
        "site", help="build the rules, the machine and the examples as a static web site",
        description="Build a static web site: a page per rule, per text, per scenario "
                    "(with a step-through), the reason codes and options, the vectors.",
        epilog=EPILOG_SITE, formatter_class=RawFormatter)
    site.add_argument("out", metavar="OUT", type=output_path,
                      help="the folder to write the site to")
    site.add_argument("--sources", metavar="DIR", default=None,
                      help="folder holding the texts: show their sentences too (a private "
                           f"build; ${SEEDS_ENV} is not read here, on purpose)")
    site.add_argument("--live", action="store_true",
                      help="add the live checker (runs fsm in the browser; the build needs "
                           "npm unless --pyodide is given)")
    site.add_argument("--pyodide", metavar="PATH", default=None,
                      help="with --live: the pyodide npm package, as its folder or its .tgz, "
                           "instead of fetching it with npm")
    site.add_argument("--replace", action="store_true",
                      help="write the site into OUT even though it holds files fsm site "
                           "did not write: those of the same names as the site's are "
                           "replaced, the others left")
    site.add_argument("--root", default=None, help=argparse.SUPPRESS)
    site.set_defaults(func=cmd_site)


def cmd_site(args) -> int:
    from ..site.build import build
    sources_folder(args.sources)
    start = time.perf_counter()
    try:
        written, removed = build(args.out, args.root, args.sources, args.live, args.pyodide,
                                 args.replace)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    if args.live:
        where = (f"serve it to use the live checker: python -m http.server -d "
                 f"{shlex.quote(str(args.out))}, then open "
                 f"http://127.0.0.1:8000/live/index.html")
    else:
        where = f"open {os.path.join(args.out, 'index.html')}"
    gone = f" (and removed {removed} its previous build had)" if removed else ""
    print(f"wrote {len(written)} files under {os.path.abspath(args.out)}{gone} in "
          f"{time.perf_counter() - start:.1f} s; {where}")
    return 0
