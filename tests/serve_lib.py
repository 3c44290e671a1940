"""Helpers of the skyline serve tests (tests/serve_check.py, tests/serve_browser.py,
scripts/serve_load.py): start a server on a free port, talk to it, follow its event streams.
Every wait is for an event, with a generous bound."""
import http.client
import json
import os
import select
import subprocess
import tempfile
import time
import urllib.parse

BOUND = 60  # seconds any awaited event may take (CI shares the machine)


class Server:
    def __init__(self, skyline, data, *extra):
        # stderr goes to a file: a pipe nobody reads would fill and stop the server.
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([skyline, "serve", "--port", "0", "--data", data, *extra],
                                     stdout=subprocess.PIPE, stderr=self.errors, text=True)
        line = self._line(BOUND)
        if "open http://" not in line:
            err = self.stderr() if self.proc.poll() is not None else ""
            raise RuntimeError("serve did not start: %r %r" % (line, err))
        self.first_line = line
        url = line.split("open ")[1].split()[0]
        hostport = url.split("//")[1].rstrip("/")
        self.host, port = hostport.split(":")
        self.port = int(port)
        self.url = url

    def stderr(self):
        """What the server wrote on stderr so far."""
        self.errors.seek(0)
        return self.errors.read()

    def _line(self, bound):
        ready, _, _ = select.select([self.proc.stdout], [], [], bound)
        return self.proc.stdout.readline() if ready else ""

    def request(self, method, path, params=None, body=None, headers=None):
        """(status, parsed JSON or text) of a request; params go in the body for POST."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=BOUND)
        hdrs = dict(headers or {})
        if params is not None and method == "POST":
            body = urllib.parse.urlencode(params)
            hdrs.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif params is not None:
            path += "?" + urllib.parse.urlencode(params)
        conn.request(method, path, body=body, headers=hdrs)
        r = conn.getresponse()
        data = r.read().decode("utf-8", "replace")
        conn.close()
        if r.getheader("Content-Type", "").startswith("application/json"):
            return r.status, json.loads(data)
        return r.status, data

    def get(self, path, **params):
        return self.request("GET", path, params or None)

    def post(self, path, **params):
        return self.request("POST", path, params)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                return self.proc.wait(BOUND)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode


class Events:
    """An open /api/events stream; next() waits for its next update (or fails)."""

    def __init__(self, server, **params):
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=BOUND)
        self.conn.request("GET", "/api/events?" + urllib.parse.urlencode(params))
        self.resp = self.conn.getresponse()
        if self.resp.status != 200:
            raise RuntimeError("events: HTTP %d %s" % (self.resp.status, self.resp.read()))

    def next(self):
        deadline = time.time() + BOUND
        while time.time() < deadline:
            line = self.resp.fp.readline()
            if not line:
                raise RuntimeError("the event stream ended")
            if line.startswith(b"data:"):
                return int(line.split(b":", 1)[1])
        raise RuntimeError("no event within %d s" % BOUND)

    def close(self):
        self.conn.close()


def wait_view(server, events, query, cond):
    """The first view of a game (GET /api/view with query) that satisfies cond, looked at
    after each event of its stream."""
    deadline = time.time() + BOUND
    while time.time() < deadline:
        status, v = server.get("/api/view", **query)
        if status != 200:
            raise RuntimeError("view: %s" % v)
        if cond(v):
            return v
        events.next()
    raise RuntimeError("the game did not reach the awaited state in %d s" % BOUND)
