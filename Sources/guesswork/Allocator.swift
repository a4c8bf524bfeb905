import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The server's memory allocator: jemalloc where Debian's `libjemalloc2` is installed, glibc's
/// malloc otherwise or when `GUESSWORK_MALLOC=system`.
///
/// Much of a request's memory is allocated on one thread and freed on another (an event loop
/// and the SQLite writer's thread, one event loop and the next), which glibc's per-thread caches
/// serve poorly: glibc's malloc and free were 7% of a move's CPU, jemalloc is under 3%, and a
/// move's CPU against a ping's went from 3.30 to 3.10 by POST, reads from 0.81 to 0.87 of the
/// ceiling, for a little more memory at the top (BENCHMARKS.md, 2026-11-28 (afternoon)).
///
/// A malloc can only be chosen before a process starts, and linking the library would tie each
/// build to the machine it was built on (SwiftPM even keeps a manifest's answer after the
/// library comes or goes), so `serve` runs itself again with the library preloaded: the same
/// process (its id unchanged), arguments and environment.
enum Allocator {
  /// Where Debian (and most distributions) install the library.
  static let jemallocPaths = [
    "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
    "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2",
  ]

  /// Which allocator serves this process, for the log.
  static var current: String {
    // `mallctl` is jemalloc's own entry point: present only when jemalloc is loaded.
    isLoaded("mallctl") ? "jemalloc" : "glibc malloc"
  }

  /// Whether a library loaded in this process defines `symbol`.
  private static func isLoaded(_ symbol: String) -> Bool {
    #if canImport(Glibc)
      dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil  // RTLD_DEFAULT
    #else
      false
    #endif
  }

  /// Runs this command again with jemalloc preloaded, when it is installed, not serving this
  /// process yet and not declined (`GUESSWORK_MALLOC=system`). Returns only when it does not
  /// (or when the system refuses: glibc's malloc then stays).
  static func preferJemalloc(environment: [String: String] = ProcessInfo.processInfo.environment) {
    #if canImport(Glibc)
      // A sanitizer's runtime must come first among the libraries: a preloaded one would stop
      // the process at its start.
      let sanitized = ["__asan_init", "__tsan_init"].contains(where: isLoaded)
      // A jemalloc already named in LD_PRELOAD that does not serve the process could not be
      // loaded (the loader says why): running again would loop.
      let named = (environment["LD_PRELOAD"] ?? "").contains("libjemalloc")
      guard environment["GUESSWORK_MALLOC"]?.lowercased() != "system", !sanitized, !named,
        !isLoaded("mallctl"),
        let library = jemallocPaths.first(where: { FileManager.default.fileExists(atPath: $0) })
      else { return }
      var preloaded = environment
      preloaded["LD_PRELOAD"] = [library, environment["LD_PRELOAD"] ?? ""]
        .filter { !$0.isEmpty }.joined(separator: ":")
      let entries = preloaded.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { entries.forEach { free($0) } }
      execve("/proc/self/exe", CommandLine.unsafeArgv, entries)
    #endif
  }
}
