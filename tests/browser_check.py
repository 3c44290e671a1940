#!/usr/bin/env python3
"""Opens a replay viewer page (skyline replay --html) in headless chromium, driven through
the DevTools protocol over a pipe, as a user would: each game's move list holds every move
of its record (elements with data-ply), the arrow keys, Home/End, a click on a move and
#game=G&ply=K change the position shown, and a screenshot is not blank. Any JavaScript
exception or console error fails.

usage: browser_check.py PAGE.html RECORDS.jsonl SHOT.png
exit 0 pass, 1 fail, 77 chromium missing (outside CI; CI=true makes it a failure).
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
import struct

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--window-size=1400,1000"]


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="skyline-chromium-")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The protocol pipe is fds 3 (commands in) and 4 (answers out) of the browser.
        cmd = ["bash", "-c", 'exec "$0" "$@" 3<&%d 4>&%d' % (to_r, from_w), chromium,
               *FLAGS, "--user-data-dir=" + self.profile, "about:blank"]
        self.proc = subprocess.Popen(cmd, pass_fds=(to_r, from_w), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.next_id = 0
        self.buf = b""
        self.events = []
        self.session = None

    def read_message(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the protocol pipe")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, session=True, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.read_message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name):
        for i, e in enumerate(self.events):
            if e.get("method") == name:
                del self.events[i]
                return e
        while True:
            m = self.read_message()
            if m.get("method") == name:
                return m
            self.events.append(m)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def settle(self, expr, want, seconds=10.0):
        """The value of expr once it equals want (a hash change is handled a moment after the
        navigation returns), or its last value after the given seconds."""
        end = time.time() + seconds
        while True:
            v = self.eval(expr)
            if v == want or time.time() > end:
                return v
            time.sleep(0.02)

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=name,
                      windowsVirtualKeyCode=code)

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def png_distinct_bytes(data):
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def check(page, records, shot):
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)
            print("browser_check: FAIL:", what)

    counts = [len(json.loads(l)["moves"]) for l in open(records) if l.strip()]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    b = Browser(chromium)
    try:
        target = b.call("Target.createTarget", session=False, url="about:blank")["targetId"]
        b.session = b.call("Target.attachToTarget", session=False, targetId=target,
                           flatten=True)["sessionId"]
        for domain in ("Runtime", "Page", "Log"):
            b.call(domain + ".enable")
        url = "file://" + os.path.abspath(page)
        b.call("Page.navigate", url=url + "#game=0&ply=0")
        b.wait_event("Page.loadEventFired")
        board = "document.querySelector('section.game:not([hidden]) .board')"
        ply = "+document.body.getAttribute('data-ply')"
        for g, n in enumerate(counts):
            b.call("Page.navigate", url=f"{url}#game={g}&ply=0")
            shown = b.settle("+document.body.getAttribute('data-game')", g)
            b.settle(ply, 0)
            expect(shown == g, f"game {g}: #game={g} shows game {shown}")
            items = b.eval("Array.from(document.querySelectorAll('section.game:not([hidden]) "
                           "[data-ply]')).map(e => +e.getAttribute('data-ply'))")
            expect(items == list(range(1, n + 1)), f"game {g}: move list {items} is not 1..{n}")
            start = b.eval(board + ".innerHTML")
            expect("<svg" in start, f"game {g}: no picture at ply 0")
            b.key("ArrowRight", 39)
            expect(b.eval(ply) == 1, f"game {g}: the right arrow did not step to ply 1")
            expect(b.eval(board + ".innerHTML") != start, f"game {g}: ply 1 looks like ply 0")
            b.key("End", 35)
            expect(b.eval(ply) == n, f"game {g}: End did not go to ply {n}")
            b.key("ArrowLeft", 37)
            expect(b.eval(ply) == n - 1, f"game {g}: the left arrow did not step back")
            b.key("Home", 36)
            expect(b.eval(ply) == 0 and b.eval(board + ".innerHTML") == start,
                   f"game {g}: Home did not come back to the start")
            k = (n + 1) // 2
            b.eval(f"document.querySelector('section.game:not([hidden]) [data-ply=\"{k}\"]').click()")
            expect(b.eval(ply) == k, f"game {g}: a click on move {k} did not show it")
            b.call("Page.navigate", url=f"{url}#game={g}&ply={k - 1}")
            expect(b.settle(ply, k - 1) == k - 1, f"game {g}: #ply={k - 1} did not show it")
        png = base64.b64decode(b.call("Page.captureScreenshot", format="png")["data"])
        open(shot, "wb").write(png)
        expect(png_distinct_bytes(png) > 16, "the screenshot is blank")
        expect(b.eval("document.documentElement.getAttribute('data-js-error')") is None,
               "the page recorded a script error")
        b.eval("0")  # collect the events sent so far
        for e in b.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                expect(False, "exception: " + json.dumps(p.get("exceptionDetails"))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                expect(False, "console error: " + json.dumps(p.get("args"))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                expect(False, "log error: " + p["entry"].get("text", "")[:300])
    finally:
        b.close()
    print(f"browser_check: {len(counts)} game(s), {len(failures)} failure(s)")
    return 1 if failures else 0


def main(argv):
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("browser_check: chromium is missing (scripts/bootstrap.sh --browser): skipped")
        return 1 if os.environ.get("CI") == "true" else 77
    return check(*argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
