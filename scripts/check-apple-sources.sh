#!/usr/bin/env bash
# Type-checks the SDK's SwiftUI module (every file of Sources/ThreeDS2UI: the views, the previews, the view model,
# the presenter, the web view, the hosting controller and the app opener) on Linux against stand-ins of the Apple
# declarations it uses (AppleStandIns/, a package of its own), with and without DEBUG, any warning an error. An
# error in our own code (types, optionals, actor isolation, a missing `await`, an unused public import) fails here
# instead of waiting for the Apple workflow. What this cannot prove: that the stand-ins match Apple's SDKs (each
# declaration says where it was read, or that it is unverified), the `#if os(iOS)` modifiers of the entry box (Linux
# is not iOS), and the Darwin probe (LiveSystemProbe+Darwin.swift, on the Darwin C library); `.github/workflows/
# apple.yml` compiles and runs all of it.
set -euo pipefail
cd "$(dirname "$0")/.."

# The SDK module and the modules it builds on (ThreeDS2Messages, ThreeDS2JOSE), as scripts/test.sh left them.
swift build --target ThreeDS2SDK >/dev/null
sdk_modules="$(swift build --show-bin-path)/Modules"
standins=(--package-path AppleStandIns --scratch-path .build-standins)
swift build "${standins[@]}" >/dev/null
standin_modules="$(swift build "${standins[@]}" --show-bin-path)/Modules"

files=(Sources/ThreeDS2UI/*.swift)
# The root manifest's settings for ThreeDS2UI: Swift 6, the same upcoming features; any warning fails.
typecheck() {
    swiftc -typecheck -swift-version 6 -module-name ThreeDS2UI -parse-as-library -warnings-as-errors \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature MemberImportVisibility \
        -I "$sdk_modules" -I "$standin_modules" "$@"
}
typecheck "${files[@]}"
typecheck -D DEBUG "${files[@]}"
# The files are really compiled (not left out by an `#if canImport`): a copy with a wrong argument must fail.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed 's/baseURL: nil)/baseURL: "not a URL")/' Sources/ThreeDS2UI/ChallengeWebView.swift >"$scratch/ChallengeWebView.swift"
others=()
for file in "${files[@]}"; do
    if [ "$(basename "$file")" != ChallengeWebView.swift ]; then others+=("$file"); fi
done
if typecheck "${others[@]}" "$scratch/ChallengeWebView.swift" 2>/dev/null; then
    echo "a broken copy of ChallengeWebView.swift type-checked: the stand-ins do not reach the real files" >&2
    exit 1
fi
echo "Sources/ThreeDS2UI type-checks against the stand-ins (${#files[@]} files, with and without DEBUG)"
