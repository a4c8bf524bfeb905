// swift-tools-version: 6.1
// Engine benchmarks, kept out of the main build: `cd Benchmarks && swift package benchmark`.
import PackageDescription

let package = Package(
  name: "GuessworkBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Guesswork", path: ".."),
    // The malloc interposer counts allocations; the runtime interposer it would add by
    // default on Swift 6.3 is not available here.
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "EngineBenchmarks",
      dependencies: [
        .product(name: "GuessworkCore", package: "Guesswork"),
        .product(name: "GuessworkStore", package: "Guesswork"),
        .product(name: "GuessworkPlay", package: "Guesswork"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/EngineBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
