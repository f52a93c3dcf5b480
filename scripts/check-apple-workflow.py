#!/usr/bin/env python3
"""Fails when .github/workflows/apple.yml loses a step issue 33 requires, so a change to the Apple workflow cannot wait
for the first macOS run to show what it dropped. Reads the workflow with PyYAML (a CI tool, not a dependency of any
Swift package).

Every job must check out with actions/checkout, pin its Xcode through scripts/select-xcode.sh, and run each leg of
scripts/apple-runner-images.json (the runner label and the Xcodes, set there once and read by the workflow's plan
job): a pinned Xcode and the newest one on the image. Each leg is checked against that file's table of what the image
carries (read from GitHub's runner-images README, dated there): the Xcode must be on the image, the iOS job's leg
must find its SDK's Simulator runtime on the image or install it before the first build, one leg must run the iOS 16
floor (installed before the first build), and a leg on Swift older than 6.2 must not compile exit tests
(`#expect(processExitsWith:)`, Swift 6.2) outside `#if compiler(>=6.2)`. The macOS job builds the SDK's targets and the SwiftUI module, the tools
package, the benchmark package in a build folder of its own, lints the privacy manifest and runs the SDK's tests.
The iOS job builds for the Simulator and for a device, and runs the Apple test target with `xcodebuild test` on the
oldest and on the newest Simulator. The Apple test target is declared for Darwin only and covers what the workflow
promises; the tests that read the live system carry Darwin expectations.

`--self-test` removes each required step in turn from a copy and checks that the check then fails, and so for each
leg rule (among them the workflow as it was before issue 44: Xcode 16.3 on macos-15, whose iOS 18.4 runtime the
image no longer carries)."""

import copy
import json
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github/workflows/apple.yml"
TABLE = ROOT / "scripts/apple-runner-images.json"
PLANNED_MATRIX = "${{ fromJSON(needs.plan.outputs.legs) }}"
PLANNED_RUNNER = "${{ needs.plan.outputs.runner }}"
INSTALL = r"xcodebuild -downloadPlatform iOS -buildVersion"
FLOOR = (16,)
# Every Apple platform SwiftPM can build the package for: ThreeDS2HTML links libxml2 on each.
APPLE_PLATFORMS = {"macOS", "macCatalyst", "iOS", "tvOS", "watchOS", "visionOS"}

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
    ("the leg's iOS runtime installed", r"xcodebuild -downloadPlatform iOS -buildVersion \"\$\{\{ matrix\.install_ios_runtime \}\}\""),
    ("a Simulator build", r"xcodebuild build .*-destination 'generic/platform=iOS Simulator'"),
    ("a device build", r"xcodebuild build .*-destination 'generic/platform=iOS'"),
    ("the SwiftUI module among the schemes built", r"for scheme in [^;]*\bThreeDS2UI\b"),
    ("the Simulators chosen, the installed floor the oldest",
     r"scripts/choose-simulators\.py \"\$\{\{ matrix\.install_ios_runtime \}\}\""),
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


def version(text):
    return tuple(int(part) for part in str(text).split(".") if part.isdigit())


def same_minor(a, b):
    return version(a)[:2] == version(b)[:2]


def legs_and_runner(name, job, table, problems):
    """The job's legs ({xcode, install_ios_runtime}) and runner label: from the table when the job reads the plan job,
    else from a matrix written in the workflow (as before issue 44)."""
    matrix = (job.get("strategy") or {}).get("matrix")
    if matrix == PLANNED_MATRIX:
        if job.get("runs-on") != PLANNED_RUNNER or "plan" not in str(job.get("needs", "")):
            problems.append(f"{name}: reads the plan job's legs but not its runner ({job.get('runs-on')})")
        return table["workflow"]["legs"], table["workflow"]["runner"]
    matrix = matrix if isinstance(matrix, dict) else {}
    legs = [{"xcode": str(x)} for x in matrix.get("xcode", [])] + list(matrix.get("include", []))
    return legs, str(job.get("runs-on"))


def step_index(steps, pattern):
    return next((i for i, step in enumerate(steps) if re.search(pattern, str(step.get("run", "")))), None)


def leg_problems(name, job, table, exit_tests_unguarded):
    """What a job's legs would meet on the image the table describes."""
    problems = []
    legs, runner = legs_and_runner(name, job, table, problems)
    image = table["images"].get(runner)
    if image is None:
        return problems + [f"{name}: runner {runner} is not in scripts/apple-runner-images.json"]
    xcodes = [str(leg.get("xcode")) for leg in legs]
    if "newest" not in xcodes:
        problems.append(f"{name}: not run on the newest Xcode (no \"newest\" leg)")
    if not [x for x in xcodes if x != "newest"]:
        problems.append(f"{name}: no pinned Xcode leg")
    steps = job.get("steps") or []
    install, first_build = step_index(steps, INSTALL), step_index(steps, r"xcodebuild (build|test)\b")
    install_step = steps[install] if install is not None else {}
    installs_first = (install is not None and (first_build is None or install < first_build)
                      and not install_step.get("continue-on-error"))
    floor_run = False
    for leg in legs:
        xcode = str(leg.get("xcode"))
        if xcode == "newest":
            xcode = max(image["xcodes"], key=version, default="")
        facts = image["xcodes"].get(xcode)
        if facts is None:
            problems.append(f"{name}: {runner} has no Xcode {xcode} (it has {', '.join(image['xcodes'])})")
            continue
        if name == "macos" and version(facts["swift"]) < (6, 2) and exit_tests_unguarded:
            problems.append(f"{name}: Xcode {xcode} is Swift {facts['swift']}, which has no "
                            f"#expect(processExitsWith:), used outside #if compiler(>=6.2): {exit_tests_unguarded}")
        if name != "ios":
            continue
        runtimes = list(image["ios_simulator_runtimes"])
        installed = str(leg.get("install_ios_runtime") or "")
        if installed and installs_first:
            runtimes.append(installed)
        if not any(same_minor(r, facts["ios_sdk"]) for r in runtimes):
            problems.append(f"{name}: Xcode {xcode}'s iOS SDK {facts['ios_sdk']} needs the iOS {facts['ios_sdk']} "
                            f"Simulator runtime, which {runner} lacks (it has {', '.join(image['ios_simulator_runtimes'])}"
                            f"; {image['source'].split(';')[0]}, read {image['read']}) and no step installs it "
                            "before the first build")
        if any(version(r)[:1] == FLOOR for r in runtimes if version(r) <= version(facts["ios_sdk"])):
            floor_run = True
    if name == "ios" and not floor_run:
        problems.append("ios: no leg runs the iOS 16 floor (no iOS 16 runtime on the image, none installed before "
                        "the first build without continue-on-error)")
    return problems


def unguarded_exit_tests(swift_tests):
    """`file:line` of each `processExitsWith` not inside an `#if compiler(>=6.2)` (or later)."""
    found = []
    for path, text in swift_tests.items():
        stack = []
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("#if"):
                stack.append(stripped)
            elif stripped.startswith("#endif") and stack:
                stack.pop()
            elif stripped.startswith("#else") and stack:
                stack[-1] = "#else"
            elif "processExitsWith" in stripped and not stripped.startswith("//"):
                guarded = any(re.search(r"compiler\(>=\s*6\.([2-9]|\d\d)", c) for c in stack)
                if not guarded:
                    found.append(f"{path}:{number}")
    return found


def problems_in(workflow, package_text, apple_test_text, live_test_text, table=None, swift_tests=None):
    table = table if table is not None else json.loads(TABLE.read_text())
    exit_tests_unguarded = unguarded_exit_tests(swift_tests or {})
    problems = []
    jobs = workflow.get("jobs") or {}
    plan_runs = [str(step.get("run", "")) for step in (jobs.get("plan") or {}).get("steps") or []]
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
        if (job.get("strategy") or {}).get("matrix") == PLANNED_MATRIX and not any(
                "scripts/apple-legs.py" in run for run in plan_runs):
            problems.append(f"{name}: reads the plan job, which does not run scripts/apple-legs.py")
        problems += leg_problems(name, job, table, exit_tests_unguarded)
    darwin_block = package_text.split("#if canImport(Darwin)", 1)[-1] if "#if canImport(Darwin)" in package_text else ""
    if 'name: "ThreeDS2UITests"' not in darwin_block:
        problems.append("Package.swift: ThreeDS2UITests is not declared in the #if canImport(Darwin) block")
    xml2 = re.search(r'linkedLibrary\("xml2", \.when\(platforms: \[([^\]]*)\]', package_text)
    missing = sorted(APPLE_PLATFORMS - set(re.findall(r"\.(\w+)", xml2.group(1) if xml2 else "")))
    if missing:
        problems.append(f"Package.swift: libxml2 is not linked on {', '.join(missing)}")
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
    table = json.loads(TABLE.read_text())
    swift_tests = {str(p.relative_to(ROOT)): p.read_text() for p in sorted((ROOT / "Tests").rglob("*.swift"))}
    return workflow, package_text, apple_test_text, live_test_text, table, swift_tests


def leg_self_test(workflow, inputs):
    """Each leg rule, broken alone in a copy, must be reported."""
    failures = []
    table, swift_tests = inputs[4], inputs[5]

    def reported(description, workflow=workflow, table=table, swift_tests=swift_tests):
        if not problems_in(workflow, *inputs[1:4], table, swift_tests):
            failures.append(f"{description} went unnoticed")

    for change, description in (
        (lambda legs: legs.pop(), "dropping the newest leg"),
        (lambda legs: legs.pop(0), "dropping the pinned leg"),
        (lambda legs: legs[0].update(xcode="16.3"), "a leg on Xcode 16.3 (SDK 18.4, whose runtime macos-15 lacks)"),
        (lambda legs: legs[0].update(xcode="15.4"), "a leg on an Xcode the image does not have"),
        (lambda legs: legs[0].pop("install_ios_runtime"), "no leg installing the iOS 16 floor"),
    ):
        mutated = copy.deepcopy(table)
        change(mutated["workflow"]["legs"])
        reported(description, table=mutated)
    # The workflow as it was before issue 44: Xcode 16.3 and the newest, written in each job, on macos-15.
    before = copy.deepcopy(workflow)
    for job in ("macos", "ios"):
        before["jobs"][job]["runs-on"] = "macos-15"
        before["jobs"][job]["strategy"]["matrix"] = {"xcode": ["16.3", "newest"]}
    problems = problems_in(before, *inputs[1:])
    if not any("Xcode 16.3's iOS SDK 18.4" in problem for problem in problems):
        failures.append(f"the pre-issue-44 workflow's Xcode 16.3 iOS leg went unnoticed: {problems}")
    steps = workflow["jobs"]["ios"]["steps"]
    install = step_index(steps, INSTALL)
    late = copy.deepcopy(workflow)
    late_steps = late["jobs"]["ios"]["steps"]
    late_steps.append(late_steps.pop(install))
    reported("installing the floor after the builds", workflow=late)
    optional = copy.deepcopy(workflow)
    optional["jobs"]["ios"]["steps"][install]["continue-on-error"] = True
    reported("a floor install allowed to fail", workflow=optional)
    unguarded = {path: text.replace("compiler(>=6.2)", "true") for path, text in swift_tests.items()}
    reported("exit tests outside #if compiler(>=6.2) on a Swift 6.1 leg", swift_tests=unguarded)
    runner = copy.deepcopy(table)
    runner["workflow"]["runner"] = "macos-13"
    reported("a runner the table does not describe", table=runner)
    return failures


def self_test(workflow, package_text, apple_test_text, live_test_text, table, swift_tests):
    """Every required step, removed alone, must be reported; the real inputs must pass."""
    inputs = (workflow, package_text, apple_test_text, live_test_text, table, swift_tests)
    rest = inputs[1:]
    failures = []
    for job_name in ("macos", "ios"):
        for index, step in enumerate(workflow["jobs"][job_name]["steps"]):
            mutated = copy.deepcopy(workflow)
            del mutated["jobs"][job_name]["steps"][index]
            required = any(
                re.search(pattern, str(step.get("run", ""))) for _, pattern in COMMON + (MACOS if job_name == "macos" else IOS)
            ) or str(step.get("uses", "")).startswith("actions/checkout@")
            found = problems_in(mutated, *rest)
            if required and not found:
                failures.append(f"removing {job_name} step {index} ({step.get('name', step.get('uses'))}) went unnoticed")
    failures += leg_self_test(workflow, inputs)
    mutated = copy.deepcopy(workflow)
    for step in mutated["jobs"]["macos"]["steps"]:
        if "Benchmarks" in str(step.get("run", "")):
            step["run"] = step["run"].replace("--scratch-path .build-bench", "--scratch-path .build")
    if not problems_in(mutated, *rest):
        failures.append("the benchmark package sharing .build went unnoticed")
    if not problems_in(workflow, package_text.replace('name: "ThreeDS2UITests"', 'name: "Other"'), *rest[1:]):
        failures.append("a Package.swift without ThreeDS2UITests went unnoticed")
    if not problems_in(workflow, package_text.replace(".macCatalyst, ", ""), *rest[1:]):
        failures.append("libxml2 not linked on Mac Catalyst went unnoticed")
    if not problems_in(workflow, package_text, apple_test_text.replace('arguments: ["get", "post"]', ""), *rest[2:]):
        failures.append("Apple tests without the GET and POST forms went unnoticed")
    if not problems_in(workflow, package_text, apple_test_text, live_test_text.replace("#if os(Linux)", ""), *rest[3:]):
        failures.append("unguarded Linux-only live tests went unnoticed")
    real = problems_in(*inputs)
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
