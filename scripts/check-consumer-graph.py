#!/usr/bin/env python3
"""Proves what an app that adds this package resolves.

Writes a throwaway consumer package in a temporary folder — one target that links `ThreeDS2SDK` and one test
target that links `ThreeDS2SDKTesting`, the way an app and its tests would — resolves it, and fails unless the
packages it resolved are exactly the SDK's four dependencies (swift-crypto, swift-asn1, swift-certificates,
swift-log) besides the SDK itself. Test-only dependencies of the SDK's own tests (swift-clocks) must not appear:
SwiftPM prunes them for consumers.

It then writes a second consumer from the README's own `Package.swift` snippet (its `dependencies` and `targets`
as printed, the repository reached as `../threeds2-swift`), importing every product it names, checks that it too
resolves exactly the four, and builds it: the manifest an app copies must build here, on Linux, as in Xcode
(`ThreeDS2UI` is declared on every platform and compiles to an empty module without SwiftUI).

With that build it proves what the app's `import ThreeDS2SDK` shows: a file of the app that names each public
declaration of `ThreeDS2ACSKit` (its types, and the members it adds to the messages' types) with `import ThreeDS2SDK`
only must fail to compile on every one of those lines ("cannot find … in scope", "has no member …"). The ACS side is
never part of an app's vocabulary.

Usage: python3 scripts/check-consumer-graph.py [--keep] [--no-build]
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

EXPECTED = {"swift-crypto", "swift-asn1", "swift-certificates", "swift-log"}
ROOT = pathlib.Path(__file__).resolve().parent.parent

MANIFEST = """// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "ThreeDS2", path: "{root}")],
    targets: [
        .target(name: "Checkout", dependencies: [.product(name: "ThreeDS2SDK", package: "ThreeDS2")]),
        .testTarget(
            name: "CheckoutTests",
            dependencies: ["Checkout", .product(name: "ThreeDS2SDKTesting", package: "ThreeDS2")]),
    ]
)
"""


README_MANIFEST = """// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ReadmeApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
{body}
)
"""


def readme_manifest():
    """The README's Package.swift snippet: its `dependencies:` and `targets:` members, as printed."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```swift\n// Package.swift\n(.*?)```", readme, re.S)
    if not block:
        raise SystemExit("error: README.md has no ```swift block starting with // Package.swift")
    return block.group(1).rstrip().rstrip(",")


def check_readme_manifest(folder, build):
    """Writes the README's manifest as a consumer beside a `threeds2-swift` link to this repository; resolves it
    (exactly the four packages) and, unless `build` is false, builds it."""
    link = folder / "threeds2-swift"
    link.symlink_to(ROOT)
    app = folder / "app"
    body = readme_manifest()
    (app / "Sources/Checkout").mkdir(parents=True)
    (app / "Package.swift").write_text(README_MANIFEST.format(body=body))
    products = re.findall(r'\.product\(name: "(\w+)"', body)
    (app / "Sources/Checkout/Checkout.swift").write_text("".join(f"import {p}\n" for p in products))
    try:
        resolved = resolve(app)
    except ManifestError as error:
        return [f"the README's manifest does not load: {error}"]
    print("the README's manifest resolves:", sorted(resolved), "and links", products)
    failures = [] if resolved == EXPECTED else [f"the README's manifest resolves {sorted(resolved)}"]
    if build:
        print("building the README's manifest as a consumer (swift build)")
        if subprocess.run(["swift", "build", "--package-path", str(app)]).returncode != 0:
            failures.append("the README's manifest does not build here")
        else:
            failures += check_app_vocabulary(app)
    return failures


def acs_kit_names():
    """The public declarations of ThreeDS2ACSKit an app must not see: each top-level type (`ACSChannel`), and each
    static member the kit adds to a type of the messages (`Bridging.responseExtension`)."""
    names = []
    for source in sorted((ROOT / "Sources/ThreeDS2ACSKit").glob("*.swift")):
        extended = None
        for line in source.read_text().splitlines():
            top = re.match(r"public (?:struct|enum|final class|class|actor|protocol|typealias) (\w+)", line)
            if top:
                names.append(top.group(1))
                extended = None
                continue
            extension = re.match(r"extension (\w+)\b", line)
            if extension:
                extended = extension.group(1)
                continue
            if line.startswith("}"):
                extended = None
            member = re.match(r"    public static func (\w+)", line)
            if extended and member:
                names.append(f"{extended}.{member.group(1)}")
    return sorted(set(names))


def check_app_vocabulary(app):
    """Builds a file of the app that names every declaration of `acs_kit_names()` under `import ThreeDS2SDK`; each
    line must fail to compile because the name is not there."""
    names = acs_kit_names()
    if not names:
        return ["found no public declaration in Sources/ThreeDS2ACSKit to probe"]
    probe = app / "Sources/Checkout/ACSKitProbe.swift"
    lines = ["import ThreeDS2SDK", "", "func probeACSKit() {"]
    lines += [f"    _ = {name}.self" if "." not in name else f"    _ = {name}" for name in names]
    lines += ["}", ""]
    probe.write_text("\n".join(lines))
    try:
        built = subprocess.run(["swift", "build", "--package-path", str(app)], capture_output=True, text=True,
                               env=dict(os.environ, NO_COLOR="1"))
    finally:
        probe.unlink()
    output = built.stdout + built.stderr
    failures = []
    if built.returncode == 0:
        return [f"an app that imports ThreeDS2SDK sees the ACS kit: {', '.join(names)} compile"]
    for number, name in enumerate(names, start=4):
        missing = re.search(rf"ACSKitProbe.swift:{number}:\d+: error: (cannot find '\w+' in scope|type '\w+' has no "
                            rf"member '\w+')", output)
        if not missing:
            failures.append(f"an app that imports ThreeDS2SDK sees `{name}` of the ACS kit")
    if failures:
        print(output, file=sys.stderr)
    else:
        print("an app that imports ThreeDS2SDK sees none of the ACS kit's", len(names), "declarations:",
              ", ".join(names))
    return failures


class ManifestError(Exception):
    """A consumer manifest SwiftPM refuses to load."""


def resolve(folder):
    """The package identities a consumer resolves, the SDK's own left out."""
    subprocess.run(["swift", "package", "--package-path", str(folder), "resolve"], check=True)
    shown = subprocess.run(
        ["swift", "package", "--package-path", str(folder), "show-dependencies", "--format", "json"],
        capture_output=True, text=True)
    if shown.returncode != 0:
        # A product the manifest names but the SDK does not declare here ("product 'ThreeDS2UI' … not found").
        raise ManifestError(shown.stderr.strip())
    graph = json.loads(shown.stdout)
    resolved = set()

    def walk(node):
        resolved.add(node["identity"])
        for child in node["dependencies"]:
            walk(child)

    for node in graph["dependencies"]:
        walk(node)
    for own in (ROOT.name.lower(), "threeds2", "threeds2-swift"):
        resolved.discard(own)
    return resolved


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="threeds2-consumer-"))
    try:
        (folder / "Package.swift").write_text(MANIFEST.format(root=ROOT))
        (folder / "Sources/Checkout").mkdir(parents=True)
        (folder / "Sources/Checkout/Checkout.swift").write_text("import ThreeDS2SDK\n")
        (folder / "Tests/CheckoutTests").mkdir(parents=True)
        (folder / "Tests/CheckoutTests/CheckoutTests.swift").write_text("import ThreeDS2SDKTesting\n")
        resolved = resolve(folder)
        checkouts = sorted(p.name for p in (folder / ".build/checkouts").iterdir()) \
            if (folder / ".build/checkouts").exists() else []
        print("a consumer of ThreeDS2SDK and ThreeDS2SDKTesting resolves:", sorted(resolved))
        print("and clones:", checkouts)
        failures = []
        if resolved != EXPECTED:
            failures.append(f"expected exactly {sorted(EXPECTED)}; extra {sorted(resolved - EXPECTED)}, "
                            f"missing {sorted(EXPECTED - resolved)}")
        if set(checkouts) - EXPECTED:
            failures.append(f"cloned more than the four: {sorted(set(checkouts) - EXPECTED)}")
        failures += check_readme_manifest(folder, build="--no-build" not in sys.argv)
        for failure in failures:
            print("error:", failure, file=sys.stderr)
        return 1 if failures else 0
    finally:
        if "--keep" in sys.argv:
            print("kept", folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
