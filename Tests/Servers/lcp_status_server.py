#!/usr/bin/env python3
"""A License Status Document server for Lectern's LCP tests (stdlib + the openssl tool).

Listens on 127.0.0.1 on a free port, prints "PORT <n>" on its first line of stdout, and
serves until killed. Its state is real and it behaves like the reference server
(readium/readium-lcp-server v1.14.0, lcp.md §10.4): registering a device adds an event and
activates the license, renewing moves the license's end (and re-signs it), returning ends it.
Tests set it up through a control API:

  POST /_control/licenses/<id>   JSON object merged into the license's state:
      status            ready | active | revoked | returned | cancelled | expired
      updated_license   RFC 3339 date (updated.license)
      updated_status    RFC 3339 date (updated.status)
      potential_end     RFC 3339 date (potential_rights.end; the renewal limit)
      publish_potential_end  false: keep potential_rights out of the document (the limit
                        still applies)
      license           the license document served at /licenses/<id>/license (text)
      signer            {"key": PEM private key path}: renewals and returns rewrite the
                        license (rights.end, updated) and sign it again (RSA-SHA256 over the
                        canonical JSON), like the reference server
      license_http      HTTP status of the license link (default 200; 401 like the reference
                        server's private API)
      register_http     HTTP status forced on registration (default: real behaviour)
      mode              normal | hang (accept, never answer) | html (a web page instead of
                        the document) | 404 (unknown license, as right after issue) | 500
      status_404_count  answer the next N status requests with the reference server's 404
                        (a license just issued), then normally
      interaction_mode  normal | hang: renew and return requests are never answered
      renew_link        put (default: templated PUT link) | html (a web page only) | both | none
      renew_template    the template appended to the renew URL (default "{?end,id,name}";
                        "?lang=en{&end,id,name}" tests the continuation form)
      renew_default_days  the provider's default renewal period (default 7)
      renew_policy      reference (default: a date beyond the limit or before the current end
                        answers 200 with nothing changed) | spec (403 renew/date)
      force_problem     {"status", "type" (without the LSD base), "title", "detail"}: the next
                        renew or return answers this problem document
      events            initial events [{type, name, id, timestamp}]
      sign_badly        licenses re-signed after a renew or return carry a signature that
                        does not verify
      message           the status document's message (default "The license is <status>.")
      extra_links       further links of the status document
  GET /_control/licenses/<id>    the state, with the request counters.

  POST /_control/files/<name>    serves a file at /files/<name> (and /redirect/files/<name>,
                                 a 302 to it):
      path              the file to serve (read at each request), or
      body_b64          its content
      content_type      the Content-Type (default application/octet-stream)
      ranges            true (default): honour "Range: bytes=a-b" and "bytes=-n" with 206;
                        false: always send everything with 200
      mode              normal | hang (never answer) | slow (send in chunks with pauses) |
                        html (a captive portal's page instead of the file)
      chunk, delay      for slow: bytes per chunk (default 4096) and seconds between chunks
                        (default 0.05)
      content_length    false: no Content-Length (chunked transfer)

  GET /_control/log              every request received outside /_control, in order:
                                 {"method", "path", "query", "range"}
  DELETE /_control/log           forgets them

Protocol (LSD 1.0, reference-server behaviour):
  GET  /licenses/<id>/status
  POST /licenses/<id>/register?id=&name=
  PUT  /licenses/<id>/renew?end=&id=&name=
  PUT  /licenses/<id>/return?id=&name=
  GET  /licenses/<id>/license
  GET  /licenses/<id>/renew-page   (the HTML renew page)
"""
import base64
import json
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STATE = {}
FILES = {}
LOG = []
LOCK = threading.Lock()
PROBLEM_BASE = "http://readium.org/license-status-document/error/"
STATUS_TYPE = "application/vnd.readium.license.status.v1.0+json"
LICENSE_TYPE = "application/vnd.readium.lcp.license.v1.0+json"


def now_dt():
    # The reference server truncates timestamps to the second.
    return datetime.now(timezone.utc).replace(microsecond=0)


def fmt(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def now():
    return fmt(now_dt())


def parse_date(text):
    try:
        value = datetime.fromisoformat(text.replace("z", "Z"))
    except (ValueError, AttributeError):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value


def license_state(license_id):
    return STATE.setdefault(license_id, {
        "status": "ready",
        "updated_license": "2026-01-01T00:00:00Z",
        "updated_status": "2026-01-01T00:00:00Z",
        "events": [],
        "mode": "normal",
        "license_http": 200,
        "counters": {"status": 0, "register": 0, "license": 0, "renew": 0, "return": 0},
        "devices": [],
    })


def sign(document, key_path):
    """Signs a license like the reference server: canonical JSON (sorted keys, no spaces,
    no HTML escaping) without `signature`, RSA PKCS#1 v1.5 SHA-256."""
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    canonical = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key_path], input=canonical,
                               capture_output=True, check=True).stdout
    document["signature"]["value"] = base64.b64encode(signature).decode("ascii")
    return document


def rewrite_license(state, end):
    """Sets the license's rights.end and updated, and signs it again (when a signer is set)."""
    if "license" not in state or "signer" not in state:
        return
    document = json.loads(state["license"])
    document.setdefault("rights", {})["end"] = fmt(end)
    document["updated"] = now()
    signed = sign(document, state["signer"]["key"])
    if state.get("sign_badly"):
        # A signature that no longer matches: the value of another document.
        value = base64.b64decode(signed["signature"]["value"])
        signed["signature"]["value"] = base64.b64encode(bytes([value[0] ^ 1]) + value[1:]).decode("ascii")
    state["license"] = json.dumps(signed)


def license_end(state):
    if "license" not in state:
        return None
    end = json.loads(state["license"]).get("rights", {}).get("end")
    return parse_date(end) if end else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, body, content_type, headers=None):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_json(self, code, value, content_type="application/json"):
        self.send(code, json.dumps(value), content_type)

    def problem(self, code, kind, title, detail=None):
        value = {"status": code}
        if title is not None:
            value["title"] = title
        if kind is not None:
            value["type"] = PROBLEM_BASE + kind
        if detail:
            value["detail"] = detail
        self.send_json(code, value, "application/problem+json")

    def base(self):
        return "http://%s:%d" % self.server.server_address[:2]

    def status_document(self, license_id, state):
        base = "%s/licenses/%s" % (self.base(), license_id)
        links = [{"rel": "license", "href": base + "/license", "type": LICENSE_TYPE}]
        if state["status"] in ("ready", "active"):
            links.append({"rel": "register", "href": base + "/register{?id,name}", "type": STATUS_TYPE, "templated": True})
            renew = state.get("renew_link", "put")
            if renew in ("put", "both"):
                links.append({"rel": "renew", "href": base + "/renew" + state.get("renew_template", "{?end,id,name}"),
                              "type": STATUS_TYPE, "templated": True})
            if renew in ("html", "both"):
                links.append({"rel": "renew", "href": base + "/renew-page", "type": "text/html"})
            links.append({"rel": "return", "href": base + "/return{?id,name}", "type": STATUS_TYPE, "templated": True})
        document = {
            "id": license_id,
            "status": state["status"],
            "message": state.get("message", "The license is %s." % state["status"]),
            "updated": {"license": state["updated_license"], "status": state["updated_status"]},
            "links": links + state.get("extra_links", []),
            "events": state["events"],
        }
        if state.get("potential_end") and state.get("publish_potential_end", True):
            document["potential_rights"] = {"end": state["potential_end"]}
        return document

    def route(self):
        parts = urlsplit(self.path)
        segments = [s for s in parts.path.split("/") if s]
        return parts, segments, parse_qs(parts.query)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def record(self, parts):
        if parts.path.startswith("/_control"):
            return
        with LOCK:
            LOG.append({"method": self.command, "path": parts.path, "query": parts.query,
                        "range": self.headers.get("Range")})

    # --- files (publications, CRLs) ---

    def serve_file(self, name):
        with LOCK:
            spec = dict(FILES.get(name) or {})
        if not spec:
            return self.problem(404, None, "Not Found")
        mode = spec.get("mode", "normal")
        if mode == "hang":
            time.sleep(3600)
            return
        if mode == "html":
            return self.send(200, "<!DOCTYPE html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>", "text/html")
        if "path" in spec:
            with open(spec["path"], "rb") as handle:
                data = handle.read()
        else:
            data = base64.b64decode(spec.get("body_b64", ""))
        content_type = spec.get("content_type", "application/octet-stream")
        total = len(data)
        ranges = spec.get("ranges", True)
        code, body, extra = 200, data, {}
        header = self.headers.get("Range")
        if ranges:
            extra["Accept-Ranges"] = "bytes"
        if ranges and header and header.startswith("bytes="):
            first, _, last = header[len("bytes="):].partition("-")
            if first == "":
                start = max(total - int(last), 0)
                end = total - 1
            else:
                start = int(first)
                end = min(int(last), total - 1) if last else total - 1
            if start >= total:
                return self.send(416, b"", content_type, {"Content-Range": "bytes */%d" % total})
            code, body = 206, data[start:end + 1]
            extra["Content-Range"] = "bytes %d-%d/%d" % (start, end, total)
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        for key, value in extra.items():
            self.send_header(key, value)
        chunked = spec.get("content_length", True) is False
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        size = int(spec.get("chunk", 4096)) if mode == "slow" else 1 << 20
        delay = float(spec.get("delay", 0.05)) if mode == "slow" else 0
        try:
            for offset in range(0, len(body), size):
                piece = body[offset:offset + size]
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                else:
                    self.wfile.write(piece)
                self.wfile.flush()
                if delay:
                    time.sleep(delay)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    # --- verbs ---

    def redirect(self, name):
        self.send_response(302)
        self.send_header("Location", "/files/" + name)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        parts, segments, _ = self.route()
        self.record(parts)
        if len(segments) == 2 and segments[0] == "files":
            return self.serve_file(segments[1])
        if len(segments) == 3 and segments[:2] == ["redirect", "files"]:
            return self.redirect(segments[2])
        self.problem(404, None, "Not Found")

    def do_DELETE(self):
        parts, segments, _ = self.route()
        if segments == ["_control", "log"]:
            with LOCK:
                LOG.clear()
            return self.send_json(200, [])
        self.problem(404, None, "Not Found")

    def do_GET(self):
        parts, segments, _ = self.route()
        self.record(parts)
        if segments == ["_control", "log"]:
            with LOCK:
                return self.send_json(200, list(LOG))
        if len(segments) == 3 and segments[:2] == ["_control", "licenses"]:
            with LOCK:
                self.send_json(200, license_state(segments[2]))
            return
        if len(segments) == 2 and segments[0] == "files":
            return self.serve_file(segments[1])
        if len(segments) == 3 and segments[:2] == ["redirect", "files"]:
            return self.redirect(segments[2])
        if len(segments) != 3 or segments[0] != "licenses":
            return self.problem(404, None, "Not Found")
        license_id, action = segments[1], segments[2]
        if action == "renew-page":
            return self.send(200, "<!DOCTYPE html><html><body><form>Renew your loan</form></body></html>", "text/html")
        with LOCK:
            state = license_state(license_id)
            mode = state["mode"]
            state["counters"][action if action in ("status", "license") else "status"] += 1
            not_yet = action == "status" and state.get("status_404_count", 0) > 0
            if not_yet:
                state["status_404_count"] -= 1
        if mode == "hang":
            time.sleep(3600)
            return
        if mode == "html":
            return self.send(200, "<!DOCTYPE html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>", "text/html")
        if mode == "404" or not_yet:
            # The reference server's answer for a license it does not know (yet): no type.
            return self.send_json(404, {"title": "Not Found", "status": 404, "detail": "license Status not found"},
                                  "application/problem+json")
        if mode == "500":
            return self.problem(500, "server", "An unexpected error has occurred.")
        with LOCK:
            if action == "status":
                # The reference server expires a loan when its status is read after its end.
                end = license_end(state)
                if state["status"] in ("ready", "active") and end is not None and end < now_dt():
                    state["status"] = "expired"
                    state["updated_status"] = now()
                document = self.status_document(license_id, state)
                return self.send_json(200, document, STATUS_TYPE)
            if action == "license":
                if state["license_http"] != 200 or "license" not in state:
                    return self.send_json(401, {"error": "User or password do not match!"}, "application/json")
                return self.send(200, state["license"], LICENSE_TYPE)
        self.problem(404, None, "Not Found")

    def do_POST(self):
        parts, segments, query = self.route()
        self.record(parts)
        body = self.read_body()
        if len(segments) == 3 and segments[:2] == ["_control", "licenses"]:
            with LOCK:
                state = license_state(segments[2])
                state.update(json.loads(body or b"{}"))
                self.send_json(200, state)
            return
        if len(segments) == 3 and segments[:2] == ["_control", "files"]:
            with LOCK:
                FILES[segments[2]] = json.loads(body or b"{}")
            return self.send_json(200, {})
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
            return self.problem(400, "registration", "Your device could not be registered properly.",
                                "device id and device name are mandatory and their maximum length is 255 bytes")
        with LOCK:
            if state["status"] not in ("ready", "active"):
                return self.problem(403, "registration", "Your device could not be registered properly.")
            if device_id not in [d["id"] for d in state["devices"]]:
                state["devices"].append({"id": device_id, "name": device_name})
                state["events"].append({"type": "register", "name": device_name, "id": device_id, "timestamp": now()})
                state["status"] = "active"
                state["updated_status"] = now()
            document = self.status_document(license_id, state)
        self.send_json(200, document, STATUS_TYPE)

    def do_PUT(self):
        parts, segments, query = self.route()
        self.record(parts)
        self.read_body()
        if len(segments) != 3 or segments[0] != "licenses" or segments[2] not in ("renew", "return"):
            return self.problem(404, None, "Not Found")
        license_id, action = segments[1], segments[2]
        with LOCK:
            state = license_state(license_id)
            state["counters"][action] += 1
            hang = state.get("interaction_mode") == "hang" or state["mode"] == "hang"
        if hang:
            time.sleep(3600)
            return
        device_id = (query.get("id") or [""])[0]
        device_name = (query.get("name") or [""])[0]
        with LOCK:
            forced = state.pop("force_problem", None)
        if forced:
            return self.problem(int(forced.get("status", 400)), forced.get("type"), forced.get("title"),
                                forced.get("detail"))
        with LOCK:
            state["last_" + action] = {"id": device_id, "name": device_name, "end": (query.get("end") or [None])[0],
                                       "query": parts.query}
            if action == "renew":
                return self.renew(license_id, state, query, device_id, device_name)
            return self.give_back(license_id, state, device_id, device_name)

    def renew(self, license_id, state, query, device_id, device_name):
        if state["status"] != "active":
            # The reference server renews active loans only (register first).
            return self.problem(400, "renew", "Your publication could not be renewed properly.",
                                "the license is %s" % state["status"])
        current = license_end(state)
        potential = parse_date(state["potential_end"]) if state.get("potential_end") else None
        if "end" in query:
            requested = parse_date(query["end"][0])
            if requested is None:
                return self.problem(400, "renew", "Your publication could not be renewed properly.",
                                    "invalid end date %s" % query["end"][0])
        else:
            base = current or now_dt()
            requested = base + timedelta(days=int(state.get("renew_default_days", 7)))
            if potential is not None and requested > potential:
                requested = potential
        too_late = potential is not None and requested > potential
        too_early = current is not None and requested <= current
        if too_late or too_early:
            if state.get("renew_policy") == "spec":
                return self.problem(403, "renew/date", "Incorrect renewal period, your publication could not be renewed.")
            # The reference server: 200, nothing changed.
            return self.send_json(200, self.status_document(license_id, state), STATUS_TYPE)
        rewrite_license(state, requested)
        state["status"] = "active"
        state["updated_license"] = now()
        state["updated_status"] = now()
        state["events"].append({"type": "renew", "name": device_name, "id": device_id, "timestamp": now()})
        self.send_json(200, self.status_document(license_id, state), STATUS_TYPE)

    def give_back(self, license_id, state, device_id, device_name):
        status = state["status"]
        if status == "returned":
            return self.problem(403, "return/already", "Your publication has already been returned before.")
        if status not in ("ready", "active", "expired"):
            return self.problem(403, "return", "Your publication could not be returned properly.",
                                "the license is %s" % status)
        rewrite_license(state, now_dt())
        state["status"] = "cancelled" if status == "ready" else "returned"
        state["updated_license"] = now()
        state["updated_status"] = now()
        state["events"].append({"type": "return", "name": device_name, "id": device_id, "timestamp": now()})
        self.send_json(200, self.status_document(license_id, state), STATUS_TYPE)


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
