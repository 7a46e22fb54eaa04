"""The site's size docs/web.md gives holds against a build (issue 39's
docs-figures check; the other figures are in tests/test_docs_figures.py,
which builds nothing). The site grows with every firmware change, so the
page's figure may lag a little: more than 10% off fails, with one line."""
import os
import re

from okgin.web import WASM_FILES, site_size

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = "docs/web.md"


def _said():
    with open(os.path.join(ROOT, PAGE), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\| site size \| (\d+) KB raw, (\d+) KB gzipped \(the `\.wasm`: (\d+) KB raw[;)]", text)
    assert m, "%s: the site size row of the Figures table is gone" % PAGE
    return [int(g) for g in m.groups()]


def test_the_site_size_in_the_docs_is_the_builds(site):
    raw_kb, gz_kb, wasm_kb = _said()
    raw, gz = site_size(site)
    wasm = next(os.path.getsize(os.path.join(site, "mp", n)) for n in WASM_FILES if n.endswith(".wasm"))
    built = (round(raw / 1024), round(gz / 1024), round(wasm / 1024))
    assert (abs(raw_kb - built[0]) <= 0.1 * built[0] and abs(gz_kb - built[1]) <= 0.1 * built[1]
            and abs(wasm_kb - built[2]) <= 1), (
        "%s says the site is %d KB raw, %d KB gzipped (.wasm %d KB); okgin web --build makes "
        "%d KB, %d KB gzipped (.wasm %d KB)" % ((PAGE, raw_kb, gz_kb, wasm_kb) + built))
