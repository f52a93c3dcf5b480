#!/usr/bin/env python3
"""HdrHistogram logs: `threeds load --histogram-log` against HdrHistogram's Python implementation (`hdrh`), both ways.

1. Runs `threeds testlab` and `threeds load --json --histogram-log` against it; decodes every histogram of the log
   with hdrh and checks counts and percentiles against the JSON report of the same run.
2. Encodes histograms with hdrh (known values), writes them as a tagged log, and checks that `threeds load merge`
   of that log and the Swift one reports the counts and percentiles hdrh computes for the same merge.

Usage: hdr_peer.py PATH/TO/threeds
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import time

from hdrh.histogram import HdrHistogram

failures = 0
checks = 0


def check(condition, message):
    global failures, checks
    checks += 1
    if not condition:
        failures += 1
        print("FAIL:", message)


def close(ms_swift, us_python, what):
    """Swift reports milliseconds with three decimals; values agree within HdrHistogram's equivalence (0.1 %)."""
    check(abs(ms_swift * 1000 - us_python) <= max(2, us_python * 0.002), f"{what}: swift {ms_swift} ms, hdrh {us_python} us")


def at_percentile(histogram, percentile):
    """The value at a percentile as threeds (and HdrHistogram's Java and Swift code) define it: the count is rounded
    up, so p99 of 72 values is the 72nd. hdrh's own get_value_at_percentile rounds half up instead."""
    target = max(1, math.ceil(percentile / 100 * histogram.get_total_count() - 1e-9))
    running = 0
    for item in histogram.get_recorded_iterator():
        running += item.count_at_value_iterated_to
        if running >= target:
            return histogram.get_highest_equivalent_value(item.value_iterated_to)
    return 0


def read_log(path):
    histograms = {}
    with open(path) as log:
        for line in log:
            if not line.startswith("Tag="):
                continue
            tag, _start, _length, _max, encoded = line.strip().split(",")
            histograms[tag[4:]] = HdrHistogram.decode(encoded)
    return histograms


def main():
    threeds = sys.argv[1]
    work = tempfile.mkdtemp(prefix="hdr-peer-")
    lab = subprocess.Popen(
        [threeds, "testlab", "--port", "0", "--pki-dir", os.path.join(work, "pki")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = lab.stdout.readline().strip()
        check(first.startswith("TestLab listening on https://127.0.0.1:"), f"testlab started: {first}")
        url = first.split()[-1]
        pki = os.path.join(work, "pki")
        for _ in range(50):
            if os.path.exists(os.path.join(pki, "tls-root.pem")):
                break
            time.sleep(0.1)
        answers = os.path.join(work, "answers.json")
        with open(answers, "w") as handle:
            handle.write('[{"action":"submit","text":"123456"}]')
        swift_log = os.path.join(work, "swift.hlog")
        run = subprocess.run(
            [threeds, "load", "--server", url, "--ds-id", "F055545342",
             "--ds-cert", os.path.join(pki, "ds-encryption-rsa.pem"), "--ds-root", os.path.join(pki, "ds-root.pem"),
             "--tls-root", os.path.join(pki, "tls-root.pem"), "--card", "4000000000002000", "--amount", "1999",
             "--currency", "978", "--answers", answers, "--count", "40", "--concurrency", "8", "--json",
             "--histogram-log", swift_log],
            capture_output=True, text=True, timeout=600)
        check(run.returncode == 0, f"threeds load exit {run.returncode}: {run.stderr[-500:]}")
        report = json.loads(run.stdout.strip().splitlines()[-1])
        check(report["outcomes"] == {"completed Y": 40}, f"outcomes {report['outcomes']}")

        # Swift -> Python: every phase decodes to the counts and percentiles the run reported.
        swift = read_log(swift_log)
        check(sorted(swift) == sorted(report["phases"]), f"tags {sorted(swift)}")
        for tag, histogram in swift.items():
            phase = report["phases"][tag]
            check(histogram.get_total_count() == phase["count"], f"{tag} count")
            for name, percentile in (("p50", 50), ("p90", 90), ("p99", 99)):
                close(phase[name], at_percentile(histogram, percentile), f"{tag} {name}")
            close(phase["max"], histogram.get_max_value(), f"{tag} max")

        # Python -> Swift: hdrh's encodings, merged by threeds with the Swift log.
        python_log = os.path.join(work, "python.hlog")
        python = {}
        with open(python_log, "w") as log:
            log.write("#[Histogram log format version 1.3]\n")
            log.write('"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n')
            for tag, values in (("exchange", range(1000, 200000, 997)), ("server", [5000] * 30 + [90000, 250000])):
                histogram = HdrHistogram(1, 3_600_000_000, 3)
                for value in values:
                    histogram.record_value(value)
                python[tag] = histogram
                log.write(f"Tag={tag},0.000,1.000,{histogram.get_max_value() / 1000:.3f},"
                          f"{histogram.encode().decode()}\n")
        merge = subprocess.run([threeds, "load", "merge", python_log, swift_log, "--json"],
                               capture_output=True, text=True, timeout=120)
        check(merge.returncode == 0, f"merge exit {merge.returncode}: {merge.stderr}")
        merged = json.loads(merge.stdout.strip().splitlines()[-1])
        check(merged["files"] == 2, "merged file count")
        for tag in swift:
            expected = HdrHistogram(1, 3_600_000_000, 3)
            expected.add(swift[tag])
            if tag in python:
                expected.add(python[tag])
            phase = merged["phases"][tag]
            check(phase["count"] == expected.get_total_count(), f"merged {tag} count {phase['count']}")
            for name, percentile in (("p50", 50), ("p90", 90), ("p99", 99)):
                close(phase[name], at_percentile(expected, percentile), f"merged {tag} {name}")
            close(phase["max"], expected.get_max_value(), f"merged {tag} max")

        # A corrupt histogram is refused with the file and line named, not a crash.
        bad_log = os.path.join(work, "bad.hlog")
        with open(bad_log, "w") as log:
            log.write("Tag=exchange,0.000,1.000,1.000,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT\n")
        bad = subprocess.run([threeds, "load", "merge", bad_log], capture_output=True, text=True, timeout=60)
        check(bad.returncode == 1 and "bad.hlog line 1" in bad.stderr, f"corrupt log: {bad.returncode} {bad.stderr}")
    finally:
        lab.terminate()
        lab.wait(timeout=30)
    print(f"hdr interop: {checks - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
