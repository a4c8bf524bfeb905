import ArgumentParser
import GuessworkCore
import NIOCore
import NIOPosix

@main
struct Guesswork: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "guesswork",
    abstract: "Five guessing games: play them in a browser against the server, or in a terminal.",
    subcommands: [
      Serve.self, Play.self, Stats.self, Games.self, DecksCommand.self, WordsCommand.self,
    ]
  )

  static func main() async {
    if CommandLine.arguments.dropFirst().first == "serve" {
      // Tasks then run on the server's event loops instead of a separate pool, so a request
      // is not handed from one thread to another and back (BENCHMARKS.md). It must be done
      // first, on the main thread, before anything else is scheduled.
      NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
    await Self.main(nil)
  }
}

/// `guesswork games`: the games and their identifiers.
struct Games: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the games and the identifiers the API and the other commands use.")

  func run() {
    for kind in GameKind.allCases {
      let padding = String(repeating: " ", count: max(1, 16 - kind.rawValue.count))
      print(kind.rawValue + padding + kind.title)
    }
  }
}
