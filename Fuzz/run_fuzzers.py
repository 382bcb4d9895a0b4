#!/usr/bin/env python3
"""Runs the fuzz targets one after the other and reports what they did.

Usage: run_fuzzers.py --bin DIR --work DIR --seconds N [--keep-going] [--report FILE] [TARGET...]

Each target runs for N seconds on its corpus (WORK/corpus/<target>/, made by make_corpus.py,
grown by libFuzzer) with its dictionary (Fuzz/dictionaries/). Any crash, timeout or out-of-memory
input is copied to Tests/Fixtures/fuzz/<target>/, where FuzzRegressionTests replays it.

libFuzzer stops a target at its first crash; with --keep-going it runs in fork mode and goes on
(-fork=1 -ignore_crashes=1 …), to reach the execution count despite a known crash.

Prints a table (target, executions, exec/s, corpus, crashes), writes it as Markdown to the
report file, and exits with 1 when a target crashed (2 when a fuzzer could not run at all).
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "Fuzz")

# Dictionary and largest input of each target.
TARGETS = {
    "lcp-license": ("json.dict", 16384),
    "license-status": ("json.dict", 16384),
    "audiobook-status": ("json.dict", 16384),
    "audiobook-manifest": ("json.dict", 32768),
    "audiobook-jwks": ("json.dict", 16384),
    "epub-container": ("xml.dict", 8192),
    "epub-opf": ("xml.dict", 24576),
    "epub-nav": ("xml.dict", 24576),
    "epub-ncx": ("xml.dict", 24576),
    "epub-encryption": ("xml.dict", 16384),
    "rwpm-manifest": ("json.dict", 32768),
    "zip-archive": ("zip.dict", 65536),
    "xhtml-layout": ("html.dict", 32768),
    "toml-config": ("toml.dict", 8192),
    "cbz-comicinfo": ("xml.dict", 16384),
    "pdf-poppler": ("pdf.dict", 131072),
    "opds1-feed": ("opds.dict", 65536),
    "opds2-feed": ("json.dict", 65536),
    "opds-authentication": ("json.dict", 16384),
    "opensearch-description": ("opds.dict", 16384),
    "http-request-head": ("http.dict", 8192),
    "documents": ("xml.dict", 32768),
    "comic-archive": ("zip.dict", 65536),
    "mobi": ("html.dict", 131072),
    "djvu": ("djvu.dict", 65536),
    "annotations": ("json.dict", 32768),
    "annotation-readium": ("annotation.dict", 32768),
    "annotation-lectern-json": ("annotation.dict", 32768),
    "annotation-koreader-lua": ("lua.dict", 32768),
}
ARTIFACT_PREFIXES = ("crash-", "timeout-", "oom-")
# Seconds one input may take before libFuzzer calls it a hang.
INPUT_TIMEOUT = 30


def sanitizer_environment():
    env = dict(os.environ)
    # The Swift runtime's backtracer would catch the signals before the sanitizer reports them.
    env["SWIFT_BACKTRACE"] = "enable=no"
    env["ASAN_OPTIONS"] = ":".join(filter(None, [
        env.get("ASAN_OPTIONS", ""),
        # LeakSanitizer cannot follow Swift's pointers: enum payloads (Data's representation,
        # for one) keep tag bits in a pointer's spare bits, so objects held by globals are
        # reported as leaked (found at once on the first, empty input).
        "detect_leaks=0",
        # Throughput: no allocation stack per malloc (StackDepot took 14 % of the time), a
        # smaller quarantine (fewer fresh pages). Re-run a crash input without these options
        # for the allocation and free stacks.
        "malloc_context_size=0",
        "quarantine_size_mb=64",
    ]))
    return env


def parse_statistics(log):
    """Executions and executions per second from libFuzzer's output (normal or fork mode)."""
    executions = speed = None
    match = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    if match:
        executions = int(match[-1])
    match = re.findall(r"stat::average_exec_per_sec:\s*(\d+)", log)
    if match:
        speed = int(match[-1])
    if executions is None:
        # Fork mode: "#123456: cov: … exec/s: 789 oom/timeout/crash: 0/0/1 time: 60s …"
        lines = re.findall(r"^#(\d+): cov: .*? exec/s: (\d+)", log, re.MULTILINE)
        if lines:
            executions, speed = int(lines[-1][0]), int(lines[-1][1])
    if executions is None:
        # Stopped before the final statistics (a crash in the first inputs): the last status line.
        lines = re.findall(r"^#(\d+)\s+\S+\s+cov: .*? exec/s: (\d+)", log, re.MULTILINE)
        if lines:
            executions, speed = int(lines[-1][0]), int(lines[-1][1])
    return executions, speed


def run_target(target, args, env):
    dictionary, max_len = TARGETS[target]
    binary = os.path.join(args.bin, "fuzz-" + target)
    corpus = os.path.join(args.work, "corpus", target)
    artifacts = os.path.join(args.work, "artifacts", target)
    logs = os.path.join(args.work, "logs")
    for folder in (corpus, artifacts, logs):
        os.makedirs(folder, exist_ok=True)
    before = set(os.listdir(artifacts))
    command = [
        binary, corpus,
        f"-dict={os.path.join(FUZZ, 'dictionaries', dictionary)}",
        f"-max_total_time={args.seconds}",
        f"-max_len={max_len}",
        f"-timeout={INPUT_TIMEOUT}",
        "-rss_limit_mb=2048",
        "-print_final_stats=1",
        f"-artifact_prefix={artifacts}/",
    ]
    if args.keep_going:
        command += ["-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"]
    log_path = os.path.join(logs, target + ".log")
    started = time.monotonic()
    with open(log_path, "w") as log_file:
        # A hang of libFuzzer itself must not hold up the other targets.
        try:
            status = subprocess.run(command, stdout=log_file, stderr=subprocess.STDOUT, env=env, cwd=args.work,
                                    timeout=args.seconds * 2 + 300).returncode
        except subprocess.TimeoutExpired:
            status = "killed"
        except OSError as error:
            log_file.write(f"cannot run {binary}: {error}\n")
            status = "missing"
    elapsed = time.monotonic() - started
    with open(log_path, errors="replace") as log_file:
        log = log_file.read()
    executions, speed = parse_statistics(log)

    found = sorted(name for name in set(os.listdir(artifacts)) - before if name.startswith(ARTIFACT_PREFIXES))
    kept = os.path.join(ROOT, "Tests", "Fixtures", "fuzz", target)
    for name in found:
        os.makedirs(kept, exist_ok=True)
        shutil.copyfile(os.path.join(artifacts, name), os.path.join(kept, name))
    return {
        "target": target, "executions": executions, "speed": speed, "seconds": elapsed, "status": status,
        "corpus": len(os.listdir(corpus)), "found": found, "log": os.path.relpath(log_path, ROOT),
    }


def table(results):
    header = ["target", "executions", "exec/s", "corpus", "crashes", "status"]
    rows = []
    for result in results:
        status = "ok" if result["status"] == 0 and not result["found"] else f"exit {result['status']}"
        if result["found"]:
            status = ", ".join(result["found"])
        rows.append([
            result["target"],
            f"{result['executions']:,}" if result["executions"] is not None else "?",
            str(result["speed"]) if result["speed"] is not None else "?",
            str(result["corpus"]),
            str(len(result["found"])),
            status,
        ])
    return header, rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="folder of the fuzz-<target> executables")
    parser.add_argument("--work", required=True, help="work folder (corpora, artifacts, logs)")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--keep-going", action="store_true")
    parser.add_argument("--report", help="Markdown report to write")
    parser.add_argument("targets", nargs="*")
    args = parser.parse_args()
    args.work = os.path.abspath(args.work)
    targets = args.targets or list(TARGETS)
    unknown = [target for target in targets if target not in TARGETS]
    if unknown:
        sys.exit(f"unknown fuzz target(s): {' '.join(unknown)}; known: {' '.join(TARGETS)}")

    env = sanitizer_environment()
    results = []
    for target in targets:
        print(f"fuzzing {target} for {args.seconds} s…", flush=True)
        result = run_target(target, args, env)
        results.append(result)
        note = f" — {len(result['found'])} crash input(s) kept under Tests/Fixtures/fuzz/{target}/" if result["found"] else ""
        print(f"  {result['executions'] or 0:,} executions, {result['speed'] or 0} exec/s{note} (log: {result['log']})",
              flush=True)

    header, rows = table(results)
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    print()
    print("  ".join(header[i].ljust(widths[i]) for i in range(len(header))))
    for row in rows:
        print("  ".join(row[i].rjust(widths[i]) if 0 < i < 5 else row[i].ljust(widths[i]) for i in range(len(header))))

    if args.report:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
        lines = [
            "# Fuzzing report",
            "",
            f"Written by `make fuzz` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC: "
            f"{args.seconds} s per target{' (fork mode, going on after crashes)' if args.keep_going else ''}, "
            f"one target at a time, on {os.cpu_count()} cores ({platform.machine()}, load average "
            f"{os.getloadavg()[0]:.1f} at the end), {swift[0] if swift else 'swift'}, "
            "`-sanitize=fuzzer,address`, release build.",
            "",
            "| " + " | ".join(header) + " |",
            "|" + "|".join("---:" if 0 < i < 5 else "---" for i in range(len(header))) + "|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines += ["", "Crash inputs are kept under `Tests/Fixtures/fuzz/<target>/` and replayed by `FuzzRegressionTests`.", ""]
        with open(args.report, "w") as report:
            report.write("\n".join(lines))
        print(f"\nreport: {os.path.relpath(args.report, ROOT)}")

    if any(result["status"] == "missing" for result in results):
        sys.exit(2)
    sys.exit(1 if any(result["found"] or result["status"] != 0 for result in results) else 0)


if __name__ == "__main__":
    main()
