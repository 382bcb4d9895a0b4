#!/usr/bin/env python3
"""Gives swift-argument-parser's subcommand man pages the names `man` and `whatis` expect.

generate-manual writes `lectern search` as the name of lectern.search.1; a page installed as
lectern-search.1 must be named `lectern-search` in its NAME section (and its title), as git's
are, while its synopsis keeps showing the command as it is typed (`lectern search`). An empty
line, which mdoc warns about, becomes the paragraph break it stands for (`.Pp`).

Usage: fix-man-pages.py PAGE.1…
"""
import re
import sys

for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    name = next((line[len('.Nm "'):-1] for line in lines if line.startswith('.Nm "')), None)
    dashed = name.replace(" ", "-") if name else None
    out = []
    for line in lines:
        if dashed and line.startswith(".Dt "):
            line = re.sub(r"^\.Dt \S+", ".Dt " + dashed.upper(), line)
        elif dashed and line == f'.Nm "{name}"':
            line = f".Nm {dashed}"
        elif dashed and line == ".Nm":
            line = f'.Nm "{name}"'
        elif line == "":
            line = ".Pp"
        out.append(line)
    # The file ends with a line feed, not with a paragraph break.
    while out and out[-1] == ".Pp":
        out.pop()
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
