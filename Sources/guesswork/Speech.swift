public import ArgumentParser
import Foundation
public import GuessworkContent
import GuessworkCore
import Synchronization

/// The terminal's language: `--lang`, else the environment's (`LC_ALL`, `LC_MESSAGES`,
/// `LANG`), else English. Everything the games say goes through its catalog.
enum Speech {
  private static let chosen = Mutex<Catalog>(
    Catalog.of(Language.of(environment: ProcessInfo.processInfo.environment)))

  /// The catalog in use.
  static var catalog: Catalog { chosen.withLock { $0 } }

  /// Chooses the language (from `--lang`).
  static func use(_ language: Language) {
    chosen.withLock { $0 = Catalog.of(language) }
  }

  /// A message in words.
  static func say(_ message: Message) -> String { catalog.render(message) }

  /// Sentences in words, one after the other.
  static func say(_ messages: [Message]) -> String {
    messages.map(catalog.render).joined(separator: " ")
  }

  /// A built-in category in the terminal's language: its title and its words.
  static func category(_ id: String) -> WordCategory? {
    guard ContentLibrary.bundled.category(id) != nil else { return nil }
    return WordCategory(
      id: id, title: catalog("category.\(id)"),
      words: ContentLibrary.bundled.words(category: id, in: catalog.language))
  }

  /// The built-in categories in the terminal's language.
  static var categories: [WordCategory] { ContentLibrary.categoryIDs.compactMap(category) }

  /// A key in words.
  static func say(_ key: String, _ args: Message.Arguments = [:]) -> String {
    catalog(key, args)
  }
}

extension Language: ExpressibleByArgument {
  public init?(argument: String) { self.init(tag: argument) }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
