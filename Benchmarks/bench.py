#!/usr/bin/env python3
"""Lectern benchmarks: whole-process figures, written to BENCHMARKS.md.

Each measurement starts the real `lectern` executable, so start-up, dynamic loading, opening
and reading are all counted; wall time is the median of several runs, and peak memory the largest
peak RSS of up to five runs under GNU time (`%M`; a child's `ru_maxrss` seen from Python would
include Python's own pages), or VmHWM read from /proc for the terminal reader.

Usage: bench.py --lectern .build/release/lectern --output BENCHMARKS.md
"""
import argparse
import base64
import datetime
import hashlib
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

from large_books import SPINE_ITEMS, bench_large_books, ends_with_marker, make_spine_epub, memory_rows, xhtml_mb
from deflated_ranged import bench_deflated_ranged
from folder_sync import bench_folder_sync
from formats import bench_formats
from highlights import bench_highlights
from library_search import bench_library_search
from media_overlays import bench_media_overlays
from opds_feeds import bench_opds
from reopen_chapters import bench_reopen_books, reopen_chapters_rows
from speech_gap import bench_speech
from tmux_reader import MARKER, TUI_HEIGHT, TUI_WIDTH, TmuxReader

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(os.path.dirname(HERE), "bench-work")
SAMPLES = os.path.join(os.path.dirname(HERE), "Tests", "Fixtures", "Samples")


def run_once(cmd, env=None):
    """Runs cmd with stdout to /dev/null; returns (seconds, peak RSS in KB, exit status)."""
    with open(os.devnull, "wb") as devnull:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=devnull, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.stderr.close()
    return elapsed, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


TIME = "/usr/bin/time"


def peak_rss_kb(cmd, env=None):
    """The peak RSS of cmd, from GNU time. A child's ru_maxrss as Python sees it counts the
    pages it shared with Python between fork and exec (the kernel records the old address
    space's high-water mark at exec), so every figure would be at least Python's own size;
    GNU time's child starts from GNU time, which is small."""
    with open(os.devnull, "wb") as devnull:
        result = subprocess.run([TIME, "-f", "bench-peak-rss %M", *cmd], stdout=devnull, stderr=subprocess.PIPE, env=env)
    for line in reversed(result.stderr.decode("utf-8", "replace").splitlines()):
        if line.startswith("bench-peak-rss "):
            return int(line.split()[1])
    return 0


def measure(cmd, runs, env=None, warmup=2, expected_status=0):
    for _ in range(warmup):
        run_once(cmd, env)
    times, rss = [], []
    for _ in range(runs):
        seconds, peak, status = run_once(cmd, env)
        if status != expected_status:
            sys.exit(f"benchmark command failed ({status}): {' '.join(cmd)}")
        times.append(seconds * 1000)
    # Memory from separate runs under GNU time (see peak_rss_kb); timings stay unwrapped.
    if os.path.exists(TIME):
        rss = [peak_rss_kb(cmd, env) for _ in range(min(runs, 5))]
    else:
        rss = [peak]
    return {
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "max_ms": max(times),
        "peak_rss_kb": max(rss),
        "runs": runs,
    }


def isolated_env():
    home = tempfile.mkdtemp(prefix="lectern-bench-home-")
    env = dict(os.environ)
    env.update(HOME=home, XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config",
               XDG_CACHE_HOME=home + "/cache")
    return env


def make_big_epub():
    path = os.path.join(WORK, "big-200.epub")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "make_big_epub.py"), "--chapters", "200",
                        "--out", path], check=True, stdout=subprocess.DEVNULL)
    return path


def make_one_chapter_epub(words, label):
    """A book of one huge chapter (as single-file converted and Gutenberg-style books are):
    900,000 words make 6.5 MB of XHTML, 9,000,000 words 65 MB."""
    path = os.path.join(WORK, f"one-chapter-{label}.epub")
    if not ends_with_marker(path):
        subprocess.run([sys.executable, os.path.join(HERE, "make_big_epub.py"), "--chapters", "1", "--words", str(words),
                        "--out", path], check=True, stdout=subprocess.DEVNULL)
    return path


def bench_one_chapter(lectern, runs, env):
    """`lectern render` of a book whose only chapter is 6.5 MB, then 65 MB, of XHTML: the
    layout must keep a small multiple of the chapter's text (issue 15), beside epy's text dump;
    time and memory per MB of XHTML show whether the cost is proportional to the size."""
    rows, notes = [], []
    medium = make_one_chapter_epub(900_000, "6.5mb")
    figures = measure([lectern, "render", medium, "--width", "100"], max(3, runs // 10), env, warmup=1)
    medium_mb = xhtml_mb(medium)
    rows.append((f"Lay out and print a one-chapter book of {medium_mb:.1f} MB XHTML (`lectern render one-chapter-6.5mb.epub "
                 f"--width 100`; {per_mb(figures, medium_mb)})", figures, "peak RSS ≤ epy's"))
    epy, problem = epy_command()
    if epy:
        peer = measure(epy + ["-d", medium], max(3, runs // 10), env, warmup=1)
        rows.append(("Peer: epy's text dump of the same book (`epy -d one-chapter-6.5mb.epub`)", peer, ""))
    else:
        notes.append(f"epy could not be installed ({' '.join(problem)}): its dump of the one-chapter book was not measured.")
    huge = make_one_chapter_epub(9_000_000, "65mb")
    huge_figures = measure([lectern, "render", huge, "--width", "100"], 1, env, warmup=0)
    huge_mb = xhtml_mb(huge)
    rows.append((f"Lay out and print a one-chapter book of {huge_mb:.1f} MB XHTML (`lectern render one-chapter-65mb.epub "
                 f"--width 100`; {per_mb(huge_figures, huge_mb)})", huge_figures, "< 300 MB, time ∝ size"))
    notes.append(proportionality_note(figures, medium_mb, huge_figures, huge_mb))
    return rows, notes


def per_mb(figures, megabytes):
    """"N ms and M MB of peak RSS per MB of XHTML", for a row's name."""
    return (f"{figures['median_ms'] / megabytes:.0f} ms and {figures['peak_rss_kb'] / 1024 / megabytes:.1f} MB of peak RSS "
            "per MB of XHTML")


def proportionality_note(small, small_mb, large, large_mb):
    """How time and memory grow from the 6.5 MB chapter to the 65 MB one (10× the text)."""
    time_ratio = large["median_ms"] / max(small["median_ms"], 0.001)
    memory_ratio = large["peak_rss_kb"] / max(small["peak_rss_kb"], 1)
    return (f"`lectern render` of one chapter: {small_mb:.1f} MB of XHTML in {small['median_ms'] / 1000:.2f} s "
            f"({small['median_ms'] / small_mb:.0f} ms/MB, peak {small['peak_rss_kb'] / 1024:.0f} MB), {large_mb:.1f} MB in "
            f"{large['median_ms'] / 1000:.2f} s ({large['median_ms'] / large_mb:.0f} ms/MB, peak "
            f"{large['peak_rss_kb'] / 1024:.0f} MB): {large_mb / small_mb:.1f}× the text took {time_ratio:.1f}× the time "
            f"and {memory_ratio:.1f}× the memory (time proportional to the size keeps the same ms/MB; the memory target is "
            "< 300 MB whatever the size).")


def make_stored_audiobook(size):
    """A packaged audiobook whose single track is a STORED entry of `size` random bytes."""
    path = os.path.join(WORK, f"stored-{size >> 20}mb.audiobook")
    if os.path.exists(path):
        return path
    manifest = {
        "@context": "https://readium.org/webpub-manifest/context.jsonld",
        "metadata": {"@type": "http://schema.org/Audiobook", "title": "Stored track",
                     "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook"},
        "readingOrder": [{"href": "track.mp3", "type": "audio/mpeg"}],
    }
    rng = random.Random(7)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        with archive.open(zipfile.ZipInfo("track.mp3"), "w", force_zip64=True) as track:
            remaining = size
            while remaining > 0:
                chunk = min(remaining, 1 << 20)
                track.write(rng.randbytes(chunk))
                remaining -= chunk
    return path


def bench_render(lectern, big, runs, env, cat_first):
    """`lectern render` on the 200-chapter EPUB: the first chapter alone (what opening the book
    lays out) and the whole reading order, at 100 columns, beside `lectern cat` of the same
    first chapter (so the difference is conversion + layout) and, when installed, epy's text
    dump of the whole book (`epy -d`, which extracts paragraphs without wrapping them)."""
    rows, notes = [], []
    first = measure([lectern, "render", big, "--href", "OEBPS/ch0001.xhtml", "--width", "100"], runs, env)
    rows.append(("Lay out and print the first chapter (`lectern render big-200.epub --href OEBPS/ch0001.xhtml --width 100`)",
                 first, "a few ms above `cat`"))
    whole = measure([lectern, "render", big, "--width", "100"], max(5, runs // 3), env)
    rows.append(("Lay out and print all 200 chapters (`lectern render big-200.epub --width 100`)", whole, ""))
    notes.append(f"Converting and laying out the first chapter costs {first['median_ms'] - cat_first['median_ms']:.1f} ms "
                 f"above reading it (`lectern cat`); the whole book averages "
                 f"{(whole['median_ms'] - cat_first['median_ms']) / 200:.2f} ms a chapter (unzip, HTML parse, layout, output).")
    epy, problem = epy_command()
    if epy:
        peer = measure(epy + ["-d", big], max(5, runs // 3), env)
        rows.append(("Peer: epy's text dump of the same book (`epy -d big-200.epub`, paragraphs not wrapped)", peer, ""))
        notes.append(f"Whole book: lectern render {whole['median_ms']:.0f} ms / {whole['peak_rss_kb'] / 1024:.1f} MB, "
                     f"epy -d {peer['median_ms']:.0f} ms / {peer['peak_rss_kb'] / 1024:.1f} MB (epy does no line layout).")
    else:
        notes.append(f"epy could not be installed ({' '.join(problem)}): its `epy -d` dump was not measured.")
    return rows, notes


def make_hundred_page_pdf():
    """A 100-page PDF assembled with qpdf from the samples: Daisy Miller's 80 pages, the two
    4-page pdfTeX samples twice each, and four 1-page samples."""
    path = os.path.join(WORK, "pdf-100-pages.pdf")
    if not os.path.exists(path):
        parts = ["lcp/swifttoolkit-daisy.pdf", "pdf/pypdf-pdflatex-4-pages.pdf", "pdf/pypdf-pdflatex-outline.pdf",
                 "pdf/pypdf-pdflatex-4-pages.pdf", "pdf/pypdf-pdflatex-outline.pdf", "pdf/pypdf-pdflatex-image.pdf",
                 "pdf/pypdf-libre-office-link.pdf", "pdf/w3c-wai-dummy.pdf", "pdf/pypdf-with-attachment.pdf"]
        subprocess.run(["qpdf", "--empty", "--pages"] + [os.path.join(SAMPLES, part) for part in parts] + ["--", path],
                       check=True)
    pages = int(subprocess.run(["qpdf", "--show-npages", path], check=True, capture_output=True, text=True).stdout)
    if pages != 100:
        sys.exit(f"{path} has {pages} pages, not 100")
    return path


def pdf_benchmarks(lectern, runs, env):
    """Open a 100-page PDF and extract the text of every page, against pdftotext (poppler-utils)
    on the same file in the same run. Returns (rows, notes)."""
    pdf = make_hundred_page_pdf()
    ours = measure([lectern, "text", pdf], runs, env)
    peer = measure(["pdftotext", "-enc", "UTF-8", pdf, "-"], runs, env)
    opening = measure([lectern, "info", pdf], runs, env)
    words = len(subprocess.run([lectern, "text", pdf], check=True, capture_output=True, env=env).stdout.split())
    peer_words = len(subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], check=True, capture_output=True).stdout.split())
    rows = [
        ("Open the 100-page PDF and extract every page's text (`lectern text pdf-100-pages.pdf`)", ours, ""),
        ("Same file with `pdftotext -enc UTF-8 pdf-100-pages.pdf -` (poppler-utils), for comparison", peer, ""),
        ("Open the 100-page PDF only: metadata, outline, page labels (`lectern info pdf-100-pages.pdf`)", opening, ""),
    ]
    notes = [f"100-page PDF: `qpdf --empty --pages` of the samples (Daisy Miller 80 pages + 20 others). "
             f"`lectern text` took {ours['median_ms'] / peer['median_ms']:.2f}× the time of `pdftotext` "
             f"({ours['median_ms'] - peer['median_ms']:+.1f} ms); it wrote {words} words, pdftotext {peer_words} "
             "(pdftotext joins words hyphenated across lines; lectern keeps the lines as printed). lectern also loads "
             "poppler-glib at run time, probes the PDF for encryption, and selects each page twice (from the top-left "
             "and the top-right corner, so that right-to-left blocks are not lost)."]
    return rows, notes


def run_json(cmd, env=None):
    """Runs cmd; returns (its standard output parsed as JSON, its peak RSS in KB). The times
    are measured inside the process, so it runs under GNU time for its memory (see peak_rss_kb)."""
    wrapped = os.path.exists(TIME)
    if wrapped:
        cmd = [TIME, "-f", "bench-peak-rss %M", *cmd]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode(errors='replace')}")
    peak = usage.ru_maxrss
    if wrapped:
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.startswith("bench-peak-rss ")]
        peak = int(lines[-1].split()[1]) if lines else 0
    return json.loads(out), peak


def stats(values, runs, peak_kb):
    return {"median_ms": statistics.median(values), "min_ms": min(values), "max_ms": max(values),
            "peak_rss_kb": peak_kb, "runs": runs}


def openssl(*args, data=None):
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout


def cbc_blob(plaintext, key):
    """IV ‖ AES-256-CBC(key, plaintext + LCP padding: random filler, last byte = pad length)."""
    pad = 16 - len(plaintext) % 16
    padded = plaintext + os.urandom(pad - 1) + bytes([pad])
    iv = os.urandom(16)
    return iv + openssl("enc", "-aes-256-cbc", "-nopad", "-K", key.hex(), "-iv", iv.hex(), data=padded)


def make_lcp_package(size, name="cbc", pieces=None):
    """An LCP audiobook whose single track is a STORED entry of `size` random bytes (or of the
    bytes `pieces(size)` yields) encrypted with AES-256-CBC, under a license signed by a CA
    made here (trusted through LECTERN_LCP_ANCHORS). Also writes the bare ciphertext (without
    its IV) for openssl."""
    # One folder per size and content: the CA signing the license lives beside its package.
    folder = os.path.join(WORK, f"lcp-{size >> 20}mb" if name == "cbc" else f"lcp-{name}-{size >> 20}mb")
    package = os.path.join(folder, f"{name}-{size >> 20}mb.lcpa")
    info_path = package + ".json"
    if os.path.exists(package) and os.path.exists(info_path):
        with open(info_path) as handle:
            return json.load(handle)
    os.makedirs(folder, exist_ok=True)
    ca_key, ca_pem = os.path.join(folder, "ca.key"), os.path.join(folder, "ca.pem")
    key, csr, pem = (os.path.join(folder, name) for name in ("provider.key", "provider.csr", "provider.pem"))
    ext = os.path.join(folder, "provider.ext")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca_pem, "-subj", "/CN=Bench LCP CA",
            "-days", "3650", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=Bench LCP Provider")
    with open(ext, "w") as handle:
        handle.write("basicConstraints=critical,CA:FALSE\nkeyUsage=digitalSignature\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca_pem, "-CAkey", ca_key, "-CAcreateserial", "-out", pem, "-days", "3650",
            "-extfile", ext)
    certificate = openssl("x509", "-in", pem, "-outform", "DER")

    passphrase = "bench passphrase"
    user_key = hashlib.sha256(passphrase.encode()).digest()
    content_key = os.urandom(32)
    iv = os.urandom(16)
    cipher_path = os.path.join(folder, f"{name}-{size >> 20}mb.bin")
    # Written in pieces: a benchmark process holding 100 MB would lend its peak RSS to every
    # child it starts afterwards (Linux keeps the high-water mark across exec).
    rng = random.Random(11)
    if pieces is None:
        def pieces(total):
            remaining = total
            while remaining > 0:
                yield rng.randbytes(min(remaining, 1 << 20))
                remaining -= 1 << 20
    plain_hash = hashlib.sha256()
    with open(cipher_path + ".plain", "wb") as handle:
        for piece in pieces(size):
            plain_hash.update(piece)
            handle.write(piece)
        pad = 16 - size % 16  # a whole number of blocks gets a full padding block
        handle.write(os.urandom(pad - 1) + bytes([pad]))
    openssl("enc", "-aes-256-cbc", "-nopad", "-K", content_key.hex(), "-iv", iv.hex(), "-in", cipher_path + ".plain",
            "-out", cipher_path)
    os.unlink(cipher_path + ".plain")

    license_id = "bench-" + hashlib.sha256(os.urandom(8)).hexdigest()[:12]
    issued = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    b64 = lambda data: base64.b64encode(data).decode()
    document = {
        "id": license_id, "issued": issued, "provider": "https://bench.example",
        "encryption": {
            "profile": "http://readium.org/lcp/basic-profile",
            "content_key": {"algorithm": "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
                            "encrypted_value": b64(cbc_blob(content_key, user_key))},
            "user_key": {"algorithm": "http://www.w3.org/2001/04/xmlenc#sha256", "text_hint": "bench",
                         "key_check": b64(cbc_blob(license_id.encode(), user_key))},
        },
        "links": [{"rel": "hint", "href": "https://bench.example/hint"},
                  {"rel": "publication", "href": "https://bench.example/book.lcpa", "type": "application/audiobook+lcp"}],
        "rights": {},
    }
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=canonical, capture_output=True,
                               check=True).stdout
    document["signature"] = {"algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
                             "certificate": b64(certificate), "value": b64(signature)}
    manifest = {
        "@context": "https://readium.org/webpub-manifest/context.jsonld",
        "metadata": {"@type": "http://schema.org/Audiobook", "title": "Encrypted track",
                     "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook"},
        "readingOrder": [{"href": "track.mp3", "type": "audio/mpeg", "properties": {"encrypted": {
            "scheme": "http://readium.org/2014/01/lcp", "algorithm": "http://www.w3.org/2001/04/xmlenc#aes256-cbc"}}}],
    }
    with zipfile.ZipFile(package, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        archive.writestr("license.lcpl", json.dumps(document))
        with archive.open(zipfile.ZipInfo("track.mp3"), "w", force_zip64=True) as track, open(cipher_path, "rb") as cipher:
            track.write(iv)
            shutil.copyfileobj(cipher, track, 1 << 20)
    info = {"package": package, "cipher": cipher_path, "key": content_key.hex(), "iv": iv.hex(), "ca": ca_pem,
            "passphrase": passphrase, "sha256": plain_hash.hexdigest(), "size": size}
    with open(info_path, "w") as handle:
        json.dump(info, handle)
    return info


def bench_lcp(lectern, runs, env):
    """Readium LCP: decryption of a 100 MB AES-256-CBC resource against `openssl enc` on the
    same ciphertext, a 64 KB ranged read at its end, and finding the right user key among
    10,000 stored ones. The Lectern figures are timed inside the process (`lectern
    lcp-bench`), since start-up would hide them; openssl's start-up is subtracted from its
    whole-process time."""
    rows, notes = [], []
    info = make_lcp_package(100 << 20)
    env = dict(env, LECTERN_LCP_ANCHORS=info["ca"], LECTERN_LCP_CRL_URL="none")
    size_mb = info["size"] / 1e6

    decrypt, ranged, peak = [], [], 0
    repeats = max(3, runs // 6)
    for _ in range(repeats):
        report, rss = run_json([lectern, "lcp-bench", "decrypt", info["package"], "--href", "track.mp3",
                                "--passphrase", info["passphrase"], "--repeat", "3"], env)
        if report["sha256"] != info["sha256"]:
            sys.exit("lcp-bench decrypted the wrong bytes")
        decrypt += report["decryptMs"]
        ranged += report["rangeMs"]
        peak = max(peak, rss)
    lectern_fig = stats(decrypt, len(decrypt), peak)
    # A 1 MB buffer spares OpenSSL 25,000 small system calls (its default is 8 KB).
    cipher_cmd = ["openssl", "enc", "-d", "-aes-256-cbc", "-nopad", "-bufsize", "1048576", "-K", info["key"],
                  "-iv", info["iv"], "-in", info["cipher"], "-out", os.devnull]
    tiny = os.path.join(os.path.dirname(info["package"]), "tiny.bin")
    with open(tiny, "wb") as handle:
        handle.write(os.urandom(16))
    openssl_fig = measure(cipher_cmd, max(5, runs // 3))
    openssl_start = measure(cipher_cmd[:-4] + ["-in", tiny, "-out", os.devnull], max(5, runs // 3))
    openssl_ms = max(openssl_fig["median_ms"] - openssl_start["median_ms"], 0.001)
    lectern_rate = size_mb / (lectern_fig["median_ms"] / 1000)
    openssl_rate = size_mb / (openssl_ms / 1000)
    rows.append((f"Decrypt a 100 MB LCP resource, AES-256-CBC stored entry (in-process, {lectern_rate:.0f} MB/s)",
                 lectern_fig, f"≥ 80% of OpenSSL ({0.8 * openssl_rate:.0f} MB/s)"))
    rows.append((f"Peer: `openssl enc -d -aes-256-cbc -nopad -bufsize 1048576` on the same ciphertext (whole process, {openssl_rate:.0f} MB/s "
                 f"once its {openssl_start['median_ms']:.1f} ms start-up is subtracted)", openssl_fig, ""))
    notes.append(f"LCP decryption runs at {100 * lectern_rate / openssl_rate:.0f}% of OpenSSL's rate "
                 f"({lectern_rate:.0f} vs {openssl_rate:.0f} MB/s; target ≥ 80%). Lectern's figure includes reading the "
                 "stored ZIP entry into a 100 MB buffer (transparent huge pages; the first read of a process may wait for "
                 "the kernel to compact memory, hence the maximum) and removing the padding; the plaintext's SHA-256 is "
                 "checked after each run. Lectern is timed inside its process, OpenSSL as a whole process less its "
                 "start-up (its teardown and output remain in its figure).")
    rows.append(("64 KB ranged read at the end of the same resource (in-process, fresh resource: plaintext size from the "
                 "last block, then 4,096 blocks decrypted)", stats(ranged, len(ranged), peak), "< 1 ms"))

    lookups, peak = [], 0
    for _ in range(max(5, runs // 3)):
        report, rss = run_json([lectern, "lcp-bench", "passphrases", info["package"], "--passphrase", info["passphrase"],
                                "--count", "10000"], env)
        if not report["found"]:
            sys.exit("lcp-bench did not find the passphrase")
        lookups.append(report["lookupMs"])
        peak = max(peak, rss)
    rows.append(("Find the right user key among 10,000 stored ones, tried last (in-process: SQLite queries in the reference "
                 "order + key checks)", stats(lookups, len(lookups), peak), "< 50 ms"))
    return rows, notes


# --- The terminal reader in tmux, beside epy -------------------------------------------------

def epy_command():
    """epy-reader in a virtual environment under bench-work/ (installed once)."""
    venv = os.path.join(WORK, "epy-venv")
    epy = os.path.join(venv, "bin", "epy")
    if not os.path.exists(epy):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=subprocess.DEVNULL)
        result = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "epy-reader"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if result.returncode != 0 or not os.path.exists(epy):
            return None, result.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["pip failed"]
    return [epy], None


def tui_run(command, env, page_key, turns, search=None, indexed_search=False):
    """First painted page, page turns and (optionally) a search, in one reader process."""
    reader = TmuxReader(command, env)
    try:
        painted, screen = reader.wait(lambda text: MARKER in text)
        first_ms = (painted - reader.started) * 1000
        # Read as soon as the page is seen: the peak to the first page (the background work
        # after it, read-ahead and the book's text index, has barely begun).
        peak_at_first = reader.peak_rss_kb()
        turn_ms = []
        for _ in range(turns):
            before = reader.screen()
            start = reader.keys(page_key)
            done, screen = reader.wait(lambda text: text != before and text.strip() != "")
            turn_ms.append((done - start) * 1000)
        time.sleep(0.2)
        peak_before_search = reader.peak_rss_kb()
        search_ms = None
        if search:
            start = reader.keys("/")
            reader.keys("-l", search)
            reader.keys("Enter")
            done, _ = reader.wait(lambda text: "No match for" in text, timeout=120)
            search_ms = (done - start) * 1000
        indexed_ms = None
        if search and indexed_search:
            # The book's text index is built in the background after the first page; `S` lists
            # the matches and says while it is incomplete. Once complete, search again.
            deadline = time.monotonic() + 120
            while True:
                reader.keys("S")
                _, text = reader.wait(lambda text: "esc close" in text, timeout=60)
                reader.keys("Escape")
                reader.wait(lambda text: "esc close" not in text, timeout=60)
                title = next((line for line in text.splitlines() if "esc close" in line), "")
                if "so far" not in title or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            second = search + "again"
            start = reader.keys("/")
            reader.keys("-l", second)
            reader.keys("Enter")
            done, _ = reader.wait(lambda text: f"No match for “{second}”" in text, timeout=120)
            indexed_ms = (done - start) * 1000
        return first_ms, turn_ms, search_ms, peak_at_first, peak_before_search, reader.peak_rss_kb(), indexed_ms
    finally:
        reader.close()


def bench_tui(lectern, big, runs, env):
    """Time to the first painted page of the 200-chapter EPUB in tmux, page turns and a
    whole-book search, with peak RSS; epy (PyPI epy-reader) on the same book, same window,
    same run; then both readers reopening the book at its start, middle and end (#28)."""
    rows, notes = [], []
    if shutil.which("tmux") is None:
        return rows, ["tmux is not installed: the terminal reader was not measured."]
    runs = max(3, min(runs, 10))

    indexed_searches = []

    def series(command, page_key, search, home_env):
        firsts, turns, searches, first_peaks, peaks, search_peaks = [], [], [], [], [], []
        for index in range(runs + 1):
            run_env = isolated_env() if home_env is None else home_env
            first, turn, searched, first_peak, peak, search_peak, indexed = tui_run(command, run_env, page_key, 5, search,
                                                                        indexed_search=search is not None)
            if index == 0:
                continue  # warm-up (page cache)
            firsts.append(first)
            first_peaks.append(first_peak)
            turns += turn
            if searched is not None:
                searches.append(searched)
            if indexed is not None:
                indexed_searches.append(indexed)
            peaks.append(peak)
            search_peaks.append(search_peak)
        return firsts, turns, searches, first_peaks, peaks, search_peaks

    def figures(values, peaks, count):
        return {"median_ms": statistics.median(values), "min_ms": min(values), "max_ms": max(values),
                "peak_rss_kb": max(peaks) if peaks else 0, "runs": count}

    # A fresh library each run: the first opening of the book, no cached figures.
    firsts, turns, searches, first_peaks, peaks, search_peaks = series([lectern, "open", big], "Space", "zqxjnotinthebook", None)
    lectern_first = figures(firsts, first_peaks, len(firsts))
    rows.append((f"Reader: first painted page of the 200-chapter EPUB in tmux ({TUI_WIDTH}×{TUI_HEIGHT}), `lectern open`",
                 lectern_first, "≥ 10× faster than epy, ≤ half its memory"))
    rows.append(("Reader: page turn (Space), key sent to screen changed", figures(turns, peaks, len(turns)), ""))
    rows.append(("Reader: search of the whole book for a word it lacks, right after the first page (`/`, to “No match”; "
                  "the text index is still being built)", figures(searches, search_peaks, len(searches)), ""))
    if indexed_searches:
        rows.append(("Reader: the same search once the book's text index is built (another absent word)",
                     figures(indexed_searches, search_peaks, len(indexed_searches)), "≤ 100 ms"))

    # The bookshelf of a library of 10,000 publications (rows written straight into the table).
    shelf_env = isolated_env()
    subprocess.run([lectern, "list"], env=shelf_env, stdout=subprocess.DEVNULL, check=True)
    database = sqlite3.connect(os.path.join(shelf_env["XDG_DATA_HOME"], "lectern", "library.sqlite"))
    database.executemany(
        "INSERT INTO shelf_publications (identity, path, title, sort_title, author, sort_author, format, protection, "
        "acquired, added_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [(f"id{i}", f"/nowhere/book{i}.epub", f"Book {i:05d}", f"book {i:05d}", f"Author {i % 97}", f"author {i % 97}",
          "EPUB", "none", 0, 1700000000.0 + i) for i in range(10000)])
    database.commit()
    database.close()
    shelf_times, shelf_peaks = [], []
    for index in range(runs + 1):
        reader = TmuxReader([lectern], shelf_env)
        try:
            shown, _ = reader.wait(lambda text: "10000 publications" in text and "Book 00000" in text)
            time.sleep(0.2)
            if index > 0:
                shelf_times.append((shown - reader.started) * 1000)
                shelf_peaks.append(reader.peak_rss_kb())
        finally:
            reader.close()
    rows.append(("Bookshelf of a 10,000-publication library painted in tmux (`lectern`)",
                 figures(shelf_times, shelf_peaks, len(shelf_times)), "instant"))

    epy, problem = epy_command()
    if epy is None:
        notes.append(f"epy could not be installed ({' '.join(problem)}): no comparison.")
        reopen, reopen_notes = reopen_chapters_rows(lectern, None, big, "200-chapter book", 200, isolated_env,
                                                    lectern_first["median_ms"])
        return rows + reopen, notes + reopen_notes
    firsts, turns, _, first_peaks, peaks, _ = series(epy + [big], "l", None, None)
    epy_first = figures(firsts, first_peaks, len(firsts))
    rows.append((f"epy (PyPI epy-reader): first painted page of the same book, same window", epy_first, ""))
    rows.append(("epy: page turn (l), key sent to screen changed", figures(turns, peaks, len(turns)), ""))
    speedup = epy_first["median_ms"] / max(lectern_first["median_ms"], 0.001)
    memory = lectern_first["peak_rss_kb"] / max(epy_first["peak_rss_kb"], 1)
    notes.append(f"First painted page: lectern {speedup:.1f}× faster than epy; peak RSS {memory * 100:.0f}% of epy's "
                 "(VmHWM of the reader process read as soon as the first page is seen; the page-turn rows give it after five page "
                 "turns, when lectern's background work on the book — read-ahead, the text index for search — has run, and lectern's "
                 "row for the search after a whole-book search). "
                 "Times are from starting the tmux session (or sending the key) to the screen showing the result, "
                 "polled with `tmux capture-pane` about every millisecond.")
    memory, memory_notes = memory_rows(lectern, epy, big, "200-chapter book", isolated_env)
    # #28: reopening where the book was left, at its start, middle and end, beside epy's.
    reopen, reopen_notes = reopen_chapters_rows(lectern, epy, big, "200-chapter book", 200, isolated_env,
                                                lectern_first["median_ms"], epy_first["median_ms"])
    return rows + memory + reopen, notes + memory_notes + reopen_notes


def bench_large_readers(lectern, runs):
    """The reader on issue 15's large books (the one-chapter 6.5 MB book, the 2,014-item book),
    beside epy in the same run; see large_books.py."""
    epy, problem = epy_command()
    medium = make_one_chapter_epub(900_000, "6.5mb")
    huge = make_one_chapter_epub(9_000_000, "65mb")
    rows, notes = bench_large_books(lectern, epy, medium, WORK, runs, isolated_env, huge_book=huge)
    if epy is None:
        notes.append(f"epy could not be installed ({' '.join(problem)}): the large books were not read in epy.")
    return rows, notes


def mp3_pieces(size):
    """`size` bytes of a playable constant-bitrate MP3: a track of the ZAB sample (128 kbit/s,
    no tags) repeated, 1 MB at a time."""
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "Samples", "audiobook",
                          "swifttoolkit-audiotest.zab")
    with zipfile.ZipFile(sample) as archive:
        unit = archive.read("Test Audiobook/gtr-jazz.mp3")
    block = unit * ((1 << 20) // len(unit) + 1)
    remaining = size
    while remaining > 0:
        yield block[:min(remaining, len(block))]
        remaining -= len(block)


def bench_audio(lectern, runs, env):
    """Listening: seeks in a 200 MB LCP-encrypted MP3 track played by libmpv to the null output,
    against a full decryption of the same track, in the same processes (`lectern listen-bench`:
    in-process figures, since start-up and probing would hide a seek)."""
    info = make_lcp_package(200 << 20, name="mp3", pieces=mp3_pieces)
    env = dict(env, LECTERN_LCP_ANCHORS=info["ca"], LECTERN_LCP_CRL_URL="none", LECTERN_AUDIO_OUTPUT="null")
    seeks, reads, seek_bytes, peak, duration = [], [], [], 0, 0
    for _ in range(max(3, runs // 10)):
        report, rss = run_json([lectern, "listen-bench", info["package"], "--passphrase", info["passphrase"],
                                "--seeks", "20", "--reads", "1"], env)
        if report["bytes"] != info["size"]:
            sys.exit("listen-bench read the wrong number of bytes")
        seeks += report["seekMs"]
        reads += report["readMs"]
        seek_bytes += report["seekBytes"]
        duration = report["duration"]
        peak = max(peak, rss)
    seek_fig = stats(seeks, len(seeks), peak)
    read_fig = stats(reads, len(reads), peak)
    rows = [
        (f"Seek in a 200 MB LCP-encrypted MP3 track ({duration / 3600:.1f} h), playing to the null output (in-process: "
         "request → libmpv's playback restart at the target)", seek_fig, "< 20 ms"),
        ("Peer: full decryption of the same track (in-process read of the whole resource)", read_fig, ""),
    ]
    notes = [f"A seek reads and decrypts {statistics.median(seek_bytes) / 1024:.0f} KB (median) of the 200 MB track and "
             f"takes {fmt_ms(seek_fig['median_ms'])}, {read_fig['median_ms'] / seek_fig['median_ms']:.0f}× less than "
             f"decrypting the track ({fmt_ms(read_fig['median_ms'])}): only the AES-CBC blocks under the player's read "
             "are decrypted, in memory; MP3s without a seek table are seeked by their bitrate (FFmpeg `fastseek`)."]
    return rows, notes


def fmt_num(value):
    # Sub-millisecond figures (in-process LCP timings) keep three decimals.
    return f"{value:.1f}" if value >= 1 else f"{value:.3f}"


def fmt_ms(value):
    return f"{fmt_num(value)} ms"


# --- The publication server, beside python3 -m http.server -----------------------------------

def start_server(cmd, env, lines=1):
    """Starts a server that prints its URL(s) once listening; returns (process, [urls])."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    urls = []
    while len(urls) < lines:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"server failed: {' '.join(cmd)}\n{proc.stderr.read()}")
        urls.append(line.strip())
    return proc, urls


def stop_server(proc):
    """SIGTERM, then the server's peak RSS (VmHWM) read before it exits is not needed: returns nothing."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def vm_hwm_kb(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def download_ms(url, expected_sha256=None):
    """Downloads url whole over loopback (1 MB reads); returns milliseconds."""
    import urllib.request
    digest = hashlib.sha256()
    start = time.perf_counter()
    with urllib.request.urlopen(url) as response:
        while True:
            chunk = response.read(1 << 20)
            if not chunk:
                break
            if expected_sha256:
                digest.update(chunk)
    elapsed = (time.perf_counter() - start) * 1000
    if expected_sha256 and digest.hexdigest() != expected_sha256:
        sys.exit(f"{url} served the wrong bytes")
    return elapsed


def wrk_small(url, seconds=5):
    """wrk with 50 connections on 2 threads: (requests per second, p99 latency in ms)."""
    out = subprocess.run(["wrk", "-t2", "-c50", f"-d{seconds}s", "--latency", url], capture_output=True, text=True,
                         check=True).stdout
    rate, p99 = 0.0, 0.0
    for line in out.splitlines():
        parts = line.split()
        if line.startswith("Requests/sec:"):
            rate = float(parts[1])
        elif len(parts) == 2 and parts[0] == "99%":
            value = parts[1]
            p99 = float(value[:-2]) if value.endswith("ms") else (float(value[:-2]) / 1000 if value.endswith("us")
                                                                   else float(value[:-1]) * 1000)
    return rate, p99


def bench_server(lectern, runs, env):
    """`lectern serve`: requests per second and p99 latency for a small resource at 50
    concurrent connections (wrk), and MB/s for a 100 MB resource, plain (stored entry) and LCP
    (AES-256-CBC), against `python3 -m http.server` serving the same bytes from disk."""
    rows, notes = [], []
    stored = make_stored_audiobook(100 << 20)
    lcp = make_lcp_package(100 << 20)
    env = dict(env, LECTERN_LCP_ANCHORS=lcp["ca"], LECTERN_LCP_CRL_URL="none")
    peer_dir = os.path.join(WORK, "server-peer")
    os.makedirs(peer_dir, exist_ok=True)
    plain_file = os.path.join(peer_dir, "track.mp3")
    with zipfile.ZipFile(stored) as archive, archive.open("track.mp3") as track, open(plain_file, "wb") as out:
        shutil.copyfileobj(track, out, 1 << 20)
    with open(plain_file, "rb") as handle:
        plain_sha = hashlib.file_digest(handle, "sha256").hexdigest() if hasattr(hashlib, "file_digest") else None
    small = os.path.join(SAMPLES, "epub", "idpf-wasteland.epub")
    with zipfile.ZipFile(small) as archive:
        css = archive.read("EPUB/wasteland.css")
    with open(os.path.join(peer_dir, "wasteland.css"), "wb") as out:
        out.write(css)

    server, urls = start_server([lectern, "serve", small, stored, lcp["package"], "--passphrase", lcp["passphrase"]],
                                env, lines=3)
    peer = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", peer_dir],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # its request log: stderr
    peer_line = peer.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (...)"
    peer_url = f"http://127.0.0.1:{peer_line.split(' port ')[1].split()[0]}/"
    try:
        repeats = max(3, runs // 6)
        rate, p99 = wrk_small(urls[0] + "EPUB/wasteland.css")
        peer_rate, peer_p99 = wrk_small(peer_url + "wasteland.css")
        p99s = [p99] + [wrk_small(urls[0] + "EPUB/wasteland.css", 3)[1] for _ in range(2)]
        figures = {}
        for label, url, sha in [("plain", urls[1] + "track.mp3", plain_sha), ("lcp", urls[2] + "track.mp3", lcp["sha256"]),
                                ("peer", peer_url + "track.mp3", plain_sha)]:
            download_ms(url, sha)  # warm-up, and the bytes checked
            figures[label] = [download_ms(url) for _ in range(repeats)]
        peak = vm_hwm_kb(server.pid)
    finally:
        stop_server(server)
        peer.terminate()
        peer.wait()
    mb = (100 << 20) / 1e6
    rate_of = lambda values: mb / (statistics.median(values) / 1000)
    plain_rate, lcp_rate, peer_mb = rate_of(figures["plain"]), rate_of(figures["lcp"]), rate_of(figures["peer"])
    rows.append((f"`lectern serve`: small resource (wasteland.css, {len(css)} B), 50 connections (wrk): "
                 f"{rate:.0f} req/s, p99 {p99:.2f} ms (figures: p99 of 3 runs)", stats(p99s, len(p99s), peak), "p99 < 10 ms"))
    rows.append((f"Peer: `python3 -m http.server`, same file from disk: {peer_rate:.0f} req/s, p99 {peer_p99:.2f} ms",
                 stats([peer_p99], 1, 0), ""))
    rows.append((f"`lectern serve`: 100 MB stored resource, whole GET ({plain_rate:.0f} MB/s)",
                 stats(figures["plain"], repeats, peak), ""))
    rows.append((f"`lectern serve`: 100 MB LCP resource (AES-256-CBC), whole GET ({lcp_rate:.0f} MB/s)",
                 stats(figures["lcp"], repeats, peak), f"≥ 70% of the peer ({0.7 * peer_mb:.0f} MB/s)"))
    rows.append((f"Peer: `python3 -m http.server`, the plain 100 MB file from disk ({peer_mb:.0f} MB/s)",
                 stats(figures["peer"], repeats, 0), ""))
    notes.append(f"The server streams the LCP resource at {100 * lcp_rate / peer_mb:.0f}% of the peer's rate for the plain "
                 f"file (target ≥ 70%; nginx is not installed here, python3's http.server stands in). Downloads by a "
                 "Python client over loopback, 1 MB reads; the server's peak RSS (VmHWM) covers all of its runs.")
    return rows, notes


def make_manga():
    """A 12-page right-to-left comic from the page-blanche sample's JPEG pages (cover and four
    pages, 10-456 KB, up to 1,600 pixels), repeated."""
    path = os.path.join(WORK, "manga-12.cbz")
    if not os.path.exists(path):
        import zipfile
        source = zipfile.ZipFile(os.path.join(SAMPLES, "cbz", "derived-page-blanche-excerpt.cbz"))
        pages = sorted(name for name in source.namelist() if name.lower().endswith(".jpg"))
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
            for index in range(12):
                out.writestr(f"{index + 1:03d}.jpg", source.read(pages[index % len(pages)]))
            out.writestr("ComicInfo.xml", "<?xml version=\"1.0\"?><ComicInfo><Title>Bench Manga</Title>"
                                          "<PageCount>12</PageCount><Manga>YesAndRightToLeft</Manga></ComicInfo>")
    return path


def bench_pictures(lectern, runs, env):
    """Comic pages and PDF pages as pictures: the first comic page and page turns in the reader
    (tmux 120x40, symbols), peak memory over the 12-page manga, and one page to a picture from
    the command line, against chafa on the same image and pdftoppm + chafa on the same PDF page."""
    rows, notes = [], []
    if shutil.which("tmux") is None or shutil.which("chafa") is None:
        return rows, ["tmux or chafa is not installed: pictures were not measured."]
    manga = make_manga()
    runs = max(3, min(runs, 10))
    first, turns, peaks = [], [], []
    for _ in range(runs):
        # A new library each time: the reader would reopen the manga where the last run left it.
        picture_env = dict(isolated_env(), LECTERN_IMAGES="symbols")
        reader = TmuxReader([lectern, "open", manga], picture_env, width=120, height=40)
        try:
            painted, _ = reader.wait(lambda text: " 1/12" in text and "Loading page" not in text)
            first.append((painted - reader.started) * 1000)
            for page in range(2, 13):
                start = reader.keys("Left")
                done, _ = reader.wait(lambda text, page=page: f" {page}/12" in text and "Loading page" not in text)
                turns.append((done - start) * 1000)
            peaks.append(reader.peak_rss_kb())
        finally:
            reader.close()
    rows.append(("First comic page drawn after `lectern open manga-12.cbz` (tmux 120×40, symbols)",
                 stats(first, runs, max(peaks)), "< 100 ms"))
    rows.append(("Comic page turn, ← in the right-to-left manga, pages read ahead (tmux 120×40, symbols)",
                 stats(turns, len(turns), max(peaks)), "< 30 ms, peak < 64 MB"))
    with tempfile.TemporaryDirectory() as folder:
        import zipfile
        biggest = max(zipfile.ZipFile(manga).infolist(), key=lambda info: info.file_size if info.filename.endswith(".jpg") else 0)
        image = os.path.join(folder, "page.jpg")
        with open(image, "wb") as out:
            out.write(zipfile.ZipFile(manga).read(biggest.filename))
        index = int(biggest.filename.split(".")[0])
        ours = measure([lectern, "render", manga, "--images", "symbols", "--page", str(index), "--width", "120", "--height", "40"],
                       runs, env)
        peer = measure(["chafa", "-f", "symbols", "--size", "120x40", "--animate", "off", image], runs, env)
        rows.append((f"One comic page ({biggest.file_size // 1024} KB JPEG) to symbols from the command line "
                     f"(`lectern render --images symbols --page {index}`)", ours, ""))
        rows.append(("Same image with `chafa -f symbols --size 120x40`, for comparison", peer, ""))
    pdf = os.path.join(SAMPLES, "pdf", "pypdf-pdflatex-4-pages.pdf")
    ours_pdf = measure([lectern, "render", pdf, "--images", "symbols", "--page", "1", "--width", "120", "--height", "40"], runs, env)
    pipeline = ["sh", "-c", f"pdftoppm -r 100 -f 1 -l 1 -png '{pdf}' | chafa -f symbols --size 120x40 -"]
    peer_pdf = measure(pipeline, runs, env)
    rows.append(("A PDF page to a picture (`lectern render pypdf-pdflatex-4-pages.pdf --images symbols --page 1`)", ours_pdf, ""))
    rows.append(("Same page with `pdftoppm -r 100 -png | chafa -f symbols --size 120x40 -`, for comparison", peer_pdf, ""))
    notes.append(f"Pictures: first comic page {statistics.median(first):.1f} ms after the process starts, page turn median "
                 f"{statistics.median(turns):.1f} ms ({len(turns)} turns), reader peak {max(peaks) / 1024:.1f} MB over 12 pages. "
                 "The turn is timed from the key to tmux showing the new page number with the picture (drawn in the same write).")
    return rows, notes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--output", default="BENCHMARKS.md")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--only", choices=["tui", "large", "server", "library", "chapter", "pictures", "opds", "speech", "highlights", "formats", "deflated", "reopen"],
                        help="Run one section and print it (BENCHMARKS.md is not written).")
    args = parser.parse_args()
    if args.only == "library":
        os.makedirs(WORK, exist_ok=True)
        library_rows, library_notes = bench_library_search(os.path.abspath(args.lectern), args.runs, isolated_env(),
                                                           measure, peak_rss_kb)
        for name, figures, target in library_rows:
            print(f"| {name} | {fmt_ms(figures['median_ms'])} | {fmt_num(figures['min_ms'])}–{fmt_num(figures['max_ms'])} ms | "
                  f"{figures['peak_rss_kb'] / 1024:.1f} MB | {figures['runs']} | {target} |")
        print("\n".join(f"- {note}" for note in library_notes))
        return
    if args.only:
        os.makedirs(WORK, exist_ok=True)
        if args.only == "tui":
            tui_rows, tui_notes = bench_tui(os.path.abspath(args.lectern), make_big_epub(), args.runs, isolated_env())
        elif args.only == "large":
            tui_rows, tui_notes = bench_large_readers(os.path.abspath(args.lectern), args.runs)
        elif args.only == "chapter":
            tui_rows, tui_notes = bench_one_chapter(os.path.abspath(args.lectern), args.runs, isolated_env())
        elif args.only == "pictures":
            tui_rows, tui_notes = bench_pictures(os.path.abspath(args.lectern), args.runs, isolated_env())
        elif args.only == "speech":
            tui_rows, tui_notes = bench_speech(os.path.abspath(args.lectern), isolated_env())
        elif args.only == "highlights":
            tui_rows, tui_notes = bench_highlights(os.path.abspath(args.lectern), args.runs, isolated_env(), WORK, run_json, stats)
        elif args.only == "deflated":
            tui_rows, tui_notes = bench_deflated_ranged(os.path.abspath(args.lectern), args.runs,
                                                        make_one_chapter_epub(9_000_000, "65mb"), measure, isolated_env)
        elif args.only == "reopen":
            # #28: first opening and reopening of the 200-chapter and the 2,014-item books, beside epy.
            tui_rows, tui_notes = bench_reopen_books(os.path.abspath(args.lectern), epy_command()[0],
                                                     [(make_big_epub(), "200-chapter book", 200, 3),
                                                      (make_spine_epub(WORK), f"{SPINE_ITEMS:,}-item book", SPINE_ITEMS, 2)],
                                                     isolated_env)
        elif args.only == "formats":
            tui_rows, tui_notes = bench_formats(os.path.abspath(args.lectern), args.runs, isolated_env, WORK, measure, epy_command)
        elif args.only == "opds":
            tui_rows, tui_notes = bench_opds(os.path.abspath(args.lectern), args.runs, isolated_env(), WORK, measure)
        else:
            tui_rows, tui_notes = bench_server(os.path.abspath(args.lectern), args.runs, isolated_env())
        for name, figures, target in tui_rows:
            print(f"| {name} | {fmt_ms(figures['median_ms'])} | {fmt_num(figures['min_ms'])}–{fmt_num(figures['max_ms'])} ms | "
                  f"{figures['peak_rss_kb'] / 1024:.1f} MB | {figures['runs']} | {target} |")
        print("\n".join(f"- {note}" for note in tui_notes))
        return
    os.makedirs(WORK, exist_ok=True)
    lectern = os.path.abspath(args.lectern)
    env = isolated_env()

    rows = []
    notes = []

    big = make_big_epub()
    size = os.path.getsize(big)
    first = measure([lectern, "cat", big], args.runs, env)
    rows.append(("Open the 200-chapter EPUB and read its first chapter (`lectern cat big-200.epub`)",
                 first, "< 50 ms, < 25 MB"))
    render_rows, render_notes = bench_render(lectern, big, args.runs, env, first)
    rows += render_rows
    notes += render_notes
    chapter_rows, chapter_notes = bench_one_chapter(lectern, args.runs, env)
    rows += chapter_rows
    notes += chapter_notes
    baseline = measure([lectern, "--version"], args.runs, env)
    rows.append(("Process start only (`lectern --version`), for reference", baseline, "≤ 12 MB peak RSS (#28)"))

    stored = make_stored_audiobook(100 << 20)
    middle = 50 << 20
    ranged = measure([lectern, "cat", stored, "--href", "track.mp3", "--range", f"{middle}-{middle + 65536}"],
                     args.runs, env)
    rows.append(("64 KiB ranged read in the middle of a stored 100 MB entry", ranged, ""))
    whole = measure([lectern, "cat", stored, "--href", "track.mp3"], max(5, args.runs // 6), env)
    rows.append(("Whole read of the same 100 MB entry, for comparison", whole, ""))
    deflated_rows, deflated_notes = bench_deflated_ranged(lectern, args.runs, make_one_chapter_epub(9_000_000, "65mb"),
                                                          measure, isolated_env)
    rows += deflated_rows
    notes += deflated_notes
    notes.append(f"The ranged read costs {ranged['median_ms'] - baseline['median_ms']:.1f} ms above process start; "
                 f"the whole entry {whole['median_ms'] - baseline['median_ms']:.1f} ms: a ranged read of a stored "
                 "entry seeks instead of reading what precedes it.")

    tui_rows, tui_notes = bench_tui(lectern, big, args.runs, env)
    rows += tui_rows
    notes += tui_notes
    large_rows, large_notes = bench_large_readers(lectern, args.runs)
    rows += large_rows
    notes += large_notes

    format_rows, format_notes = bench_formats(lectern, args.runs, isolated_env, WORK, measure, epy_command)
    rows += format_rows
    notes += format_notes

    pdf_rows, pdf_notes = pdf_benchmarks(lectern, args.runs, env)
    rows += pdf_rows
    notes += pdf_notes
    picture_rows, picture_notes = bench_pictures(lectern, args.runs, env)
    rows += picture_rows
    notes += picture_notes
    lcp_rows, lcp_notes = bench_lcp(lectern, args.runs, env)
    rows += lcp_rows
    notes += lcp_notes
    audio_rows, audio_notes = bench_audio(lectern, args.runs, env)
    rows += audio_rows
    notes += audio_notes
    server_rows, server_notes = bench_server(lectern, args.runs, env)
    rows += server_rows
    notes += server_notes
    library_rows, library_notes = bench_library_search(lectern, args.runs, isolated_env(), measure, peak_rss_kb)
    rows += library_rows
    notes += library_notes
    opds_rows, opds_notes = bench_opds(lectern, args.runs, env, WORK, measure)
    rows += opds_rows
    notes += opds_notes
    speech_rows, speech_notes = bench_speech(lectern, env)
    rows += speech_rows
    notes += speech_notes
    overlay_rows, overlay_notes = bench_media_overlays(lectern, args.runs, env, WORK, run_json, stats)
    rows += overlay_rows
    notes += overlay_notes
    highlight_rows, highlight_notes = bench_highlights(lectern, args.runs, env, WORK, run_json, stats)
    rows += highlight_rows
    notes += highlight_notes
    folder_rows, folder_notes = bench_folder_sync(lectern, args.runs, isolated_env(), WORK, SAMPLES, measure)
    rows += folder_rows
    notes += folder_notes

    lines = [
        "# Benchmarks",
        "",
        f"Written by `make bench` on {datetime.date.today().isoformat()} — {platform.machine()}, "
        f"{os.cpu_count()} cores, {platform.platform()}. Whole-process figures: each run starts "
        f"`lectern`; time is the median of the runs, memory the largest peak RSS of up to five runs under "
        f"GNU time (in tmux: the reader's VmHWM).",
        "",
        f"Big EPUB: `Benchmarks/make_big_epub.py --chapters 200` ({size / 1e6:.2f} MB zipped).",
        "",
        "| Measurement | Median | Min–max | Peak RSS | Runs | Target |",
        "|---|---|---|---|---|---|",
    ]
    for name, figures, target in rows:
        lines.append(f"| {name} | {fmt_ms(figures['median_ms'])} | {fmt_num(figures['min_ms'])}–{fmt_num(figures['max_ms'])} ms | "
                     f"{figures['peak_rss_kb'] / 1024:.1f} MB | {figures['runs']} | {target} |")
    lines += [""] + [f"- {note}" for note in notes] + [""]
    with open(args.output, "w") as out:
        out.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
