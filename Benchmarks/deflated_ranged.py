"""Ranged reads at the end of a long deflated ZIP entry, with and without access points (#28).

A reopening at the end of the 64 MB chapter of one-chapter-65mb.epub reads that chapter's last
bytes. Without access points, reading them inflates the whole entry first. Once a whole read
(the reader's background pass) has stored points under the cache folder, a new process starts
inflating at the last point before the range instead.
"""
import subprocess
import zipfile


def bench_deflated_ranged(lectern, runs, book, measure, isolated_env):
    """Rows for a 64 KiB `lectern cat --range` at the end of the book's largest entry, each in a
    new process: first with an empty cache, then after one whole read has stored the points."""
    with zipfile.ZipFile(book) as archive:
        entry = max(archive.infolist(), key=lambda info: info.file_size)
    end = entry.file_size
    command = [lectern, "cat", book, "--href", entry.filename, "--range", f"{end - 65536}-{end}"]
    # A ranged read that inflates from the start to the end stores the points too: this row's
    # cache is a path that cannot be created, so that every run inflates the whole entry.
    cold = isolated_env()
    cold["XDG_CACHE_HOME"] = "/dev/null/lectern-bench-no-cache"
    without = measure(command, runs, cold)
    warm = isolated_env()
    subprocess.run([lectern, "cat", book, "--href", entry.filename], env=warm, check=True, stdout=subprocess.DEVNULL)
    with_points = measure(command, runs, warm)
    size_mb = end / 1e6
    rows = [
        (f"64 KiB ranged read at the end of a deflated {size_mb:.0f} MB entry, no access points "
         f"(`lectern cat one-chapter-65mb.epub --href {entry.filename} --range …`)", without, ""),
        (f"The same read in a new process after a whole read stored the entry's access points", with_points,
         "≤ 400 ms reopening of the 65 MB book at its end (#28)"),
    ]
    saved = without["median_ms"] - with_points["median_ms"]
    notes = [f"Access points save {saved:.0f} ms on a 64 KiB read at the end of the {size_mb:.0f} MB deflated chapter: "
             "the read inflates at most about 1 MiB before its range instead of the whole entry."]
    return rows, notes
