public import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's log lines: the same lines as swift-log's `StreamLogHandler` writes, to
/// standard error, with the time of day worked out once a second instead of once a line.
///
/// At the server's default level (`info`) every request logs a line. `StreamLogHandler` asks
/// the C library for the local time for each (`localtime`), and that alone was a tenth of a
/// ping's CPU (perf: glibc's `__tz_convert`); a line cost a ping 25-28 µs -> 31-40 µs of CPU in
/// all (BENCHMARKS.md, "2026-11-27"). The timestamp shows whole seconds, so one made in the
/// same second serves.
public struct ServerLogHandler: LogHandler {
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private let write: @Sendable (String) -> Void

  /// `write` takes each line, newline included (standard error unless told otherwise).
  public init(
    label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
    write: @escaping @Sendable (String) -> Void = ServerLogHandler.toStandardError
  ) {
    self.label = label
    self.metadataProvider = metadataProvider
    self.write = write
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var metadata = self.metadata
    if let provided = metadataProvider?.get(), !provided.isEmpty {
      metadata.merge(provided) { _, provided in provided }
    }
    if let explicit = event.metadata, !explicit.isEmpty {
      metadata.merge(explicit) { _, explicit in explicit }
    }
    if let error = event.error {
      metadata["error.message"] = "\(error)"
      metadata["error.type"] = "\(String(reflecting: type(of: error)))"
    }
    let pretty =
      metadata.isEmpty
      ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
    write(
      "\(Self.timestamp()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(event.message)\n"
    )
  }

  /// The last timestamp made, and the second it is for.
  private static let lastTimestamp = Mutex<(second: Int, text: String)>((.min, ""))

  /// Now, as `StreamLogHandler` writes it (`2026-11-27T02:40:00+0000`, local time).
  static func timestamp() -> String {
    var now = time(nil)
    return lastTimestamp.withLock { last in
      if last.second == Int(now) { return last.text }
      var local = tm()
      var buffer = [CChar](repeating: 0, count: 64)
      guard localtime_r(&now, &local) != nil,
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local) > 0
      else { return "<unknown>" }
      let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      last = (Int(now), String(decoding: text, as: UTF8.self))
      return last.text
    }
  }

  /// Writes `line` to standard error in one call (lines from two threads do not interleave).
  @Sendable public static func toStandardError(_ line: String) {
    var line = line
    line.withUTF8 { bytes in
      var written = 0
      while written < bytes.count {
        let count = writeToStandardError(bytes.baseAddress! + written, bytes.count - written)
        if count <= 0 { return }
        written += count
      }
    }
  }
}

/// `write(2)` on standard error (a name of its own: a log handler has a `write` of its own).
private func writeToStandardError(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(2, bytes, count)
  #else
    Darwin.write(2, bytes, count)
  #endif
}
