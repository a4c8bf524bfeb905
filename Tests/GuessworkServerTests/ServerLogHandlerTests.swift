import Logging
import Synchronization
import Testing

@testable import GuessworkServer

/// The lines a log handler wrote.
private final class Lines: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func append(_ line: String) { lines.withLock { $0.append(line) } }
}

/// What `StreamLogHandler` writes to: into ``Lines``.
private struct Into: TextOutputStream, Sendable {
  let lines: Lines
  func write(_ string: String) { lines.append(string) }
}

@Suite("The server's log lines")
struct ServerLogHandlerTests {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "it broke" }
  }

  /// A few events, with metadata of the logger's and of the event's, and one that carries an
  /// error (`Logger` has no parameter for one here, so that event goes to the handler itself).
  static func logSome(through handler: some LogHandler, label: String) {
    var logger = Logger(label: label, factory: { _ in handler })
    logger.logLevel = .info
    logger[metadataKey: "request"] = "r1"
    logger.info("GET /ping 200 0.12 ms")
    logger.debug("not written at info")
    logger.warning("slow", metadata: ["ms": "120", "a": "first"])
    handler.log(
      event: LogEvent(
        level: .error, message: "failed", error: Failure(), metadata: ["request": "r2"],
        source: nil, file: #fileID, function: #function, line: #line))
  }

  @Test("A line is StreamLogHandler's line, timestamp included")
  func sameLinesAsStreamLogHandler() {
    for label in ["guesswork", ""] {
      var ours: [String] = []
      var theirs: [String] = []
      for _ in 0..<3 {  // again if the second turned between the two
        let mine = Lines()
        let stream = Lines()
        Self.logSome(
          through: ServerLogHandler(
            label: label, metadataProvider: nil, write: { mine.append($0) }),
          label: label)
        Self.logSome(
          through: StreamLogHandler(
            label: label, stream: Into(lines: stream), metadataProvider: nil),
          label: label)
        (ours, theirs) = (mine.all, stream.all)
        if ours == theirs { break }
      }
      #expect(ours.count == 3, "debug is below the level")
      #expect(ours == theirs)
    }
  }
}
