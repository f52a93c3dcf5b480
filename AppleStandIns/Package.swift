// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Stand-ins for the few Apple declarations the SDK's Apple-only sources use (Combine, SwiftUI, UIKit or AppKit,
/// WebKit), so `scripts/check-apple-sources.sh` can type-check those real files on Linux. A package of its own: the
/// root manifest never sees these modules, so no `#if canImport(…)` of the shipped build changes meaning. Each
/// declaration carries the shape (availability, actor isolation, `@preconcurrency`, `nonisolated`, `@Sendable` and
/// `@isolated(any)` closures) Apple's SDK gives it, with where that was read (or "unverified").
///
/// Apple's SDK modules are built in the Swift 5 language mode with `@preconcurrency` annotations, so these are too.
/// Apple's SwiftUI is built with library evolution: its enums are resilient, so `@unknown default` is expected (the
/// stand-in modules it imports, not built that way, warn about it when the stand-ins build; those warnings are the
/// stand-ins' own, never the type-checked sources').
///
/// Two platform sets: iOS's (UIKit, the default) and macOS's (AppKit, with `THREEDS_STANDINS=appkit`, built in a
/// scratch folder of its own): with AppKit, `canImport(UIKit)` is false in everything built against it, so the
/// `#else` (macOS) branches of the sources are type-checked too.
let appKit = ProcessInfo.processInfo.environment["THREEDS_STANDINS"] == "appkit"
let platformUI = appKit ? "AppKit" : "UIKit"
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]
let resilient: [SwiftSetting] = swift5 + [.unsafeFlags(["-enable-library-evolution"])]

let package = Package(
    name: "AppleStandIns",
    products: [
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: platformUI, targets: [platformUI]),
        .library(name: "WebKit", targets: ["WebKit"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
    ],
    targets: [
        .target(name: "Combine", swiftSettings: swift5),
        .target(name: platformUI, swiftSettings: swift5),
        .target(name: "WebKit", dependencies: [.target(name: platformUI)], swiftSettings: swift5),
        .target(
            name: "SwiftUI", dependencies: [.target(name: platformUI), "CoreGraphics", "Combine"],
            swiftSettings: resilient),
        .target(name: "CoreGraphics", swiftSettings: swift5),
        .target(name: "ImageIO", dependencies: ["CoreGraphics"], swiftSettings: swift5),
    ]
)
