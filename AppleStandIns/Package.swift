// swift-tools-version:6.1
import PackageDescription

/// Stand-ins for the few Apple declarations the SDK's Apple-only sources use (Combine, SwiftUI, UIKit, WebKit), so
/// `scripts/check-apple-sources.sh` can type-check those real files on Linux. A package of its own: the root manifest
/// never sees these modules, so no `#if canImport(…)` of the shipped build changes meaning. Each declaration carries
/// the availability and actor isolation Apple's SDK gives it, with where that was read (or "unverified").
let package = Package(
    name: "AppleStandIns",
    products: [
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "UIKit", targets: ["UIKit"]),
        .library(name: "WebKit", targets: ["WebKit"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
    ],
    targets: [
        .target(name: "Combine"),
        .target(name: "UIKit"),
        .target(name: "WebKit", dependencies: ["UIKit"]),
        .target(name: "SwiftUI", dependencies: ["UIKit"]),
    ]
)
