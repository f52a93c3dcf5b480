#!/usr/bin/env python3
"""Chooses the iOS Simulators the Apple tests run on (.github/workflows/apple.yml): an iPhone on the oldest iOS
runtime the image has and one on the newest that the selected Xcode's SDK can run (a runtime newer than the SDK is
left out: this Xcode cannot run it), creating the iPhone when a runtime has none. With an argument (the runtime the
leg installed, such as `16.4`), fails unless the oldest is that version, so the floor is never replaced silently by
something newer. Prints `oldest=`, `oldest_name=`, `newest=` and `newest_name=` lines for $GITHUB_OUTPUT, and
says on stderr which runtimes were found and chosen."""

import json
import subprocess
import sys


def simctl(*arguments):
    return json.loads(subprocess.run(["xcrun", "simctl", "list", "-j", *arguments], check=True,
                                     capture_output=True, text=True).stdout)


def version_key(text):
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def main():
    sdk = subprocess.run(["xcrun", "--sdk", "iphonesimulator", "--show-sdk-version"], check=True,
                         capture_output=True, text=True).stdout.strip()
    runtimes = [r for r in simctl("runtimes", "available")["runtimes"]
                if r.get("platform", r.get("name", "").split(" ")[0]) == "iOS"
                and version_key(r["version"])[:2] <= version_key(sdk)[:2]]
    if not runtimes:
        sys.exit(f"no iOS Simulator runtime this Xcode (SDK {sdk}) can run")
    runtimes.sort(key=lambda r: version_key(r["version"]))
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    if wanted and version_key(runtimes[0]["version"])[:2] != version_key(wanted)[:2]:
        sys.exit(f"the leg installed iOS {wanted}, but the oldest runtime is {runtimes[0]['version']}")
    print("iOS runtimes: " + ", ".join(r["version"] for r in runtimes) + f" (SDK {sdk})", file=sys.stderr)
    devices = simctl("devices", "available")["devices"]
    chosen = {}
    for label, runtime in (("oldest", runtimes[0]), ("newest", runtimes[-1])):
        phones = [d for d in devices.get(runtime["identifier"], []) if d["name"].startswith("iPhone")]
        if phones:
            udid, name = phones[0]["udid"], phones[0]["name"]
        else:
            types = [t["identifier"] for t in runtime.get("supportedDeviceTypes", [])
                     if t.get("productFamily") == "iPhone"]
            if not types:
                sys.exit(f"iOS {runtime['version']} has no iPhone device type")
            name = f"iPhone for iOS {runtime['version']}"
            udid = subprocess.run(["xcrun", "simctl", "create", name, types[-1], runtime["identifier"]],
                                  check=True, capture_output=True, text=True).stdout.strip()
        chosen[label] = (udid, f"{name} (iOS {runtime['version']})")
        print(f"{label}: {chosen[label][1]} {udid}", file=sys.stderr)
        print(f"{label}={udid}")
        print(f"{label}_name={chosen[label][1]}")


if __name__ == "__main__":
    main()
