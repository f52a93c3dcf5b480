#!/usr/bin/env python3
"""Writes the Xcode scheme `ThreeDS2UITests` for the SDK package (.swiftpm/xcode/xcshareddata/xcschemes, which git
ignores): a test action with only the Apple test target. The scheme Xcode generates for the whole package
(`ThreeDS2-Package`) would build every test target for iOS, and the SDK's Linux-and-macOS test targets are not meant
to build there (they start processes). Run by .github/workflows/apple.yml before `xcodebuild test`."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = "ThreeDS2UITests"


def reference(indent):
    pad = " " * indent
    return (f'{pad}<BuildableReference\n'
            f'{pad}   BuildableIdentifier = "primary"\n'
            f'{pad}   BlueprintIdentifier = "{TARGET}"\n'
            f'{pad}   BuildableName = "{TARGET}"\n'
            f'{pad}   BlueprintName = "{TARGET}"\n'
            f'{pad}   ReferencedContainer = "container:">\n'
            f'{pad}</BuildableReference>\n')


SCHEME = f"""<?xml version="1.0" encoding="UTF-8"?>
<Scheme
   LastUpgradeVersion = "1630"
   version = "1.7">
   <BuildAction
      parallelizeBuildables = "YES"
      buildImplicitDependencies = "YES">
      <BuildActionEntries>
         <BuildActionEntry
            buildForTesting = "YES"
            buildForRunning = "NO"
            buildForProfiling = "NO"
            buildForArchiving = "NO"
            buildForAnalyzing = "NO">
{reference(12)}         </BuildActionEntry>
      </BuildActionEntries>
   </BuildAction>
   <TestAction
      buildConfiguration = "Debug"
      selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
      selectedLauncherIdentifier = "Xcode.DebuggerFoundation.Launcher.LLDB"
      shouldUseLaunchSchemeArgsEnv = "YES">
      <Testables>
         <TestableReference
            skipped = "NO">
{reference(12)}         </TestableReference>
      </Testables>
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
