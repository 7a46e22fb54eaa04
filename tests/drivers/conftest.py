# The driver tests import firmware modules flat, as the device does, and the
# shared fakes; the same case files also run under the micropython binary
# (test_micropython.py).
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for p in (HERE, os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)
