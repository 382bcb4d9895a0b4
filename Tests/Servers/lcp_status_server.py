#!/usr/bin/env python3
"""A License Status Document server for Lectern's LCP tests (stdlib only).

Listens on 127.0.0.1 on a free port, prints "PORT <n>" on its first line of stdout, and
serves until killed. Its state is real: registering a device adds an event and activates the
license, and what it serves is set by the tests through a control API:

  POST /_control/licenses/<id>   JSON object merged into the license's state:
      status            ready | active | revoked | returned | cancelled | expired
      updated_license   RFC 3339 date (updated.license)
      updated_status    RFC 3339 date (updated.status)
      potential_end     RFC 3339 date (potential_rights.end)
      license           the license document served at /licenses/<id>/license (text)
      license_http      HTTP status of the license link (default 200; 401 like the reference
                        server's private API)
      register_http     HTTP status forced on registration (default: real behaviour)
      mode              normal | hang (accept, never answer) | html (a web page instead of
                        the document) | 404 (unknown license, as right after issue) | 500
      events            initial events [{type, name, id, timestamp}]
  GET /_control/licenses/<id>    the state, with the request counters.

Protocol (LSD 1.0, reference-server behaviour):
  GET  /licenses/<id>/status
  POST /licenses/<id>/register?id=&name=
  GET  /licenses/<id>/license
"""
import json
import signal
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STATE = {}
LOCK = threading.Lock()
PROBLEM_BASE = "http://readium.org/license-status-document/error/"


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def license_state(license_id):
    return STATE.setdefault(license_id, {
        "status": "ready",
        "updated_license": "2026-01-01T00:00:00Z",
        "updated_status": "2026-01-01T00:00:00Z",
        "events": [],
        "mode": "normal",
        "license_http": 200,
        "counters": {"status": 0, "register": 0, "license": 0},
        "devices": [],
    })


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, body, content_type):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, code, value, content_type="application/json"):
        self.send(code, json.dumps(value), content_type)

    def problem(self, code, kind, title):
        value = {"title": title, "status": code}
        if kind is not None:
            value["type"] = PROBLEM_BASE + kind
        self.send_json(code, value, "application/problem+json")

    def base(self):
        return "http://%s:%d" % self.server.server_address[:2]

    def status_document(self, license_id, state):
        base = "%s/licenses/%s" % (self.base(), license_id)
        links = [{"rel": "license", "href": base + "/license",
                  "type": "application/vnd.readium.lcp.license.v1.0+json"}]
        if state["status"] in ("ready", "active"):
            links.append({"rel": "register", "href": base + "/register{?id,name}",
                          "type": "application/vnd.readium.license.status.v1.0+json", "templated": True})
        document = {
            "id": license_id,
            "status": state["status"],
            "message": "The license is %s." % state["status"],
            "updated": {"license": state["updated_license"], "status": state["updated_status"]},
            "links": links,
            "events": state["events"],
        }
        if state.get("potential_end"):
            document["potential_rights"] = {"end": state["potential_end"]}
        return document

    def route(self):
        parts = urlsplit(self.path)
        segments = [s for s in parts.path.split("/") if s]
        return segments, parse_qs(parts.query)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        segments, _ = self.route()
        if len(segments) == 3 and segments[0] == "_control":
            with LOCK:
                self.send_json(200, license_state(segments[2]))
            return
        if len(segments) != 3 or segments[0] != "licenses":
            return self.problem(404, None, "Not Found")
        license_id, action = segments[1], segments[2]
        with LOCK:
            state = license_state(license_id)
            mode = state["mode"]
            state["counters"][action if action in ("status", "license") else "status"] += 1
        if mode == "hang":
            time.sleep(3600)
            return
        if mode == "html":
            return self.send(200, "<!DOCTYPE html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>", "text/html")
        if mode == "404":
            # The reference server's answer for a license it does not know (yet): no type.
            return self.send_json(404, {"title": "Not Found", "status": 404, "detail": "license Status not found"},
                                  "application/problem+json")
        if mode == "500":
            return self.problem(500, "server", "An unexpected error has occurred.")
        with LOCK:
            if action == "status":
                document = self.status_document(license_id, state)
                return self.send_json(200, document, "application/vnd.readium.license.status.v1.0+json")
            if action == "license":
                if state["license_http"] != 200 or "license" not in state:
                    return self.send_json(401, {"error": "User or password do not match!"}, "application/json")
                return self.send(200, state["license"], "application/vnd.readium.lcp.license.v1.0+json")
        self.problem(404, None, "Not Found")

    def do_POST(self):
        segments, query = self.route()
        body = self.read_body()
        if len(segments) == 3 and segments[0] == "_control":
            with LOCK:
                state = license_state(segments[2])
                state.update(json.loads(body or b"{}"))
                self.send_json(200, state)
            return
        if len(segments) != 3 or segments[0] != "licenses" or segments[2] != "register":
            return self.problem(404, None, "Not Found")
        license_id = segments[1]
        with LOCK:
            state = license_state(license_id)
            state["counters"]["register"] += 1
            mode = state["mode"]
            forced = state.get("register_http")
        if mode == "hang":
            time.sleep(3600)
            return
        if forced and forced != 200:
            return self.problem(forced, "registration", "Your device could not be registered properly.")
        device_id = (query.get("id") or [""])[0]
        device_name = (query.get("name") or [""])[0]
        if not device_id or not device_name or len(device_id.encode()) > 255 or len(device_name.encode()) > 255:
            return self.problem(400, "registration", "device id and device name are mandatory")
        with LOCK:
            if state["status"] not in ("ready", "active"):
                return self.problem(403, "registration", "Your device could not be registered properly.")
            if device_id not in [d["id"] for d in state["devices"]]:
                state["devices"].append({"id": device_id, "name": device_name})
                state["events"].append({"type": "register", "name": device_name, "id": device_id, "timestamp": now()})
                state["status"] = "active"
                state["updated_status"] = now()
            document = self.status_document(license_id, state)
        self.send_json(200, document, "application/vnd.readium.license.status.v1.0+json")


def main():
    # A parent that starts us from a thread may pass its blocked signals on: unblock them so
    # that SIGTERM stops the server.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
