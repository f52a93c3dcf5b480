#!/usr/bin/env python3
"""Writes the Xcode scheme `ThreeDS2UITests` for the SDK package (.swiftpm/xcode/xcshareddata/xcschemes, which git
ignores): a test action with only the Apple test targets, `ThreeDS2UITests` and `ThreeDS2UISnippetTests` (the
README's and the DocC articles' SwiftUI and UIKit snippets, whose UIKit part compiles only for iOS). The scheme Xcode generates for the whole package
(`ThreeDS2-Package`) would build every test target for iOS, and the SDK's Linux-and-macOS test targets are not meant
to build there (they start processes). Run by .github/workflows/apple.yml before `xcodebuild test`."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = "ThreeDS2UITests"
TARGETS = [TARGET, "ThreeDS2UISnippetTests"]


def reference(indent, target):
    pad = " " * indent
    return (f'{pad}<BuildableReference\n'
            f'{pad}   BuildableIdentifier = "primary"\n'
            f'{pad}   BlueprintIdentifier = "{target}"\n'
            f'{pad}   BuildableName = "{target}"\n'
            f'{pad}   BlueprintName = "{target}"\n'
            f'{pad}   ReferencedContainer = "container:">\n'
            f'{pad}</BuildableReference>\n')


BUILD_ENTRIES = "".join(f"""         <BuildActionEntry
            buildForTesting = "YES"
            buildForRunning = "NO"
            buildForProfiling = "NO"
            buildForArchiving = "NO"
            buildForAnalyzing = "NO">
{reference(12, target)}         </BuildActionEntry>
""" for target in TARGETS)

TESTABLES = "".join(f"""         <TestableReference
            skipped = "NO">
{reference(12, target)}         </TestableReference>
""" for target in TARGETS)


SCHEME = f"""<?xml version="1.0" encoding="UTF-8"?>
<Scheme
   LastUpgradeVersion = "1630"
   version = "1.7">
   <BuildAction
      parallelizeBuildables = "YES"
      buildImplicitDependencies = "YES">
      <BuildActionEntries>
{BUILD_ENTRIES}      </BuildActionEntries>
   </BuildAction>
   <TestAction
      buildConfiguration = "Debug"
      selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
      selectedLauncherIdentifier = "Xcode.DebuggerFoundation.Launcher.LLDB"
      shouldUseLaunchSchemeArgsEnv = "YES">
      <Testables>
{TESTABLES}      </Testables>
   </TestAction>
</Scheme>
"""


def main():
    folder = ROOT / ".swiftpm/xcode/xcshareddata/xcschemes"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{TARGET}.xcscheme"
    path.write_text(SCHEME)
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
