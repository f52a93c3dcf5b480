#!/usr/bin/env python3
"""Proves what an app that adds this package resolves.

Writes a throwaway consumer package in a temporary folder — one target that links `ThreeDS2SDK` and one test
target that links `ThreeDS2SDKTesting`, the way an app and its tests would — resolves it, and fails unless the
packages it resolved are exactly the SDK's four dependencies (swift-crypto, swift-asn1, swift-certificates,
swift-log) besides the SDK itself. Test-only dependencies of the SDK's own tests (swift-clocks) must not appear:
SwiftPM prunes them for consumers.

Usage: python3 scripts/check-consumer-graph.py [--keep]
"""
import json
import pathlib
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


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="threeds2-consumer-"))
    try:
        (folder / "Package.swift").write_text(MANIFEST.format(root=ROOT))
        (folder / "Sources/Checkout").mkdir(parents=True)
        (folder / "Sources/Checkout/Checkout.swift").write_text("import ThreeDS2SDK\n")
        (folder / "Tests/CheckoutTests").mkdir(parents=True)
        (folder / "Tests/CheckoutTests/CheckoutTests.swift").write_text("import ThreeDS2SDKTesting\n")
        subprocess.run(["swift", "package", "--package-path", str(folder), "resolve"], check=True)
        graph = json.loads(subprocess.run(
            ["swift", "package", "--package-path", str(folder), "show-dependencies", "--format", "json"],
            check=True, capture_output=True, text=True).stdout)
        resolved = set()

        def walk(node):
            resolved.add(node["identity"])
            for child in node["dependencies"]:
                walk(child)

        for node in graph["dependencies"]:
            walk(node)
        resolved.discard(ROOT.name.lower())
        resolved.discard("threeds2")
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
