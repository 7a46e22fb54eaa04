"""The recipes for extending okgin (docs/architecture.md "Extending okgin")
hold against the code: every link of the index reaches a heading, every
file a recipe names exists, and the steps a test can see are taken (a
bench suite has its own parser; the web page leaves out every display
driver). The recipes' other steps have their own tests, named in the index."""
import importlib
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")

# (page, heading) of every recipe
RECIPES = [("architecture.md", "Adding a host command"), ("architecture.md", "Adding a bench suite"),
           ("architecture.md", "Languages"), ("reliability.md", "Adding a fault kind"),
           ("firmware.md", "Adding a display controller"), ("engine.md", "Adding a rules option"),
           ("bots.md", "Adding a computer level")]


def _read(page):
    with open(os.path.join(DOCS, page), encoding="utf-8") as f:
        return f.read()


def _slug(heading):
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def _section(page, heading):
    """The text of a heading's section, up to the next heading of its level or above."""
    lines = _read(page).splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip("#").strip() == heading and ln.startswith("#"))
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level),
               len(lines))
    return "\n".join(lines[start:end])


def _index():
    return _section("architecture.md", "Extending okgin")


def test_every_link_of_the_index_reaches_a_heading():
    links = re.findall(r"\]\(([^)#]*)#([^)]+)\)", _index())
    assert len(links) >= 8, links
    for page, anchor in links:
        text = _read(page or "architecture.md")
        anchors = {_slug(ln.lstrip("#")) for ln in text.splitlines() if ln.startswith("#")}
        assert anchor in anchors, (page, anchor)


def test_the_index_links_every_recipe():
    index = _index()
    for page, heading in RECIPES:
        target = ("" if page == "architecture.md" else page) + "#" + _slug(heading)
        assert "](%s)" % target in index, target


def test_every_file_the_recipes_and_the_index_name_exists():
    named = set(re.findall(r"\b((?:tests|host|firmware|engine)/[\w/.]+\.(?:py|txt|md))\b", _index()))
    for page, heading in RECIPES:
        for path in re.findall(r"`((?:tests|host|firmware|engine)/[^`<>{}*\s]+)`", _section(page, heading)):
            named.add(path)
    assert len(named) > 15, sorted(named)
    missing = sorted(p for p in named if not os.path.exists(os.path.join(ROOT, p)))
    assert not missing, missing


def test_every_bench_module_is_a_suite_with_its_own_parser():
    """docs/architecture.md "Adding a bench suite": a module in
    host/benches/ with run() is a row of SUITES and has configure()."""
    from okgin.bench import SUITES
    modules = {mod for mod, _ in SUITES.values()}
    for fn in sorted(os.listdir(os.path.join(ROOT, "host", "benches"))):
        if not fn.endswith(".py") or fn == "__init__.py":
            continue
        mod = importlib.import_module("okgin.benches." + fn[:-3])
        if hasattr(mod, "run"):
            assert mod.__name__ in modules, mod.__name__
            assert callable(getattr(mod, "configure", None)), mod.__name__


def test_the_web_page_leaves_out_every_display_driver():
    """docs/firmware.md "Adding a display controller": the page has no
    pins, so every driver of display.DRIVERS is in web's DEVICE_ONLY."""
    import display
    from okgin.web import DEVICE_ONLY
    assert display.DRIVERS
    for module in display.DRIVERS.values():
        assert module + ".mpy" in DEVICE_ONLY, module
