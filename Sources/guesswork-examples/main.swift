// A server of the five games and the example games (Coin Flip), for the end-to-end tests
// only: it shows that a game from outside the list plays alone and in rooms with nothing
// written for it in the server. It takes the options of `guesswork serve` that the tests use
// and the same environment.
import ExampleGames
import Foundation
import GuessworkCore
import GuessworkServer
import Hummingbird

var configuration = ServerConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "serve" { arguments.removeFirst() }
while let option = arguments.popFirst() {
  guard let value = arguments.popFirst() else {
    FileHandle.standardError.write(Data("\(option) needs a value\n".utf8))
    exit(64)
  }
  switch option {
  case "--port": configuration.port = Int(value) ?? configuration.port
  case "--host": configuration.host = value
  case "--data-dir": configuration.dataDirectory = value
  case "--database-url": configuration.databaseURL = value
  default:
    FileHandle.standardError.write(Data("unknown option \(option)\n".utf8))
    exit(64)
  }
}
configuration.onListening = { port in
  FileHandle.standardOutput.write(Data("Guesswork (with examples) is ready on port \(port)\n".utf8))
}
let app = try await buildApplication(configuration, games: Games.all + [CoinFlipGame.self])
try await app.runService()
