"""OPDS parsing benchmark (issue #14): a generated 5,000-entry OPDS 1 (Atom) acquisition feed
and a 5,000-publication OPDS 2 feed, read from files by `lectern catalog FILE --json` (parse,
then the whole feed written as JSON), beside Python `feedparser` (PyPI, in a virtual
environment under bench-work/) on the same Atom feed.

Each entry has an id, a title, two authors, a summary of about 300 characters, a language,
two subjects, a cover and a thumbnail, an open-access link and an LCP borrow link with its
indirect acquisition and availability; that is what a library's catalog page carries.
"""
import html
import json
import os
import random
import subprocess
import sys

ENTRIES = 5000
WORDS = ["lantern", "river", "harbour", "winter", "glass", "orchard", "letter", "signal", "stone", "meadow",
         "archive", "island", "thread", "voyage", "quiet", "ember", "compass", "garden", "tide", "paper"]


def _entry_text(rng, index):
    title = " ".join(rng.choice(WORDS).capitalize() for _ in range(3)) + f" {index}"
    authors = [f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS).capitalize()}son" for _ in range(2)]
    summary = " ".join(rng.choice(WORDS) for _ in range(45)).capitalize() + "."
    subjects = [rng.choice(WORDS).capitalize() for _ in range(2)]
    return title, authors, summary, subjects


def make_atom(path, entries=ENTRIES):
    rng = random.Random(14)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n'
             '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/" '
             'xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n'
             '<id>urn:bench:opds1</id><title>Bench Library</title><updated>2026-01-01T00:00:00Z</updated>\n'
             f'<opensearch:totalResults>{entries}</opensearch:totalResults>\n'
             '<link rel="self" href="feed.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>\n'
             '<link rel="next" href="feed.xml?page=2" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>\n'
             '<link rel="search" href="opensearch.xml" type="application/opensearchdescription+xml"/>\n']
    for index in range(entries):
        title, authors, summary, subjects = _entry_text(rng, index)
        parts.append(
            f'<entry><title>{html.escape(title)}</title><id>urn:bench:book:{index}</id>'
            f'<updated>2026-01-01T00:00:00Z</updated>'
            + "".join(f"<author><name>{html.escape(a)}</name></author>" for a in authors)
            + f'<dc:language>en</dc:language><summary type="text">{html.escape(summary)}</summary>'
            + "".join(f'<category term="{s}" label="{s}"/>' for s in subjects)
            + f'<link rel="http://opds-spec.org/image" href="covers/{index}.jpg" type="image/jpeg"/>'
            f'<link rel="http://opds-spec.org/image/thumbnail" href="thumbs/{index}.jpg" type="image/jpeg"/>'
            f'<link rel="http://opds-spec.org/acquisition/open-access" href="books/{index}.epub" type="application/epub+zip"/>'
            f'<link rel="http://opds-spec.org/acquisition/borrow" href="loans/{index}" type="application/atom+xml;type=entry;profile=opds-catalog">'
            '<opds:indirectAcquisition type="application/vnd.readium.lcp.license.v1.0+json">'
            '<opds:indirectAcquisition type="application/epub+zip"/></opds:indirectAcquisition>'
            '<opds:availability status="available" until="2026-02-01T00:00:00Z"/></link>'
            '</entry>\n')
    parts.append("</feed>\n")
    with open(path, "w", encoding="utf-8") as out:
        out.write("".join(parts))


def make_opds2(path, entries=ENTRIES):
    rng = random.Random(14)
    publications = []
    for index in range(entries):
        title, authors, summary, subjects = _entry_text(rng, index)
        publications.append({
            "metadata": {"@type": "http://schema.org/Book", "identifier": f"urn:bench:book:{index}", "title": title,
                         "author": [{"name": a} for a in authors], "description": summary, "language": "en",
                         "subject": [{"name": s} for s in subjects], "modified": "2026-01-01T00:00:00Z"},
            "links": [
                {"rel": "http://opds-spec.org/acquisition/open-access", "href": f"books/{index}.epub", "type": "application/epub+zip"},
                {"rel": "http://opds-spec.org/acquisition/borrow", "href": f"loans/{index}", "type": "application/opds-publication+json",
                 "properties": {"indirectAcquisition": [{"type": "application/vnd.readium.lcp.license.v1.0+json",
                                                         "child": [{"type": "application/epub+zip"}]}],
                                "availability": {"state": "available", "until": "2026-02-01T00:00:00Z"}}},
            ],
            "images": [{"href": f"covers/{index}.jpg", "type": "image/jpeg", "width": 600, "height": 900},
                       {"href": f"thumbs/{index}.jpg", "type": "image/jpeg", "width": 120, "height": 180}],
        })
    feed = {"metadata": {"title": "Bench Library", "numberOfItems": entries},
            "links": [{"rel": "self", "href": "feed.json", "type": "application/opds+json"},
                      {"rel": "next", "href": "feed.json?page=2", "type": "application/opds+json"},
                      {"rel": "search", "href": "search{?query}", "type": "application/opds+json", "templated": True}],
            "publications": publications}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(feed, out)


def feedparser_python(work):
    """The Python of a virtual environment with feedparser (installed once); (python, problem)."""
    venv = os.path.join(work, "feedparser-venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python) or subprocess.run([python, "-c", "import feedparser"], capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=subprocess.DEVNULL)
        result = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "feedparser"], capture_output=True, text=True)
        if result.returncode != 0:
            return None, result.stderr.strip().splitlines()[-1:] or ["pip failed"]
    return python, None


def bench_opds(lectern, runs, env, work, measure):
    """Rows (name, figures, target) and notes."""
    rows, notes = [], []
    atom = os.path.join(work, "opds1-5000.xml")
    opds2 = os.path.join(work, "opds2-5000.json")
    if not os.path.exists(atom):
        make_atom(atom)
    if not os.path.exists(opds2):
        make_opds2(opds2)
    runs = max(5, min(runs, 20))
    # The command must see all 5,000 publications (a wrong parse would be fast too).
    for path in (atom, opds2):
        out = subprocess.run([lectern, "catalog", path, "--json"], capture_output=True, env=env)
        entries = json.loads(out.stdout).get("entries", []) if out.returncode == 0 else []
        if len(entries) != ENTRIES:
            sys.exit(f"lectern catalog {path} --json listed {len(entries)} entries, not {ENTRIES}: {out.stderr[-300:]!r}")
    one = measure([lectern, "catalog", atom, "--json"], runs, env)
    rows.append((f"OPDS 1 (Atom) feed of 5,000 entries, {os.path.getsize(atom) / 1e6:.1f} MB, parsed and written as JSON "
                 "(`lectern catalog opds1-5000.xml --json`)", one, ""))
    two = measure([lectern, "catalog", opds2, "--json"], runs, env)
    rows.append((f"OPDS 2 feed of 5,000 publications, {os.path.getsize(opds2) / 1e6:.1f} MB (`lectern catalog opds2-5000.json --json`)",
                  two, ""))
    python, problem = feedparser_python(work)
    if python is None:
        notes.append(f"feedparser could not be installed ({' '.join(problem)}): no comparison.")
        return rows, notes
    script = ("import sys, feedparser; d = feedparser.parse(sys.argv[1]); "
              f"assert len(d.entries) == {ENTRIES}, len(d.entries)")
    peer = measure([python, "-c", script, atom], max(3, runs // 2), env, warmup=1)
    rows.append(("Peer: Python feedparser (PyPI) on the same Atom feed (`feedparser.parse`)", peer, ""))
    start = measure([python, "-c", "import feedparser"], max(3, runs // 2), env, warmup=1)
    notes.append(f"OPDS: lectern parses the 5,000-entry Atom feed (and prints it as JSON) in {one['median_ms']:.0f} ms, "
                 f"feedparser in {peer['median_ms']:.0f} ms ({peer['median_ms'] / max(one['median_ms'], 0.001):.1f}× lectern's time; "
                 f"Python with feedparser imported alone takes {start['median_ms']:.0f} ms); the OPDS 2 feed {two['median_ms']:.0f} ms. "
                 f"Peak RSS: lectern {one['peak_rss_kb'] / 1024:.0f} MB (Atom), {two['peak_rss_kb'] / 1024:.0f} MB (OPDS 2); "
                 f"feedparser {peer['peak_rss_kb'] / 1024:.0f} MB.")
    return rows, notes
