import ArgumentParser
import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkServer
import NIOCore
import NIOPosix

@main
struct Guesswork: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "guesswork",
    abstract: "Five guessing games: play them in a browser against the server, or in a terminal.",
    subcommands: [
      Serve.self, Play.self, Stats.self, GamesCommand.self, OpenAPICommand.self, DecksCommand.self,
      WordsCommand.self, RoomsCommand.self,
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
struct GamesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "games",
    abstract: "List the games and the identifiers the API and the other commands use.")

  func run() {
    for engine in Play.engines.all {
      print(engine.kind.rawValue.padded(to: 16) + Speech.say(engine.title))
    }
  }
}

/// `guesswork openapi`: the API document the server serves, made from the list of games.
struct OpenAPICommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "openapi",
    abstract: "Print the OpenAPI document the server serves (docs/openapi.json is this output).")

  func run() throws {
    FileHandle.standardOutput.write(try OpenAPIDocument.data(for: Play.engines))
  }
}
