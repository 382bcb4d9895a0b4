#!/usr/bin/env python3
"""A KOReader progress sync (kosync) server for Lectern's tests (Python 3 standard library only).

It follows koreader-sync-server (app/controllers/1/syncs_controller.lua, config/errors.lua and
the gin framework's version check) for status codes and JSON shapes, keeping its state in memory:

    every route   Accept must name application/vnd.koreader.v1+json, else
                  412 {"code": 101, "message": "Invalid Accept header format."}
    POST /users/create {username, password}
                  201 {"username"}; 402 {"code": 2002} when taken; 403 {"code": 2003} when a
                  field is missing or empty (or the name has a colon)
    GET  /users/auth
                  200 {"authorized": "OK"}; 401 {"code": 2001, "message": "Unauthorized"}
    PUT  /syncs/progress {document, progress, percentage, device, device_id}
                  200 {"document", "timestamp"}; 401; 403 {"code": 2004} without a document;
                  403 {"code": 2003} without percentage, progress or device
    GET  /syncs/progress/:document
                  200 with percentage, progress, device, device_id, timestamp, document; 200 {}
                  for a document never pushed; 401

The user's "password" stored is what the client sent at registration (KOReader sends the MD5
of the password there too); x-auth-key must equal it.

Control routes (no Accept needed), for the tests:
    GET  /__state              {"users": {name: key}, "documents": {"user:doc": {...}},
                                "requests": [{"method", "path", "headers"}...]}
    POST /__control {...}      "now": the server's clock (timestamps) instead of time.time();
                               "drop": true to close every connection without answering (a
                               server gone away), false to answer again;
                               "put": {"user", "document", fields...} stores a place as if
                               another device had pushed it.

Usage: kosync_server.py [--port 0]. Prints "LISTENING <port>" once it listens.
"""

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ACCEPT = "application/vnd.koreader.v1+json"
ERRORS = {
    101: (412, "Invalid Accept header format."),
    2001: (401, "Unauthorized"),
    2002: (402, "Username is already registered."),
    2003: (403, "Invalid request"),
    2004: (403, "Field 'document' not provided."),
}

lock = threading.Lock()
users = {}
documents = {}
requests = []
control = {"now": None, "drop": False}


def valid_field(value):
    return isinstance(value, str) and len(value) > 0


def valid_key_field(value):
    return valid_field(value) and ":" not in value


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, code):
        status, message = ERRORS[code]
        self.send_json(status, {"code": code, "message": message})

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            value = json.loads(raw) if raw else {}
        except ValueError:
            value = None
        return value if isinstance(value, dict) else {}

    def authorized_user(self):
        user = self.headers.get("x-auth-user")
        key = self.headers.get("x-auth-key")
        if valid_field(key) and valid_key_field(user) and users.get(user) == key:
            return user
        return None

    def handle_any(self, method):
        path = self.path.split("?", 1)[0]
        if path == "/__state" and method == "GET":
            with lock:
                self.send_json(200, {"users": users, "documents": documents, "requests": requests})
            return
        if path == "/__control" and method == "POST":
            body = self.read_body()
            with lock:
                if "now" in body:
                    control["now"] = body["now"]
                if "drop" in body:
                    control["drop"] = bool(body["drop"])
                if "put" in body:
                    entry = dict(body["put"])
                    user, document = entry.pop("user"), entry.pop("document")
                    documents[user + ":" + document] = entry
            self.send_json(200, {})
            return
        with lock:
            drop = control["drop"]
            requests.append({"method": method, "path": path,
                             "headers": {k.lower(): v for k, v in self.headers.items()}})
        if drop:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if ACCEPT not in (self.headers.get("Accept") or ""):
            self.error(101)
            return
        with lock:
            self.route(method, path)

    def route(self, method, path):
        if method == "POST" and path == "/users/create":
            body = self.read_body()
            username, password = body.get("username"), body.get("password")
            if not valid_key_field(username) or not valid_field(password):
                return self.error(2003)
            if username in users:
                return self.error(2002)
            users[username] = password
            return self.send_json(201, {"username": username})
        if method == "GET" and path == "/users/auth":
            if self.authorized_user():
                return self.send_json(200, {"authorized": "OK"})
            return self.error(2001)
        if method == "PUT" and path == "/syncs/progress":
            body = self.read_body()
            user = self.authorized_user()
            if not user:
                return self.error(2001)
            document = body.get("document")
            if not valid_key_field(document):
                return self.error(2004)
            percentage, progress, device = body.get("percentage"), body.get("progress"), body.get("device")
            if not isinstance(percentage, (int, float)) or progress is None or device is None:
                return self.error(2003)
            timestamp = int(control["now"] if control["now"] is not None else time.time())
            entry = {"percentage": percentage, "progress": progress, "device": device, "timestamp": timestamp}
            if body.get("device_id") is not None:
                entry["device_id"] = body["device_id"]
            documents[user + ":" + document] = entry
            return self.send_json(200, {"document": document, "timestamp": timestamp})
        prefix = "/syncs/progress/"
        if method == "GET" and path.startswith(prefix):
            user = self.authorized_user()
            if not user:
                return self.error(2001)
            document = path[len(prefix):]
            if not valid_key_field(document):
                return self.error(2004)
            entry = documents.get(user + ":" + document)
            if not entry:
                return self.send_json(200, {})
            return self.send_json(200, dict(entry, document=document))
        self.send_json(404, {"code": 404, "message": "Not found"})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print("LISTENING %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
