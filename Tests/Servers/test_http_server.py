#!/usr/bin/env python3
"""A loopback HTTP server for Lectern's tests (Python 3 standard library only).

It serves routes described in a JSON configuration file and records every request, so that a
test can both script the server's answers and check what the client sent.

Usage:
    test_http_server.py --config routes.json [--port 0] [--host 127.0.0.1] [--log requests.jsonl]

With --port 0 (the default) the system picks a free port. Once the socket listens, the server
prints one line to stdout, "LISTENING <port>", and flushes it: the Swift helper
(Tests/TestSupport/TestHTTPServer.swift) waits for that line.

Configuration (JSON object):
    {
      "routes": [
        {
          "path": "/book.txt",          # request path to answer (query string ignored), required
          "match": "exact",             # "exact" (default) or "prefix"
          "methods": ["GET", "HEAD"],   # optional; other methods get 405
          "status": 200,                # default 200
          "headers": {"Content-Type": "text/plain"},  # with an ETag, a request whose
                                        # If-None-Match is that ETag gets 304 (with only a
                                        # Last-Modified: If-Modified-Since equal to it)
          "body": "text",               # body as UTF-8 text, or
          "body_base64": "...",         # body as base64, or
          "body_file": "/path",         # body read from a file (at each request)
          "ranges": true,               # honour "Range: bytes=a-b" with 206 (default true
                                        # for 200 answers); false = always send everything
          "content_length": true,       # send Content-Length (default true)
          "delay": 0.0,                 # seconds to wait before answering
          "trickle": {"bytes": 1, "interval": 0.5},  # optional: send the body (with its
                                        # Content-Length) that many bytes at a time, waiting
                                        # that many seconds before each (a crawling server)
          "authorization": ["Basic ..."], # optional: accepted Authorization header values;
                                        # any other (or none) gets the "refusal" answer
          "body_contains": "password=x",  # optional: the request body must contain this,
                                        # else the "refusal" answer
          "refusal": {"status": 401, "headers": {}, "body_base64": "..."},
          "sequence_base64": ["...", "..."],  # optional: bodies served in turn (the last
                                        # one repeats), instead of "body"
          "behaviour": "respond"        # "respond" (default): the answer above;
                                        # "hang": accept, read the request, never answer;
                                        # "close": close the connection without answering;
                                        # "echo": 200 with a JSON description of the request
        }
      ]
    }

Every request to a configured or unknown path is recorded: with --log, as one JSON line per
request appended (and flushed) to the file before the answer is sent, in the format of
/__requests below.

On SIGHUP the server reads the configuration file again, replaces its routes, and prints
"RELOADED" on stdout (so a test can change the answers between two requests).

Control routes (always present):
    GET /__requests   JSON array of the requests received so far (not including control
                      routes): {"method", "path", "query", "headers" (lower-cased names),
                      "body_base64"}.
    PUT /__routes     replaces the routes with the JSON configuration in the body.
Unknown paths answer 404.
"""

import argparse
import base64
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

STATE_LOCK = threading.Lock()
ROUTES = []
REQUESTS = []
STOPPING = threading.Event()
LOG_PATH = None


def find_route(path):
    with STATE_LOCK:
        routes = list(ROUTES)
    for route in routes:
        if route.get("match", "exact") == "prefix":
            if path.startswith(route["path"]):
                return route
        elif path == route["path"]:
            return route
    return None


def route_body(route):
    if "body_base64" in route:
        return base64.b64decode(route["body_base64"])
    if "body_file" in route:
        with open(route["body_file"], "rb") as handle:
            return handle.read()
    return route.get("body", "").encode("utf-8")


def parse_range(header, length):
    """(start, end inclusive) for a single "bytes=" range, or None when unusable."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    first, _, last = header[len("bytes="):].strip().partition("-")
    try:
        if first == "":
            count = int(last)
            if count <= 0:
                return None
            return max(length - count, 0), length - 1
        start = int(first)
        end = int(last) if last else length - 1
    except ValueError:
        return None
    if start > end:
        return None
    return start, min(end, length - 1)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LecternTestServer/1"

    def log_message(self, *args):  # keep the test output clean
        pass

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _send(self, status, headers, body, send_body=True):
        self.send_response(status)
        names = {name.lower() for name in headers}
        for name, value in headers.items():
            self.send_header(name, str(value))
        if "content-length" not in names:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body and body:
            self.wfile.write(body)

    def _handle(self):
        split = urlsplit(self.path)
        body = self._read_body()
        if split.path == "/__requests" and self.command == "GET":
            with STATE_LOCK:
                payload = json.dumps(REQUESTS).encode("utf-8")
            self._send(200, {"Content-Type": "application/json"}, payload)
            return
        if split.path == "/__routes" and self.command == "PUT":
            config = json.loads(body.decode("utf-8"))
            with STATE_LOCK:
                ROUTES[:] = config.get("routes", [])
            self._send(204, {}, b"")
            return

        record = {
            "method": self.command,
            "path": split.path,
            "query": split.query,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body_base64": base64.b64encode(body).decode("ascii"),
        }
        with STATE_LOCK:
            REQUESTS.append(record)
            if LOG_PATH:
                with open(LOG_PATH, "a", encoding="utf-8") as log:
                    log.write(json.dumps(record) + "\n")

        route = find_route(split.path)
        if route is None:
            self._send(404, {"Content-Type": "text/plain"}, b"not found")
            return
        methods = route.get("methods")
        if methods and self.command not in methods:
            self._send(405, {"Allow": ", ".join(methods)}, b"")
            return
        if route.get("delay"):
            time.sleep(float(route["delay"]))

        behaviour = route.get("behaviour", "respond")
        if behaviour == "hang":
            # Never answer; the connection stays open until the server stops.
            while not STOPPING.wait(0.1):
                pass
            self.close_connection = True
            return
        if behaviour == "close":
            self.close_connection = True
            return
        if behaviour == "echo":
            with STATE_LOCK:
                last = REQUESTS[-1]
            payload = json.dumps(last).encode("utf-8")
            self._send(200, {"Content-Type": "application/json"}, payload, self.command != "HEAD")
            return

        accepted = route.get("authorization")
        wanted = route.get("body_contains")
        if (accepted is not None and self.headers.get("Authorization") not in accepted) or \
                (wanted is not None and wanted.encode("utf-8") not in body):
            refusal = route.get("refusal", {})
            self._send(int(refusal.get("status", 401)), dict(refusal.get("headers", {})),
                       base64.b64decode(refusal.get("body_base64", "")))
            return

        status = int(route.get("status", 200))
        headers = dict(route.get("headers", {}))
        etag = next((value for name, value in headers.items() if name.lower() == "etag"), None)
        if etag is not None and self.headers.get("If-None-Match") == etag:
            self._send(304, {"ETag": etag}, b"")
            return
        modified = next((value for name, value in headers.items() if name.lower() == "last-modified"), None)
        if modified is not None and etag is None and self.headers.get("If-Modified-Since") == modified:
            self._send(304, {"Last-Modified": modified}, b"")
            return
        content = route_body(route)
        if "sequence_base64" in route:
            with STATE_LOCK:
                served = route.setdefault("_served", 0)
                route["_served"] = served + 1
            bodies = route["sequence_base64"]
            content = base64.b64decode(bodies[min(served, len(bodies) - 1)])
        send_body = self.command != "HEAD"
        if not route.get("content_length", True):
            # Without a length, the end of the body is the end of the connection.
            self.close_connection = True
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, str(value))
            self.send_header("Connection", "close")
            self.end_headers()
            if send_body:
                self.wfile.write(content)
            return

        trickle = route.get("trickle")
        if trickle and send_body:
            self.close_connection = True
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, str(value))
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.flush()
            step = max(1, int(trickle.get("bytes", 1)))
            for start in range(0, len(content), step):
                if STOPPING.wait(float(trickle.get("interval", 0.5))):
                    return
                try:
                    self.wfile.write(content[start:start + step])
                    self.wfile.flush()
                except OSError:  # the client gave up
                    return
            return

        range_header = self.headers.get("Range")
        if status == 200 and range_header and route.get("ranges", True):
            selected = parse_range(range_header, len(content))
            if selected is None or selected[0] >= len(content):
                headers["Content-Range"] = "bytes */%d" % len(content)
                self._send(416, headers, b"", send_body)
                return
            start, end = selected
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, end, len(content))
            self._send(206, headers, content[start:end + 1], send_body)
            return
        if send_body:
            self._send(status, headers, content)
        else:
            # HEAD: the length of what GET would send, without the body.
            headers.setdefault("Content-Length", str(len(content)))
            self._send(status, headers, b"", send_body=False)

    do_GET = _handle
    do_HEAD = _handle
    do_POST = _handle
    do_PUT = _handle
    do_DELETE = _handle
    do_PATCH = _handle


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    # The parent may have blocked signals (a test runner's threads often do) and a child
    # inherits the mask: unblock them so that SIGTERM stops the server and SIGHUP reloads it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", required=True, help="JSON file describing the routes")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0 = any free port)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log", help="file to append one JSON line per request to")
    options = parser.parse_args()

    global LOG_PATH
    LOG_PATH = options.log

    def load_routes():
        with open(options.config, "r", encoding="utf-8") as handle:
            routes = json.load(handle).get("routes", [])
        with STATE_LOCK:
            ROUTES[:] = routes

    def reload(signum, frame):
        load_routes()
        sys.stdout.write("RELOADED\n")
        sys.stdout.flush()

    load_routes()
    signal.signal(signal.SIGHUP, reload)

    server = Server((options.host, options.port), Handler)
    sys.stdout.write("LISTENING %d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        STOPPING.set()
        server.server_close()


if __name__ == "__main__":
    main()
