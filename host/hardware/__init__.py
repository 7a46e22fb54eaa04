"""The printable enclosure (``okgin hardware build``): where things go
(layout.py, seats.py), the solid as triangles (mesh.py), OpenSCAD
(scad.py), the geometry checks (checks.py) and the build that ties them
(build.py). The command is command.py, imported only when it runs (as
faults/ and web/ have theirs), so importing a part of this package never
runs the command's module."""
