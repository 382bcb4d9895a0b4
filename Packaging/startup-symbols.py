#!/usr/bin/env python3
"""Writes Packaging/startup-symbols.txt: the functions of the release `lectern` that run at start
(`lectern --version`) and up to an EPUB's first page (`lectern render BOOK --page 1`), as
valgrind's callgrind sees them. The release link (Makefile's RELEASE_FLAGS) places them side by
side (lld --symbol-ordering-file), so that start-up touches a few contiguous pages of code
instead of 64 KB fault-around windows all over the binary (#28: `--version` 20.9 -> 17.3 MB).
A name that no longer exists is ignored by the linker; run this again after large changes:
    make release && python3 Packaging/startup-symbols.py .build/release/lectern
Needs valgrind (which cannot read the binary's DWARF 5: a copy without debug info is traced)."""
import os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", ".build", "release", "lectern")
work = tempfile.mkdtemp(prefix="lectern-startup-")
traced = os.path.join(work, "lectern")
subprocess.run(["strip", "--strip-debug", "-o", traced, binary], check=True)
book = os.path.join(work, "book.epub")
subprocess.run([sys.executable, os.path.join(here, "..", "Benchmarks", "make_big_epub.py"), "--chapters", "20", "--out", book],
               check=True, stdout=subprocess.DEVNULL)
env = dict(os.environ, HOME=work, XDG_DATA_HOME=work + "/data", XDG_CONFIG_HOME=work + "/config", XDG_CACHE_HOME=work + "/cache")
order, seen = [], set()
for index, arguments in enumerate([["--version"], ["render", book, "--page", "1", "--width", "100"]]):
    out = os.path.join(work, f"callgrind.{index}")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", traced, *arguments],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    objects, names, in_binary = {}, {}, False
    for line in open(out, errors="replace"):
        line = line.rstrip("\n")
        if m := re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line):
            kind, ident, name = m.groups()
            if name: objects[ident] = name
            if kind == "ob": in_binary = objects.get(ident) == traced
        elif m := re.match(r"^cfn=\((\d+)\) (.*)$", line):
            names[m.group(1)] = m.group(2)
        elif m := re.match(r"^fn=\((\d+)\)(?: (.*))?$", line):
            if m.group(2): names[m.group(1)] = m.group(2)
            name = names.get(m.group(1))
            if in_binary and name and name not in seen:
                seen.add(name)
                order.append(name)
with open(os.path.join(here, "startup-symbols.txt"), "w") as file:
    file.write("\n".join(order) + "\n")
print(f"{len(order)} functions in Packaging/startup-symbols.txt")
