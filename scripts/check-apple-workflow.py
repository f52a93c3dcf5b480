#!/usr/bin/env python3
"""Fails when .github/workflows/apple.yml loses a step issue 33 requires, so a change to the Apple workflow cannot wait
for the first macOS run to show what it dropped. Reads the workflow with PyYAML (a CI tool, not a dependency of any
Swift package).

Every job must check out with actions/checkout, pin its Xcode through scripts/select-xcode.sh, and run on both
Xcode 16.3 and the newest one on the image. The macOS job builds the SDK's targets and the SwiftUI module, the tools
package, the benchmark package in a build folder of its own, lints the privacy manifest and runs the SDK's tests.
The iOS job builds for the Simulator and for a device, and runs the Apple test target with `xcodebuild test` on the
oldest and on the newest Simulator. The Apple test target is declared for Darwin only and covers what the workflow
promises; the tests that read the live system carry Darwin expectations.

`--self-test` removes each required step in turn from a copy and checks that the check then fails."""

import copy
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github/workflows/apple.yml"

# What each job must run: (description, pattern over one step's `run` text).
MACOS = [
    ("the privacy manifest linted", r"plutil -lint Sources/ThreeDS2SDK/PrivacyInfo\.xcprivacy"),
    ("the SDK built", r"swift build --target ThreeDS2SDK\b"),
    ("the SwiftUI module built", r"swift build --target ThreeDS2UI\b"),
    ("the tools package built", r"swift build --package-path Tools\b"),
    ("the benchmark package built in its own build folder",
     r"swift build --package-path Benchmarks --scratch-path (?!\.build(?:\s|$))\S+"),
    ("the SDK's tests run", r"(?m)^\s*swift test\b"),
]
IOS = [
    ("a Simulator build", r"xcodebuild build .*-destination 'generic/platform=iOS Simulator'"),
    ("a device build", r"xcodebuild build .*-destination 'generic/platform=iOS'"),
    ("the SwiftUI module among the schemes built", r"for scheme in [^;]*\bThreeDS2UI\b"),
    ("the Simulators chosen", r"scripts/choose-simulators\.py"),
    ("the Apple tests' scheme written", r"scripts/write-apple-test-scheme\.py"),
    ("the Apple tests on the oldest Simulator",
     r"xcodebuild test -scheme ThreeDS2UITests .*-only-testing:ThreeDS2UITests[\s\S]*steps\.simulators\.outputs\.oldest\b"),
    ("the Apple tests on the newest Simulator",
     r"xcodebuild test -scheme ThreeDS2UITests .*-only-testing:ThreeDS2UITests[\s\S]*steps\.simulators\.outputs\.newest\b"),
]
COMMON = [
    ("Xcode selected", r"scripts/select-xcode\.sh \"\$\{\{ matrix\.xcode \}\}\""),
]
# What the Apple test target must exercise: (description, pattern over its files together).
APPLE_TESTS = [
    ("every LiveSystemProbe fact", r"platformFacts\(all\)[\s\S]*PlatformFact\.allCases|PlatformFact\.allCases"),
    ("ChallengeView for each UI type", r"\"01\", \"02\", \"03\", \"04\", \"05\", \"06\", \"07\""),
    ("the web-view coordinator with a GET and a POST form", r"arguments: \[\"get\", \"post\"\]"),
    ("URLSessionTransport's TLS host rule", r"SessionDelegate\(\)\.urlSession\("),
]


def problems_in(workflow, package_text, apple_test_text, live_test_text):
    problems = []
    jobs = workflow.get("jobs") or {}
    for name, required in (("macos", MACOS), ("ios", IOS)):
        job = jobs.get(name)
        if job is None:
            problems.append(f"job {name} is missing")
            continue
        steps = job.get("steps") or []
        runs = [str(step.get("run", "")) for step in steps]
        uses = [str(step.get("uses", "")) for step in steps]
        if not any(use.startswith("actions/checkout@") for use in uses):
            problems.append(f"{name}: no actions/checkout step")
        for description, pattern in COMMON + required:
            if not any(re.search(pattern, run) for run in runs):
                problems.append(f"{name}: no step with {description}")
        xcodes = [str(x) for x in ((job.get("strategy") or {}).get("matrix") or {}).get("xcode", [])]
        if "newest" not in xcodes:
            problems.append(f"{name}: not run on the newest Xcode (matrix xcode lacks \"newest\")")
        pinned = [x for x in xcodes if x != "newest"]
        if not pinned or any(tuple(int(p) for p in x.split(".")) < (16, 3) for x in pinned):
            problems.append(f"{name}: no pinned Xcode 16.3 or later in the matrix ({xcodes})")
    darwin_block = package_text.split("#if canImport(Darwin)", 1)[-1] if "#if canImport(Darwin)" in package_text else ""
    if 'name: "ThreeDS2UITests"' not in darwin_block:
        problems.append("Package.swift: ThreeDS2UITests is not declared in the #if canImport(Darwin) block")
    for description, pattern in APPLE_TESTS:
        if not re.search(pattern, apple_test_text):
            problems.append(f"Tests/ThreeDS2UITests: nothing covers {description}")
    for marker in ('"/proc/self/status")?.contains("TracerPid:")', '"/libc.so.6")', 'dd["C001"] == .string("Linux")'):
        for match in re.finditer(re.escape(marker), live_test_text):
            before = live_test_text[max(0, match.start() - 200):match.start()]
            if "#if os(Linux)" not in before:
                problems.append(f"a live-system test expects Linux without #if os(Linux): {marker}")
    return problems


def read_inputs():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    package_text = (ROOT / "Package.swift").read_text()
    apple_dir = ROOT / "Tests/ThreeDS2UITests"
    apple_test_text = "\n".join(p.read_text() for p in sorted(apple_dir.glob("*.swift"))) if apple_dir.is_dir() else ""
    live_test_text = "\n".join(
        (ROOT / "Tests/ThreeDS2SDKTests" / name).read_text() for name in ("DeviceDataTests.swift", "DeviceRegistryTests.swift"))
    return workflow, package_text, apple_test_text, live_test_text


def self_test(workflow, package_text, apple_test_text, live_test_text):
    """Every required step, removed alone, must be reported; the real inputs must pass."""
    failures = []
    for job_name in ("macos", "ios"):
        for index, step in enumerate(workflow["jobs"][job_name]["steps"]):
            mutated = copy.deepcopy(workflow)
            del mutated["jobs"][job_name]["steps"][index]
            required = any(
                re.search(pattern, str(step.get("run", ""))) for _, pattern in COMMON + (MACOS if job_name == "macos" else IOS)
            ) or str(step.get("uses", "")).startswith("actions/checkout@")
            found = problems_in(mutated, package_text, apple_test_text, live_test_text)
            if required and not found:
                failures.append(f"removing {job_name} step {index} ({step.get('name', step.get('uses'))}) went unnoticed")
        for xcode in ("newest", "16.3"):
            mutated = copy.deepcopy(workflow)
            mutated["jobs"][job_name]["strategy"]["matrix"]["xcode"].remove(xcode)
            if not problems_in(mutated, package_text, apple_test_text, live_test_text):
                failures.append(f"dropping Xcode {xcode} from {job_name} went unnoticed")
    mutated = copy.deepcopy(workflow)
    for step in mutated["jobs"]["macos"]["steps"]:
        if "Benchmarks" in str(step.get("run", "")):
            step["run"] = step["run"].replace("--scratch-path .build-bench", "--scratch-path .build")
    if not problems_in(mutated, package_text, apple_test_text, live_test_text):
        failures.append("the benchmark package sharing .build went unnoticed")
    if not problems_in(workflow, package_text.replace('name: "ThreeDS2UITests"', 'name: "Other"'), apple_test_text,
                       live_test_text):
        failures.append("a Package.swift without ThreeDS2UITests went unnoticed")
    if not problems_in(workflow, package_text, apple_test_text.replace('arguments: ["get", "post"]', ""),
                       live_test_text):
        failures.append("Apple tests without the GET and POST forms went unnoticed")
    if not problems_in(workflow, package_text, apple_test_text, live_test_text.replace("#if os(Linux)", "")):
        failures.append("unguarded Linux-only live tests went unnoticed")
    real = problems_in(workflow, package_text, apple_test_text, live_test_text)
    if real:
        failures.append(f"the real inputs fail: {real}")
    return failures


def main():
    inputs = read_inputs()
    if sys.argv[1:] == ["--self-test"]:
        failures = self_test(*inputs)
        for failure in failures:
            print("check-apple-workflow self-test:", failure, file=sys.stderr)
        if failures:
            sys.exit(1)
        print("check-apple-workflow self-test: every removed step is reported")
        return
    problems = problems_in(*inputs)
    for problem in problems:
        print("apple.yml:", problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("apple.yml: every job keeps its steps")


if __name__ == "__main__":
    main()
