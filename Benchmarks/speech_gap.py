"""Reading aloud (issue #33): the gap between sentences with espeak-ng.

`lectern listen --tts --json --output null` reads a real book at speed 1 for SECONDS; each
sentence line after the first says the silence espeak-ng put between the two sentences
(`pause`: the voice's own, the same as in one text) and how long the output waited for the
next sentence's audio (`gap`: what the pipeline adds; the next sentence is synthesised while
one plays). The row is the median of `gap`; the note gives the pauses.
"""
import json
import os
import statistics
import subprocess

SECONDS = 40
BOOK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Samples", "idpf-childrens-literature.epub")


def bench_speech(lectern, env):
    result = subprocess.run(["/usr/bin/time", "-f", "%M", lectern, "listen", "--tts", "--json", "--output", "null",
                             "--for", str(SECONDS), BOOK], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        return [], [f"Reading aloud was not measured: {result.stderr.strip().splitlines()[-1:]}"]
    peak_kb = int(result.stderr.strip().splitlines()[-1])
    sentences = [json.loads(line) for line in result.stdout.splitlines() if '"event":"sentence"' in line]
    waits = [s["gap"] * 1000 for s in sentences if "gap" in s]
    pauses = [s["pause"] * 1000 for s in sentences if "pause" in s]
    if not waits:
        return [], ["Reading aloud was not measured: no sentence boundary heard"]
    figures = {"median_ms": statistics.median(waits), "min_ms": min(waits), "max_ms": max(waits),
               "peak_rss_kb": peak_kb, "runs": len(waits)}
    rows = [("Gap between sentences read aloud with espeak-ng (wait for the next sentence's audio; "
             f"`lectern listen --tts`, {SECONDS} s at speed 1, runs = sentence boundaries)", figures, "≤ 50 ms median")]
    notes = [f"Reading aloud: espeak-ng's own pause between sentences (the same as in one text) is "
             f"{statistics.median(pauses):.0f} ms median ({min(pauses):.0f}–{max(pauses):.0f} ms); the pipeline adds "
             f"the wait only, {statistics.median(waits):.1f} ms median over {len(waits)} boundaries."]
    return rows, notes
