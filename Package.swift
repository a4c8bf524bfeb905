// swift-tools-version: 6.1
import PackageDescription

/// Strict settings shared by every target of ours.
let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "Guesswork",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "GuessworkCore", targets: ["GuessworkCore"]),
    .executable(name: "guesswork", targets: ["guesswork"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    // The rules of every game: pure, deterministic, no I/O.
    .target(
      name: "GuessworkCore",
      dependencies: [.product(name: "RealModule", package: "swift-numerics")],
      swiftSettings: strict
    ),
    // The `guesswork` command.
    .executableTarget(
      name: "guesswork",
      dependencies: [
        "GuessworkCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkCoreTests",
      dependencies: ["GuessworkCore"],
      swiftSettings: strict
    ),
  ],
  swiftLanguageModes: [.v6]
)
