"""What the built site carries (okgin web --build): the device's firmware."""
import os

from tests.support.web import ROOT


def test_the_page_ships_the_device_firmware_less_its_pins_and_serial(site):
    """The page's flash is the device's (okgin flash's layout, compiled),
    without the modules only the device uses, plus webhal and webmain."""
    from okgin.lib.firmware_files import firmware_files
    from okgin.web import DEVICE_ONLY
    device = {dev for dev, _src, _c in firmware_files(ROOT)}
    fw = os.path.join(site, "fw")
    page = set()
    for dirpath, _dirs, files in os.walk(fw):
        for fn in files:
            page.add(os.path.relpath(os.path.join(dirpath, fn), fw).replace(os.sep, "/"))
    assert page - {"board.json"} == (device - set(DEVICE_ONLY)) | {"webhal.mpy", "webmain.mpy"}
