#!/usr/bin/env bash
# Type-checks the SDK's SwiftUI module (every file of Sources/ThreeDS2UI: the views, the previews, the view model,
# the presenter, the web view, the hosting controller and the app opener) on Linux against stand-ins of the Apple
# declarations it uses (AppleStandIns/, a package of its own, built in the Swift 5 mode with `@preconcurrency` as
# Apple's modules are), with and without DEBUG, any warning an error, in two passes:
# - iOS: the UIKit stand-ins; each file's `#if os(iOS)` read as `#if canImport(UIKit)` (Linux is not iOS), so the
#   entry box's iOS-only modifiers are checked too;
# - macOS: the AppKit stand-ins (`THREEDS_STANDINS=appkit`, no UIKit module at all), so every `#if canImport(UIKit)
#   … #else` takes its macOS branch (the web view's NSViewRepresentable, the opener's NSWorkspace).
# An error in our own code (types, optionals, actor isolation, a missing `await`, an unused public import) fails here
# instead of waiting for the Apple workflow. What this cannot prove: that the stand-ins match Apple's SDKs (each
# declaration says where it was read, or that it is unverified), platform availability (`@available(iOS …)` and
# `iOSApplicationExtension` mean nothing on Linux: the extension-only rule is checked by a search below), and the
# Darwin probe (LiveSystemProbe+Darwin.swift, on the Darwin C library); `.github/workflows/apple.yml` compiles and
# runs all of it. The Apple-only test targets are type-checked too (see below).
set -euo pipefail
cd "$(dirname "$0")/.."

# The SDK module and the modules it builds on (ThreeDS2Messages, ThreeDS2JOSE), as scripts/test.sh left them.
swift build --target ThreeDS2SDK >/dev/null
sdk_modules="$(swift build --show-bin-path)/Modules"
standins=(--package-path AppleStandIns --scratch-path .build-standins)
swift build "${standins[@]}" >/dev/null 2>&1
standin_modules="$(swift build "${standins[@]}" --show-bin-path)/Modules"
appkit=(--package-path AppleStandIns --scratch-path .build-standins-appkit)
THREEDS_STANDINS=appkit swift build "${appkit[@]}" >/dev/null 2>&1
appkit_modules="$(THREEDS_STANDINS=appkit swift build "${appkit[@]}" --show-bin-path)/Modules"
if [ -e "$appkit_modules/UIKit.swiftmodule" ]; then
    echo "the AppKit stand-ins hold a UIKit module: the macOS pass would not take the macOS branches" >&2
    exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Each source as the passes read it: `#if os(iOS)` made `#if canImport(UIKit)`, true in the iOS pass only.
mkdir -p "$scratch/sources"
files=()
for file in Sources/ThreeDS2UI/*.swift; do
    sed 's/^\([[:space:]]*\)#if os(iOS)$/\1#if canImport(UIKit)/' "$file" >"$scratch/sources/$(basename "$file")"
    files+=("$scratch/sources/$(basename "$file")")
done
if cmp -s "$scratch/sources/ChallengeView.swift" Sources/ThreeDS2UI/ChallengeView.swift; then
    echo "ChallengeView.swift has no #if os(iOS) left to read: update the script" >&2
    exit 1
fi
# The root manifest's settings for ThreeDS2UI: Swift 6, the same upcoming features; any warning fails.
# typecheck STANDIN_MODULES ARGS…
typecheck() {
    local modules=$1
    shift
    swiftc -typecheck -swift-version 6 -module-name ThreeDS2UI -parse-as-library -warnings-as-errors \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature MemberImportVisibility \
        -I "$sdk_modules" -I "$modules" "$@"
}
for modules in "$standin_modules" "$appkit_modules"; do
    typecheck "$modules" "${files[@]}"
    typecheck "$modules" -D DEBUG "${files[@]}"
done
# The files are really compiled (not left out by an `#if`): a copy with a wrong argument must fail, in the branch
# each pass takes. source_must_fail MODULES FILE SED
source_must_fail() {
    local modules=$1 file=$2 edit=$3
    mkdir -p "$scratch/broken-sources"
    local broken="$scratch/broken-sources/$file" inputs=()
    sed "$edit" "$scratch/sources/$file" >"$broken"
    if cmp -s "$broken" "$scratch/sources/$file"; then
        echo "the broken copy of $file is unchanged: update the script's sed" >&2
        exit 1
    fi
    for other in "${files[@]}"; do
        if [ "$(basename "$other")" != "$file" ]; then inputs+=("$other"); fi
    done
    if typecheck "$modules" "${inputs[@]}" "$broken" 2>/dev/null; then
        echo "a broken copy of $file type-checked against $modules: the check does not reach that branch" >&2
        exit 1
    fi
}
source_must_fail "$standin_modules" ChallengeWebView.swift 's/baseURL: nil)/baseURL: "not a URL")/'
source_must_fail "$standin_modules" ChallengeView.swift 's/\.keyboardType(\(.*\) ? \.numberPad : \.default)/.keyboardType(\1 ? 4 : 0)/'
source_must_fail "$appkit_modules" ChallengeWebView.swift 's/func makeNSView(context: Context) -> WKWebView/func makeNSView(context: Context) -> Int/'
source_must_fail "$appkit_modules" SystemOOBAppOpener.swift 's/NSWorkspace.shared.open(url)/NSWorkspace.shared.open("url")/'
# App extensions link the SDK: `UIApplication.shared` is unavailable there (`NS_EXTENSION_UNAVAILABLE_IOS`), which
# Linux cannot enforce. It may appear only in ThreeDS2UI's SystemOOBAppOpener, itself marked unavailable in app
# extensions, and never in the core (whose probe reaches the application without naming it).
if grep -rn 'UIApplication\.shared' Sources --include=*.swift | grep -v '^[^:]*:[0-9]*:[[:space:]]*//' |
    grep -v '^Sources/ThreeDS2UI/SystemOOBAppOpener.swift:'; then
    echo "UIApplication.shared outside SystemOOBAppOpener: an app extension could not build the SDK" >&2
    exit 1
fi
if ! grep -q '@available(iOSApplicationExtension, unavailable)' Sources/ThreeDS2UI/SystemOOBAppOpener.swift; then
    echo "SystemOOBAppOpener uses UIApplication.shared without @available(iOSApplicationExtension, unavailable)" >&2
    exit 1
fi

# The Apple-only test targets (Tests/ThreeDS2UITests, Tests/ThreeDS2UISnippetTests), type-checked the same way against
# the SDK modules, a ThreeDS2UI module emitted here from the same files (with DEBUG and -enable-testing, as the
# workflow's test build has them: the tests read the DEBUG-only previews through `@testable import`), the stand-ins
# and the Linux toolchain's Swift Testing (`import Testing`; its macros expanded). Their files are wrapped in
# `#if os(iOS)` (ThreeDS2UITests) or `#if canImport(SwiftUI)` / `#if canImport(UIKit)` (the snippets): the
# stand-ins make the `canImport`s true as they are, and a copy of each ThreeDS2UITests file with its outer
# `#if os(iOS)` line rewritten to `#if canImport(UIKit)` lets the type-check see the iOS bodies (Linux is not iOS).
# What this proves: the tests' calls into the SDK and ThreeDS2UI match the current API (names, labels, types,
# optionals, `async`/`throws`, actor isolation, with Swift 6 and the manifest's upcoming features, no warning) and
# use the Apple declarations as the stand-ins spell them. What it does not: that the stand-ins match Apple's SDKs;
# `@objc` (dropped in the snippets' copy: no Objective-C on Linux); the LiveSystemProbe members as the Darwin build
# declares them (here the Linux build's, with the same public names); URLSessionTransportAppleTests.swift, left out
# (it needs the Security framework and the SDK's server-trust delegate method, compiled only
# `#if canImport(Security)`, neither of which Linux has); and that any test passes. `.github/workflows/apple.yml`
# compiles and runs all of it.
ui_module="$scratch/modules"
mkdir -p "$ui_module"
swiftc -emit-module -emit-module-path "$ui_module/ThreeDS2UI.swiftmodule" -enable-testing -D DEBUG \
    -swift-version 6 -module-name ThreeDS2UI -parse-as-library \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility \
    -I "$sdk_modules" -I "$standin_modules" "${files[@]}"
# Each test target's files as the type-check reads them: the outer `#if os(iOS)` made `#if canImport(UIKit)`.
ios_copy() {
    mkdir -p "$scratch/$2"
    sed 's/^#if os(iOS)$/#if canImport(UIKit)/' "$1" >"$scratch/$2/$(basename "$1")"
    echo "$scratch/$2/$(basename "$1")"
}
typecheck_tests() {
    local module=$1
    shift
    swiftc -typecheck -swift-version 6 -module-name "$module" -parse-as-library -warnings-as-errors -D DEBUG \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature MemberImportVisibility \
        -I "$ui_module" -I "$sdk_modules" -I "$standin_modules" "$@"
}
ui_tests=()
for file in Tests/ThreeDS2UITests/*.swift; do
    if [ "$(basename "$file")" != URLSessionTransportAppleTests.swift ]; then ui_tests+=("$(ios_copy "$file" ui)"); fi
done
# The snippets as they are, but for `@objc` (a target-action method of the UIKit snippet): Linux's Swift has no
# Objective-C interoperability, so the copy drops the attribute (what `@objc` requires is not checked here).
snippet_tests=()
for file in Tests/ThreeDS2UISnippetTests/*.swift; do
    mkdir -p "$scratch/snippets"
    sed 's/@objc func /func /' "$file" >"$scratch/snippets/$(basename "$file")"
    snippet_tests+=("$scratch/snippets/$(basename "$file")")
done
typecheck_tests ThreeDS2UITests "${ui_tests[@]}"
typecheck_tests ThreeDS2UISnippetTests "${snippet_tests[@]}"
# The test files are really compiled too (not left out by an `#if`): a copy with a wrong argument must fail, one in
# ChallengeViewAppleTests.swift and one in each `#if canImport(…)` part of the snippets (SwiftUI, then UIKit).
# must_fail MODULE FILE SED FILES…: FILES type-check with FILE replaced by a copy edited by SED must fail.
must_fail() {
    local module=$1 file=$2 edit=$3
    shift 3
    mkdir -p "$scratch/broken"
    local broken
    broken="$scratch/broken/$(basename "$file")"
    sed "$edit" "$file" >"$broken"
    if cmp -s "$broken" "$file"; then
        echo "the broken copy of $(basename "$file") is unchanged: update the script's sed" >&2
        exit 1
    fi
    local inputs=("$broken")
    for other in "$@"; do
        if [ "$other" != "$file" ]; then inputs+=("$other"); fi
    done
    if typecheck_tests "$module" "${inputs[@]}" 2>/dev/null; then
        echo "a broken copy of $(basename "$file") type-checked: the check does not reach the test files" >&2
        exit 1
    fi
}
must_fail ThreeDS2UITests "$scratch/ui/ChallengeViewAppleTests.swift" \
    's/presentation: PresentationSettings())/presentation: "not a presentation")/' "${ui_tests[@]}"
must_fail ThreeDS2UISnippetTests "$scratch/snippets/AppleSnippets.swift" \
    's/\.interactiveDismissDisabled()/.interactiveDismissDisabled("yes")/' "${snippet_tests[@]}"
must_fail ThreeDS2UISnippetTests "$scratch/snippets/AppleSnippets.swift" \
    's/present(controller, animated: true)/present(controller, animated: "yes")/' "${snippet_tests[@]}"
must_fail ThreeDS2UISnippetTests "$scratch/snippets/AppleSnippets.swift" \
    's/progress: challengePresenter$/progress: "not an indicator"/' "${snippet_tests[@]}"
echo "Sources/ThreeDS2UI type-checks against the UIKit and the AppKit stand-ins (${#files[@]} files, with and without DEBUG)"
echo "Tests/ThreeDS2UITests (${#ui_tests[@]} of its 4 files) and Tests/ThreeDS2UISnippetTests type-check against it"
