# Runs every test_* function of one case module under MicroPython:
#   micropython tests/drivers/mp_runner.py test_buttons
# prints "PASS <name>" or "FAIL <name>: <error>" per test, then "DONE".
# test_micropython.py starts it and turns each line into a pytest result.
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = HERE.rsplit("/", 2)[0] if HERE.count("/") >= 2 else "."
for p in (HERE, ROOT + "/firmware"):
    if p not in sys.path:
        sys.path.insert(0, p)

mod = __import__(sys.argv[1])
names = sorted([n for n in dir(mod) if n.startswith("test_")])
for name in names:
    try:
        getattr(mod, name)()
        print("PASS", name)
    except Exception as e:
        print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
print("DONE")
