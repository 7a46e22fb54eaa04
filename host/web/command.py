"""``okgin web``: play in a browser. ``okgin web`` builds the site into a
temporary folder and serves it on this machine for a quick try; ``okgin
web --build DIR`` only builds it, for any static host (okgin.web: the
page, its build and its server)."""
import os
import signal
import sys
import tempfile

from . import build, make_server, size_note

EPILOG = """examples:
  okgin web                     build the site and serve it on http://127.0.0.1:8000/
  okgin web --port 0            any free port
  okgin web --build site/       only build the static site into site/
  okgin web --board board-2in9.json   the 2.9in table's panels (296x128)

The built site also offers okgin.uf2 (what okgin uf2 writes: MicroPython
for the Pico and the game, one file to drag onto a Pico), with how to put
it on; --build downloads MicroPython for the Pico once if need be.
"""


def configure(parser):
    parser.epilog = EPILOG
    parser.add_argument("--build", metavar="DIR",
                        help="build the static site into DIR (made or emptied) and stop")
    from ..table import options as table_options
    table_options.add(parser, "board", help={
        "board": "board definition whose panels the page shows (default hardware/board.json: "
                 "the 4.2in table; board-2in9.json: the 2.9in one)"})
    parser.add_argument("--port", type=int, default=8000,
                        help="port to serve on (default 8000; 0 = any free port)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (default 127.0.0.1, this machine only)")


def run(args):
    from ..table import options as table_options
    board = table_options.resolve(args).board
    if args.build:
        out = build(args.build, uf2="download", board=board)
        print("okgin web: built %s (%s)" % (out, size_note(out)))
        return 0
    # a kill ends the server as Ctrl-C does, so the build's folder goes too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with tempfile.TemporaryDirectory(prefix="okgin-web-") as tmp:
        site = build(os.path.join(tmp, "site"), board=board)
        server = make_server(site, args.host, args.port)
        host, port = server.server_address[:2]
        print("okgin web: serving the page on http://%s:%d/  (Ctrl-C stops)" % (host, port),
              flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0
