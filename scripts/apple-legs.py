#!/usr/bin/env python3
"""Prints the runner label and the matrix of .github/workflows/apple.yml for $GITHUB_OUTPUT, from the `workflow`
section of scripts/apple-runner-images.json (the one place they are set): `runner=macos-15` and
`legs={"include": [...]}`. Run by the workflow's plan job; scripts/check-apple-workflow.py reads the same file."""

import json
import pathlib

TABLE = pathlib.Path(__file__).resolve().parent / "apple-runner-images.json"


def main():
    workflow = json.loads(TABLE.read_text())["workflow"]
    legs = [{"xcode": leg["xcode"], "install_ios_runtime": leg.get("install_ios_runtime", "")}
            for leg in workflow["legs"]]
    print(f"runner={workflow['runner']}")
    print("legs=" + json.dumps({"include": legs}, separators=(",", ":")))


if __name__ == "__main__":
    main()
