"""Annotations synced through a folder (issue #32): `lectern sync now` on a book with 2,000
annotations in the library and in the folder's file, as the reader would sync on opening and
closing it. The file is made from one real highlight (`lectern annotate`), its item repeated
with new ids; the first (warm-up) run brings the 2,000 into the library, the measured runs
merge 2,000 with 2,000 and find nothing to write."""
import json
import os
import shutil
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
    notes = [f"Folder sync: {steady['median_ms'] - start['median_ms']:.1f} ms above process start "
             f"({start['median_ms']:.1f} ms) to read the 2,000-annotation file, the library's 2,000, merge them "
             "and find nothing to write (what opening or closing the book would cost)."]
    return [("Folder sync of a book with 2,000 annotations, nothing changed (`lectern sync now`)", steady,
             "≤ 50 ms for the merge")], notes
