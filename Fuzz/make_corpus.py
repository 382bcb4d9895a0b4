#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target from the sample publications.

Usage: make_corpus.py OUTPUT_DIR [TARGET...]

For each target, OUTPUT_DIR/<target>/ receives: the hand-made seeds of Fuzz/seeds/<target>/,
the inputs kept in Tests/Fixtures/fuzz/<target>/ (past crashes), and inputs taken from the
samples (Tests/Fixtures/Samples and Samples/): the documents of every EPUB (container.xml,
package, navigation, NCX, encryption.xml, content documents), LCP licenses, status documents,
manifests, small archives, comic book names and ComicInfo.xml, PDFs with their passwords.

The folder is a work folder (git-ignored): libFuzzer also adds what it finds to it, so runs
build on each other. Seeds are written under their content hash, so running this again adds
nothing twice.
"""
import hashlib
import io
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = [os.path.join(ROOT, "Tests", "Fixtures", "Samples"), os.path.join(ROOT, "Samples")]
# The catalog documents of the OPDS tests.
OPDS_FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "opds")

TARGETS = [
    "lcp-license", "license-status", "audiobook-manifest", "audiobook-jwks", "epub-container", "epub-opf",
    "epub-nav", "epub-ncx", "epub-encryption", "rwpm-manifest", "zip-archive", "xhtml-layout", "toml-config",
    "cbz-comicinfo", "pdf-poppler", "audiobook-status", "opds1-feed", "opds2-feed", "opds-authentication",
    "opensearch-description", "http-request-head", "documents", "annotations",
    "annotation-readium", "annotation-lectern-json", "annotation-koreader-lua",
]

# Largest seed kept per target, at most the -max_len of run_fuzzers.py (libFuzzer truncates
# longer inputs: a truncated ZIP loses its central directory). Smaller than the real books for
# documents whose cost grows with their size: mutations of a small document reach the same code.
MAX_SEED = {"pdf-poppler": 128 << 10, "xhtml-layout": 16 << 10, "epub-opf": 24 << 10, "epub-nav": 24 << 10,
            "epub-ncx": 24 << 10}
DEFAULT_MAX_SEED = 64 << 10
# Content documents taken from the samples, at most (a few hundred is plenty to start from).
MAX_XHTML_SEEDS = 300

# Passwords of the protected samples (Tests/Fixtures/Samples/README.md).
ZIP_PASSWORD = b"secret"
PDF_PASSWORDS = {
    "pypdf-libreoffice-writer-password.pdf": b"openpassword",
    "qpdf-aes256-user-open-sesame.pdf": b"open sesame",
    "qpdf-rc4-128-user-open-sesame.pdf": b"open sesame",
    "qpdf-aes256-owner-only.pdf": b"owner-secret",
}


class Corpus:
    def __init__(self, output, targets):
        self.output = output
        self.targets = set(targets)
        self.counts = {target: 0 for target in targets}

    def add(self, target, data, limit=None):
        if target not in self.targets or not data:
            return
        if len(data) > (limit or MAX_SEED.get(target, DEFAULT_MAX_SEED)):
            return
        folder = os.path.join(self.output, target)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "seed-" + hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as file:
                file.write(data)
            self.counts[target] += 1

    def add_folder(self, target, folder):
        if not os.path.isdir(folder):
            return
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not name.startswith(".") and not name.startswith("README"):
                with open(path, "rb") as file:
                    # Past crashes and hand-made seeds are kept whatever their size.
                    self.add(target, file.read(), limit=1 << 30)


def sample_files():
    for base in SAMPLES:
        for folder, _, names in os.walk(base):
            for name in sorted(names):
                yield os.path.join(folder, name)


def read(path):
    with open(path, "rb") as file:
        return file.read()


def open_zip(data):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        archive.setpassword(ZIP_PASSWORD)
        return archive
    except (zipfile.BadZipFile, OSError):
        return None


def entry(archive, name):
    try:
        return archive.read(name)
    except (KeyError, RuntimeError, NotImplementedError, zipfile.BadZipFile, OSError, ValueError):
        # WinZip AES entries (zipfile cannot decrypt them), damaged entries.
        return None


def epub_documents(corpus, archive, xhtml_budget):
    names = archive.namelist()
    container = entry(archive, "META-INF/container.xml")
    corpus.add("epub-container", container)
    corpus.add("epub-encryption", entry(archive, "META-INF/encryption.xml"))
    for name in names:
        lower = name.lower()
        if lower.endswith(".opf"):
            corpus.add("epub-opf", entry(archive, name))
        elif lower.endswith(".ncx"):
            corpus.add("epub-ncx", entry(archive, name))
        elif lower.endswith((".xhtml", ".html", ".htm")):
            data = entry(archive, name)
            if data is None:
                continue
            if re.search(rb'epub:type\s*=\s*"[^"]*\btoc\b', data):
                corpus.add("epub-nav", data)
            if xhtml_budget[0] > 0:
                corpus.add("xhtml-layout", data)
                xhtml_budget[0] -= 1
        elif lower.endswith("license.lcpl"):
            corpus.add("lcp-license", entry(archive, name))
        elif lower == "manifest.json":
            corpus.add("rwpm-manifest", entry(archive, name))
            corpus.add("audiobook-manifest", entry(archive, name))


def comic_book_input(path, archive):
    """The cbz-comicinfo input of an archive: its file name, its entry names, then ComicInfo.xml."""
    names = [info.orig_filename.encode("utf-8", "surrogateescape") for info in archive.infolist()]
    info = next((name for name in archive.namelist() if name.lower().endswith("comicinfo.xml")), None)
    comic_info = entry(archive, info) if info else b""
    lines = [os.path.basename(path).encode()] + names
    return b"\n".join(lines) + b"\x00" + (comic_info or b"")


def small_archive(archive):
    """The archive rebuilt with its small entries only, deflated: real names and structure in a
    few kilobytes, for archives too large to be seeds as they are."""
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as small:
        for info in archive.infolist():
            if info.file_size > 4096:
                continue
            data = entry(archive, info.filename)
            if data is None:
                continue
            method = zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED
            small.writestr(info.filename, data, compress_type=method)
    return output.getvalue()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    output = sys.argv[1]
    targets = sys.argv[2:] or TARGETS
    corpus = Corpus(output, targets)
    for target in targets:
        corpus.add_folder(target, os.path.join(ROOT, "Fuzz", "seeds", target))
        corpus.add_folder(target, os.path.join(ROOT, "Tests", "Fixtures", "fuzz", target))
    for theme in sorted(os.listdir(os.path.join(ROOT, "Themes"))):
        if theme.endswith(".toml"):
            corpus.add("toml-config", read(os.path.join(ROOT, "Themes", theme)))

    for folder, _, names in os.walk(OPDS_FIXTURES):
        for name in sorted(names):
            data = read(os.path.join(folder, name))
            if "opensearch" in name:
                corpus.add("opensearch-description", data)
            elif name.endswith(".json"):
                corpus.add("opds2-feed", data)
            else:
                corpus.add("opds1-feed", data)

    xhtml_budget = [MAX_XHTML_SEEDS]
    for path in sample_files():
        name = os.path.basename(path)
        lower = name.lower()
        data = read(path)
        if lower.endswith(".lcpl") or name == "lcpl.unknown":
            corpus.add("lcp-license", data)
        elif lower.endswith(".json"):
            if name.startswith("jwks"):
                corpus.add("audiobook-jwks", data)
            elif name.startswith("lcp_license_status"):
                corpus.add("license-status", data)
                corpus.add("audiobook-status", data)
            elif "opds" in name and "authentication" in name:
                corpus.add("opds-authentication", data)
            elif "opds" in name:
                corpus.add("opds2-feed", data)
            else:
                corpus.add("rwpm-manifest", data)
                corpus.add("audiobook-manifest", data)
        elif name.startswith("opds1"):
            corpus.add("opds1-feed", data)
        elif lower.endswith(".pdf"):
            password = PDF_PASSWORDS.get(name)
            corpus.add("pdf-poppler", data if password is None else password + b"\x00" + data)
        elif lower.endswith((".html", ".xhtml")) or name in ("html.unknown", "xhtml.unknown", "html-doctype-case.unknown"):
            corpus.add("xhtml-layout", data)
        archive = open_zip(data)
        if archive is None:
            continue
        corpus.add("zip-archive", data)
        corpus.add("zip-archive", small_archive(archive))
        epub_documents(corpus, archive, xhtml_budget)
        if lower.endswith((".cbz", ".zab", ".zip", ".unknown")) or "cbz" in lower:
            corpus.add("cbz-comicinfo", comic_book_input(path, archive))

    for target in targets:
        folder = os.path.join(output, target)
        total = len(os.listdir(folder)) if os.path.isdir(folder) else 0
        print(f"{target:20} {corpus.counts[target]:5} new seeds, {total:6} inputs in the corpus")


if __name__ == "__main__":
    main()
