"""The printable enclosure (``okgin hardware build``): where things go
(layout.py, seats.py), the solid as triangles (mesh.py), OpenSCAD
(scad.py), the geometry checks (checks.py) and the build that ties them
(build.py). The command is command.py, imported only when it runs (as
faults/ and web/ have theirs), so importing a part of this package never
runs the command's module."""
from . import layout as _layout
from ..lib import paths as _paths

# layout.py finds the hardware folder from its own path, right in a checkout
# only (installed, that is site-packages: "No module named 'boarddef'");
# okgin.lib.paths knows both layouts. layout.py is hashed into the committed
# case (build.input_hash), so its folders are set here, before build.py
# reads them, until the case's next rebuild folds this line into layout.py.
_layout.ROOT, _layout.HARDWARE = _paths.ROOT, _paths.HARDWARE

