import ArgumentParser
import Foundation
import GuessworkContent
import GuessworkPlay
import GuessworkStore
import Logging

/// Where the commands that work on the data find it: the same place `guesswork serve` does.
struct StoreOptions: ParsableArguments {
  @Option(
    help: "The folder of the SQLite database (guesswork.sqlite). Default: GUESSWORK_DATA_DIR or .")
  var dataDir: String?

  @Option(help: "A postgres:// URL (default: DATABASE_URL): use that PostgreSQL database.")
  var databaseURL: String?

  /// Opens the store, quietly.
  func open() async throws -> SQLStore {
    var configuration = StorageSettings.fromEnvironment(ProcessInfo.processInfo.environment)
    if let dataDir { configuration.dataDirectory = dataDir }
    if let databaseURL { configuration.databaseURL = databaseURL }
    var logger = Logger(label: "guesswork")
    logger.logLevel = .warning
    return try await SQLStore.open(
      StoreLocation.from(
        databaseURL: configuration.databaseURL, sqlitePath: configuration.sqlitePath),
      logger: logger)
  }
}

/// `guesswork decks`: the Picture Quiz decks.
struct DecksCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "decks", abstract: "List Picture Quiz decks, or import a folder of photos.",
    subcommands: [List.self, Import.self])

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show each deck, its size, and whether it can be played.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
      let store = try await store.open()
      let decks = try await allDecks(in: store)
      try await store.close()
      for deck in decks {
        let state =
          deck.isPlayable
          ? "playable"
          : "needs photos: guesswork decks import <folder> --id \(deck.id)"
        print(
          "\(deck.id.padded(to: 14)) \(deck.title.padded(to: 22)) \(String(deck.playableItems.count).padded(to: 3)) pictures  \(state)"
        )
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import a folder of pictures named after their answers as a deck.",
      discussion: """
        The folder holds JPEG, PNG or WebP pictures (at most 1 MB each) named after their \
        answers, like "Reggie White.jpg", and optionally a deck.json manifest: {"id", "title", \
        "question": "Tap the ... who is {answer}", "noun", "theme": ["#004C54", "#000000"], \
        "credit", "items": [{"name", "file"} or {"name", "emoji"}]}. Every file is checked \
        first; if any is bad, nothing is imported. Importing again replaces the deck.
        Import photos into the roster deck with --id eagles-hof.
        """)

    @Argument(help: "The folder of pictures.")
    var folder: String

    @Option(help: "The deck's id (default: the manifest's, else the folder's name).")
    var id: String?

    @OptionGroup var store: StoreOptions

    func run() async throws {
      let store = try await store.open()
      do {
        let deck = try await importDeck(
          from: URL(fileURLWithPath: folder), id: id, into: store,
          at: Int64(Date().timeIntervalSince1970 * 1000))
        try await store.close()
        print(
          "Imported \(deck.id) (\(deck.title)): \(deck.playableItems.count) pictures, \(deck.isPlayable ? "playable" : "not playable yet")."
        )
      } catch let error as DeckImportError {
        try await store.close()
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        throw ExitCode(65)
      }
    }
  }
}

extension String {
  func padded(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
