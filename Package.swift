// swift-tools-version: 6.1
import CompilerPluginSupport
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
    .library(name: "GuessworkStore", targets: ["GuessworkStore"]),
    .library(name: "GuessworkPlay", targets: ["GuessworkPlay"]),
    .library(name: "GuessworkServer", targets: ["GuessworkServer"]),
    .executable(name: "guesswork", targets: ["guesswork"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/vapor/async-kit", from: "1.22.0"),
    .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
    .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
    .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
    .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
  ],
  targets: [
    // The compiler's side of `@WireUnion` (declared in GuessworkCore): an enum's cases become
    // its wire format, so no game writes its actions' and events' Codable by hand.
    .macro(
      name: "GuessworkMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
      ],
      swiftSettings: strict
    ),
    // JSON written and read fast: the text writer the games write themselves to, and the
    // encoder and reader the store, the play layer and the server use. Imports none of ours.
    .target(
      name: "GuessworkJSON",
      swiftSettings: strict
    ),
    // The rules of every game: pure, deterministic, no I/O.
    .target(
      name: "GuessworkCore",
      dependencies: [
        "GuessworkJSON", "GuessworkMacros", .product(name: "RealModule", package: "swift-numerics"),
      ],
      swiftSettings: strict
    ),
    // Words, decks and cities: data files with a small loader.
    .target(
      name: "GuessworkContent",
      dependencies: ["GuessworkCore"],
      resources: [.copy("Resources")],
      swiftSettings: strict
    ),
    // The one SQLite call Swift cannot make (its arguments are variadic), in C.
    .target(
      name: "CGuessworkSQLite",
      dependencies: [.product(name: "SQLiteNIO", package: "sqlite-nio")]
    ),
    // Storage: one schema and one set of queries over SQLKit, for SQLite and PostgreSQL.
    .target(
      name: "GuessworkStore",
      dependencies: [
        "CGuessworkSQLite",
        .product(name: "SQLKit", package: "sql-kit"),
        .product(name: "SQLiteKit", package: "sqlite-kit"),
        .product(name: "PostgresKit", package: "postgres-kit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "AsyncKit", package: "async-kit"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // Playing any game of the list: the one step (tick, refuse if over, apply, encode), player
    // identity, statistics and the API document's schemas. Shared by the server and the
    // terminal; knows nothing of HTTP.
    .target(
      name: "GuessworkPlay",
      dependencies: [
        "GuessworkCore", "GuessworkJSON", "GuessworkStore", "GuessworkContent",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
    // The HTTP server: routes, players, errors. The only place that knows HTTP.
    .target(
      name: "GuessworkServer",
      dependencies: [
        "GuessworkJSON",
        "GuessworkCore", "GuessworkStore", "GuessworkContent", "GuessworkPlay",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      resources: [.copy("Public"), .copy("openapi-base.json")],
      swiftSettings: strict
    ),
    // The `guesswork` command.
    .executableTarget(
      name: "guesswork",
      dependencies: [
        "GuessworkCore", "GuessworkServer", "GuessworkStore", "GuessworkContent", "GuessworkPlay",
        "GuessworkJSON",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // Games that ship in no product (Coin Flip): the tests register them like the five.
    .target(
      name: "ExampleGames",
      dependencies: ["GuessworkCore", "GuessworkJSON"],
      swiftSettings: strict
    ),
    // The server with the example games, for the end-to-end tests only.
    .executableTarget(
      name: "guesswork-examples",
      dependencies: [
        "ExampleGames", "GuessworkCore", "GuessworkServer",
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkCoreTests",
      dependencies: ["GuessworkCore", "GuessworkContent", "ExampleGames", "GuessworkJSON"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkMacrosTests",
      dependencies: [
        "GuessworkMacros",
        .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkJSONTests",
      dependencies: ["GuessworkJSON", "GuessworkCore"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkContentTests",
      dependencies: ["GuessworkContent", "GuessworkCore"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkStoreTests",
      dependencies: [
        "GuessworkStore", "GuessworkCore",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkPlayTests",
      dependencies: ["GuessworkPlay", "GuessworkCore", "GuessworkStore", "GuessworkJSON"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "GuessworkServerTests",
      dependencies: [
        "GuessworkServer", "GuessworkCore", "ExampleGames", "GuessworkJSON", "GuessworkStore",
        "GuessworkPlay",
        "GuessworkContent",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
  ],
  swiftLanguageModes: [.v6]
)
