#!/usr/bin/env python3
"""JUnit XML: `threeds conform --output DIR` read by PyPI's `junitparser`, as CI systems read it.

Runs `threeds testlab`, then `threeds conform` against it twice: the worked example's plan (Tools/scripts/
conform-plan.json; nothing broken, exit 0) and a plan of two fault-profile cards (exit 1). Each JUnit file must parse
with junitparser, hold one test case per check of the JSON report of the same run, with the same verdicts, and name
each planted rule in a failure.

Usage: junit_peer.py PATH/TO/threeds
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from junitparser import Failure, JUnitXml, Skipped

failures = 0
checks = 0
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check(condition, message):
    global failures, checks
    checks += 1
    if not condition:
        failures += 1
        print("FAIL:", message)


def compare(output):
    """The JUnit file against the JSON report: one test case per check, the same verdicts."""
    with open(os.path.join(output, "conform.json")) as handle:
        report = json.load(handle)
    expected = [check for case in report["cases"] for check in case["checks"]]
    xml = JUnitXml.fromfile(os.path.join(output, "conform-junit.xml"))
    cases = [case for suite in xml for case in suite]
    check(len(cases) == len(expected), f"{len(cases)} test cases, {len(expected)} checks")
    for case, wanted in zip(cases, expected):
        kinds = {type(result) for result in case.result}
        verdict = "failed" if Failure in kinds else "skipped" if Skipped in kinds else "passed"
        check(case.name == wanted["name"], f"test case {case.name!r}, check {wanted['name']!r}")
        check(verdict == wanted["status"], f"{case.name}: {verdict}, report {wanted['status']}")
    return report, cases


def main():
    threeds = sys.argv[1]
    work = tempfile.mkdtemp(prefix="junit-peer-")
    pki = os.path.join(work, "pki")
    lab = subprocess.Popen([threeds, "testlab", "--port", "0", "--pki-dir", pki],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = lab.stdout.readline().strip()
        check(first.startswith("TestLab listening on https://127.0.0.1:"), f"testlab started: {first}")
        url = first.split()[-1]
        for _ in range(50):
            if os.path.exists(os.path.join(pki, "trust-bundle.json")):
                break
            time.sleep(0.1)
        base = [threeds, "conform", "--server", url, "--ds-id", "F055545342", "--trust-bundle", pki,
                "--tls-root", os.path.join(pki, "tls-root.pem")]

        good = os.path.join(work, "good")
        run = subprocess.run(base + ["--plan", os.path.join(ROOT, "Tools/scripts/conform-plan.json"),
                                     "--output", good], capture_output=True, text=True, timeout=600)
        check(run.returncode == 0, f"conformant plan: exit {run.returncode}: {run.stdout[-800:]}{run.stderr[-400:]}")
        report, _ = compare(good)
        check(report["rules"] == [], f"rules on the conformant lab: {report['rules']}")

        plan = os.path.join(work, "faults.json")
        with open(plan, "w") as handle:
            json.dump({"cards": [
                {"name": "texts", "card": "4000000000080061", "version": "2.2.0", "kind": "text",
                 "answers": [{"action": "submit", "text": "123456"}], "suites": ["right", "cancel"]},
                {"name": "select", "card": "4000000000080087", "version": "2.3.1", "kind": "singleSelect",
                 "answers": [{"action": "submit", "select": ["sms"]}], "suites": ["right"]},
            ]}, handle)
        bad = os.path.join(work, "bad")
        run = subprocess.run(base + ["--plan", plan, "--output", bad], capture_output=True, text=True, timeout=600)
        check(run.returncode == 1, f"fault plan: exit {run.returncode}: {run.stdout[-800:]}{run.stderr[-400:]}")
        report, cases = compare(bad)
        planted = {"cres.challengeInfoTextIndicator.value", "cres.resendInformationLabel.empty",
                   "cres.challengeSelectInfo.duplicateKey"}
        check(set(report["rules"]) == planted, f"rules {report['rules']}")
        text = "\n".join(result.text or "" for case in cases for result in case.result if isinstance(result, Failure))
        for rule in planted:
            check(rule in text, f"{rule} in a failure's text")
    finally:
        lab.terminate()
        lab.wait(timeout=30)
    print(f"junit interop: {checks - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
