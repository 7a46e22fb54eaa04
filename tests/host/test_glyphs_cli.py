"""okgin glyphs as a translator runs it: no font is one line saying what to
install (the catalogues' indexes are still made); a catalogue using a
character the font lacks names the file and the character; --check says
whether the committed glyph files and indexes are the catalogues'."""
import os
import shutil
import subprocess
import sys

import pytest

from tests.support.harness import ROOT

HEX = "/usr/share/unifont/unifont.hex"


def _okgin(*args):
    return subprocess.run([sys.executable, "-m", "okgin.cli", "glyphs", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_no_font_is_one_line_saying_what_to_install(tmp_path):
    r = _okgin("--hex", str(tmp_path / "none.hex"))
    assert r.returncode == 1
    assert r.stderr.strip().count("\n") == 0
    assert "apt-get install unifont" in r.stderr and "Traceback" not in r.stderr
    # the indexes need no font: each catalogue's is still checked (and
    # written when stale), so an edit made without Unifont gets its index
    assert r.stdout.count(".idx: 287 keys") == 4, r.stdout


@pytest.mark.skipif(not os.path.isfile(HEX), reason="GNU Unifont is not installed (apt-get install unifont)")
def test_check_passes_on_the_committed_files():
    r = _okgin("--check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("up to date") == 8       # four glyph files, four indexes


@pytest.mark.skipif(not os.path.isfile(HEX), reason="GNU Unifont is not installed (apt-get install unifont)")
def test_a_character_the_font_lacks_names_the_catalogue(tmp_path):
    from okgin import glyphs
    from okgin.lib.errors import CommandError
    d = tmp_path / "lang"
    shutil.copytree(os.path.join(ROOT, "firmware", "lang"), d)
    with open(d / "sw.txt", "a", encoding="utf-8") as f:
        f.write("menu.extra = Karibu \U0001F600\n")     # beyond the Basic Multilingual Plane
    with pytest.raises(CommandError) as e:
        glyphs.cut(root=str(d))
    assert "sw.txt" in str(e.value) and "U+1F600" in str(e.value)
