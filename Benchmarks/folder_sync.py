"""Annotations synced through a folder (issue #32): `lectern sync now` on a book with 2,000
annotations in the library and in the folder's file, as the reader would sync on opening and
closing it. The file is made from one real highlight (`lectern annotate`), its item repeated
with new ids; the first (warm-up) run brings the 2,000 into the library, the measured runs
merge 2,000 with 2,000 and find nothing to write."""
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import uuid


def bench_folder_sync(lectern, runs, env, work, samples, measure):
    book = os.path.join(work, "folder-sync-wasteland.epub")
    shutil.copyfile(os.path.join(samples, "epub", "idpf-wasteland.epub"), book)
    folder = tempfile.mkdtemp(prefix="lectern-bench-folder-")
    for command in (["annotate", book, "--quote", "April is the cruellest month", "--note", "a note"],
                    ["sync", "folder", folder], ["sync", "now"]):
        subprocess.run([lectern, *command], env=env, check=True, stdout=subprocess.DEVNULL)
    names = [name for name in os.listdir(folder) if name.endswith(".annotation")]
    if len(names) != 1:
        return [], [f"Folder sync: expected one file in the folder, found {names}."]
    path = os.path.join(folder, names[0])
    with open(path, encoding="utf-8") as file:
        annotation_set = json.load(file)
    item = annotation_set["items"][0]
    items = []
    for number in range(2000):
        copy = json.loads(json.dumps(item))
        copy["id"] = "urn:uuid:" + str(uuid.uuid4())
        copy["body"]["value"] = f"note {number}"
        items.append(copy)
    annotation_set["items"] = items
    with open(path, "w", encoding="utf-8") as file:
        json.dump(annotation_set, file)
    steady = measure([lectern, "sync", "now"], runs, env)
    start = measure([lectern, "--version"], runs, env)
    unchanged, unchanged_phases = in_process(lectern, runs, env, steady)
    # The same merge with the folder's file changed (touched: a full read and merge, nothing to write).
    changed, changed_phases = in_process(lectern, runs, env, steady, touch=path)
    notes = [f"Folder sync: {steady['median_ms'] - start['median_ms']:.1f} ms above process start "
             f"({start['median_ms']:.1f} ms) to sync the 2,000-annotation book with nothing changed "
             "(what opening or closing the book would cost).",
             f"Folder sync in process (`lectern sync now --timings`), nothing changed, median per phase: {unchanged_phases}.",
             f"Folder sync in process, the folder's file touched (read, decoded and merged in full), median per phase: "
             f"{changed_phases}."]
    return [("Folder sync of a book with 2,000 annotations, nothing changed (`lectern sync now`)", steady,
             "≤ 50 ms for the merge"),
            ("Folder sync merge in process, 2,000 annotations, nothing changed (`sync now --timings`)", unchanged,
             "≤ 50 ms"),
            ("Folder sync merge in process, 2,000 annotations, folder file touched (`sync now --timings`)", changed,
             "≤ 50 ms")], notes


def in_process(lectern, runs, env, whole, touch=None):
    """The merge's own time, as `lectern sync now --timings` measures it inside the process
    (total and per phase, milliseconds); `touch`: a file whose times are moved before each run."""
    totals, phases = [], {}
    for number in range(runs + 2):
        if touch:
            os.utime(touch, None)
        result = subprocess.run([lectern, "sync", "now", "--timings"], env=env, check=True, capture_output=True, text=True)
        line = next(line for line in result.stdout.splitlines() if line.startswith("sync timings: "))
        match = re.match(r"sync timings: total ([0-9.]+) ms: ?(.*)", line)
        if number < 2:  # warm-up, as measure() does
            continue
        totals.append(float(match.group(1)))
        for part in filter(None, match.group(2).split(", ")):
            name, value = part.rsplit(" ", 1)
            phases.setdefault(name, []).append(float(value))
    figures = {"median_ms": statistics.median(totals), "min_ms": min(totals), "max_ms": max(totals),
               "peak_rss_kb": whole["peak_rss_kb"], "runs": runs}
    described = ", ".join(f"{name} {statistics.median(values):.2f} ms" for name, values in phases.items())
    return figures, described
