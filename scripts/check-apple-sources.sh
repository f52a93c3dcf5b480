#!/usr/bin/env bash
# Type-checks the SDK's Apple-only sources on Linux against stand-ins (AppleStandIns/, a package of its own): the
# SwiftUI module's view model, presenter, web view and app opener. An error in our own code there (types, optionals,
# actor isolation, a missing `await`) fails here instead of waiting for the Apple workflow. What this cannot prove:
# that the stand-ins match Apple's SDKs (each declaration says where it was read, or that it is unverified), and
# anything about ChallengeView, ChallengeHostingController, the previews and the Darwin probe, which use too much of
# SwiftUI, UIKit and the Darwin C library to stand in for; `.github/workflows/apple.yml` compiles and runs those.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target ThreeDS2SDK --target ThreeDS2Messages --target ThreeDS2JOSE >/dev/null
sdk_modules="$(swift build --show-bin-path)/Modules"
standins=(--package-path AppleStandIns --scratch-path .build-standins)
swift build "${standins[@]}" >/dev/null
standin_modules="$(swift build "${standins[@]}" --show-bin-path)/Modules"

files=(
    Sources/ThreeDS2UI/ChallengeViewModel.swift
    Sources/ThreeDS2UI/SwiftUIChallengePresenter.swift
    Sources/ThreeDS2UI/ChallengeWebView.swift
    Sources/ThreeDS2UI/SystemOOBAppOpener.swift
)
# The root manifest's settings for ThreeDS2UI: Swift 6, the same upcoming features; any warning fails.
typecheck() {
    swiftc -typecheck -swift-version 6 -module-name ThreeDS2UI -parse-as-library -warnings-as-errors \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature MemberImportVisibility \
        -I "$sdk_modules" -I "$standin_modules" "$@"
}
typecheck "${files[@]}"
# The files are really compiled (not left out by an `#if canImport`): a copy with a wrong argument must fail.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed 's/baseURL: nil)/baseURL: "not a URL")/' Sources/ThreeDS2UI/ChallengeWebView.swift >"$scratch/ChallengeWebView.swift"
if typecheck "${files[0]}" "$scratch/ChallengeWebView.swift" 2>/dev/null; then
    echo "a broken copy of ChallengeWebView.swift type-checked: the stand-ins do not reach the real files" >&2
    exit 1
fi
echo "Apple-only sources type-check against the stand-ins: ${files[*]}"
