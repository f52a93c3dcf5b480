#!/usr/bin/env python3
"""Proves what an app that links the SDK core pulls in.

Walks the tools package's target graph (`swift package dump-package` in Tools/) from the example app, adds every
package those targets' products come from and those packages' own dependencies (`swift package show-dependencies`),
prints the result, and fails when a forbidden package or module appears: SwiftNIO, NIOSSL, AsyncHTTPClient,
Hummingbird or libxml2. With --binary, it also checks that the example executable links no libxml2 and carries no NIO
or AsyncHTTPClient symbols. (What a consumer of the SDK package resolves is scripts/check-consumer-graph.py's.)
"""
import json
import subprocess
import sys

ROOTS = ["MinimalCheckout", "minimal-checkout"]
TOOLS = str(__import__("pathlib").Path(__file__).resolve().parent.parent / "Tools")
FORBIDDEN_PACKAGES = {"swift-nio", "swift-nio-ssl", "swift-nio-http2", "swift-nio-extras", "async-http-client",
                      "hummingbird", "swift-nio-transport-services"}
FORBIDDEN_MODULES = {"CLibXML2", "ThreeDS2ACSKit", "ThreeDS2HTML", "ThreeDS2NIOTransport", "ThreeDS2TestLab", "ThreeDS2TerminalUI"}
FORBIDDEN_SYMBOLS = ["NIOCore", "NIOPosix", "NIOSSL", "AsyncHTTPClient", "Hummingbird"]


def swift_json(*arguments):
    output = subprocess.run(["swift", "package", "--package-path", TOOLS, *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    manifest = swift_json("dump-package")
    targets = {target["name"]: target for target in manifest["targets"]}
    graph = swift_json("show-dependencies", "--format", "json")

    package_deps = {}

    def index(node):
        package_deps[node["identity"]] = [child["identity"] for child in node["dependencies"]]
        for child in node["dependencies"]:
            index(child)

    for node in graph["dependencies"]:
        index(node)

    failures = []
    for root in ROOTS:
        modules, packages, pending = set(), set(), [root]
        while pending:
            name = pending.pop()
            if name in modules:
                continue
            modules.add(name)
            for dependency in targets[name]["dependencies"]:
                kind, value = next(iter(dependency.items()))
                if kind in ("byName", "target"):
                    pending.append(value[0])
                elif kind == "product":
                    packages.add(value[1].lower())
                    modules.add(value[0])
        closure, pending = set(), list(packages)
        while pending:
            package = pending.pop()
            if package in closure:
                continue
            closure.add(package)
            pending.extend(package_deps.get(package, []))
        print(f"{root}: modules {sorted(modules)}")
        print(f"{root}: packages {sorted(closure)}")
        for bad in sorted(closure & FORBIDDEN_PACKAGES):
            failures.append(f"{root} depends on package {bad}")
        for bad in sorted(modules & FORBIDDEN_MODULES):
            failures.append(f"{root} depends on module {bad}")

    if "--binary" in sys.argv:
        binary = sys.argv[sys.argv.index("--binary") + 1]
        linked = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
        if "libxml2" in linked:
            failures.append(f"{binary} links libxml2")
        symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
        for module in FORBIDDEN_SYMBOLS:
            # Swift mangles a module name as its length then the name.
            if f"{len(module)}{module}" in symbols:
                failures.append(f"{binary} carries {module} symbols")
        print(f"{binary}: no libxml2, no {', '.join(FORBIDDEN_SYMBOLS)} symbols" if not failures else "")

    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print("core dependency check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
