import ArgumentParser
import Foundation
import GuessworkContent
import GuessworkPlay
import GuessworkStore
import Logging

/// `guesswork words`: the Guess or Pass word lists.
struct WordsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "words",
    abstract: "List a Guess or Pass category's words, refresh them from Datamuse, or add some.",
    discussion: """
      Each category plays with its bundled words plus those stored in the database: fetched \
      from the Datamuse API (https://www.datamuse.com/api/) or added here. Categories: \
      \(ContentLibrary.categoryIDs.joined(separator: ", ")).
      """,
    subcommands: [List.self, Refresh.self, Add.self])

  static func validate(category: String) throws {
    guard ContentLibrary.categoryIDs.contains(category) else {
      throw ValidationError(
        "Unknown category \"\(category)\"; choose one of \(ContentLibrary.categoryIDs.joined(separator: ", "))."
      )
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a category's words, one a line, with where each came from.")

    @Argument(help: "The category.")
    var category: String

    @Flag(help: "Print only the words.")
    var plain = false

    @OptionGroup var store: StoreOptions

    func validate() throws { try WordsCommand.validate(category: category) }

    func run() async throws {
      let store = try await store.open()
      let stored = try await store.storedWords(category: category)
      try await store.close()
      let bundled = ContentLibrary.bundled.category(category)?.words ?? []
      var seen = Set(bundled)
      let extra = stored.filter { seen.insert($0.word).inserted }
      for word in bundled { print(plain ? word : "\(word.padded(to: 24)) bundled") }
      for word in extra { print(plain ? word.word : "\(word.word.padded(to: 24)) \(word.source)") }
      if !plain {
        print(
          "\(bundled.count + extra.count) words: \(bundled.count) bundled, \(extra.count) stored")
      }
    }
  }

  struct Refresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Fetch more words from Datamuse now, for one category or all of them.",
      discussion: """
        Asks GET /words?ml=<seed word>&topics=<topics>&max=1000 as the original app did, cleans \
        the answer and stores the new words. Unlike the server's daily background refresh, this \
        asks even if the category was refreshed today. A failure leaves the words as they are.
        """)

    @Argument(help: "The category (default: every category).")
    var category: String?

    @Option(
      help: "Datamuse's base URL (default: GUESSWORK_DATAMUSE_URL or https://api.datamuse.com).")
    var datamuseURL: String?

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 10

    @OptionGroup var store: StoreOptions

    func validate() throws {
      if let category { try WordsCommand.validate(category: category) }
    }

    func run() async throws {
      let environment = ProcessInfo.processInfo.environment
      var settings = DatamuseSettings.fromEnvironment(environment)
      settings.enabled = true
      settings.timeout = timeout
      if let datamuseURL { settings.baseURL = datamuseURL }
      var logger = Logger(label: "guesswork")
      logger.logLevel = .critical
      let store = try await store.open()
      let bank = WordBank(store: store, datamuse: settings, logger: logger)
      var failed = 0
      for id in category.map({ [$0] }) ?? ContentLibrary.categoryIDs {
        let result = await bank.refresh(category: id, force: true)
        if case .failed = result { failed += 1 }
        let total = await bank.words(category: id).count
        print("\(id.padded(to: 12)) \(result); \(total) words in all")
      }
      try await store.close()
      if failed > 0 { throw ExitCode(1) }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add words to a category (cleaned: singular, one or two words, family-friendly).")

    @Argument(help: "The category.")
    var category: String

    @Argument(help: "The words; quote a two-word phrase: \"hot dog\".")
    var words: [String]

    @OptionGroup var store: StoreOptions

    func validate() throws {
      try WordsCommand.validate(category: category)
      if words.isEmpty { throw ValidationError("Give at least one word to add.") }
    }

    func run() async throws {
      var refused: [String] = []
      var cleaned: [String] = []
      for word in words {
        if let clean = WordCleaning.cleaned(word) {
          cleaned.append(clean)
        } else {
          refused.append(word)
        }
      }
      let store = try await store.open()
      let bundled = Set(ContentLibrary.bundled.category(category)?.words ?? [])
      let new = cleaned.filter { !bundled.contains($0) }
      let added = try await store.addWords(
        new, category: category, source: "cli", at: Int64(Date().timeIntervalSince1970 * 1000))
      try await store.close()
      print(
        "\(category): \(added) word\(added == 1 ? "" : "s") added, \(cleaned.count - added) already there"
      )
      if !refused.isEmpty {
        print(
          "not added (over two words, digits or symbols, or not family-friendly): \(refused.map { "\"\($0)\"" }.joined(separator: ", "))"
        )
      }
    }
  }
}
