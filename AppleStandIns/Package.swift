// swift-tools-version:6.1
import PackageDescription

/// Stand-ins for the few Apple declarations the SDK's Apple-only sources use (Combine, SwiftUI, UIKit, WebKit), so
/// `scripts/check-apple-sources.sh` can type-check those real files on Linux. A package of its own: the root manifest
/// never sees these modules, so no `#if canImport(…)` of the shipped build changes meaning. Each declaration carries
/// the availability and actor isolation Apple's SDK gives it, with where that was read (or "unverified").
///
/// Apple's SwiftUI is built with library evolution: its enums are resilient, so `@unknown default` is expected
/// (the module's imports, not built that way, warn about it; the stand-ins' own warnings are not the SDK's).
let resilient: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution"])]

let package = Package(
    name: "AppleStandIns",
    products: [
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "UIKit", targets: ["UIKit"]),
        .library(name: "WebKit", targets: ["WebKit"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
    ],
    targets: [
        .target(name: "Combine"),
        .target(name: "UIKit"),
        .target(name: "WebKit", dependencies: ["UIKit"]),
        .target(name: "SwiftUI", dependencies: ["UIKit", "CoreGraphics", "Combine"], swiftSettings: resilient),
        .target(name: "CoreGraphics"),
        .target(name: "ImageIO", dependencies: ["CoreGraphics"]),
    ]
)
