public import Foundation

/// The content the games play with, shipped with Guesswork as data files: word lists for
/// Guess or Pass, emoji decks for Picture Quiz, and a list of world cities.
public struct ContentLibrary: Sendable {
  /// The categories, with their English words.
  public let categories: [WordCategory]
  public let decks: [Deck]
  /// The words of each category in the other languages (`words/<language>/<category>.txt`).
  public let translatedWords: [Language: [String: [String]]]

  public init(
    categories: [WordCategory], decks: [Deck], translatedWords: [Language: [String: [String]]] = [:]
  ) {
    self.categories = categories
    self.decks = decks
    self.translatedWords = translatedWords
  }

  /// A built-in category's bundled words in `language`.
  public func words(category id: String, in language: Language) -> [String] {
    language == .en
      ? category(id)?.words ?? [] : translatedWords[language]?[id] ?? []
  }

  /// The six categories of the original app, in its order.
  public static let categoryIDs = ["animals", "food", "sports", "technology", "music", "nature"]

  /// The content bundled with the package, loaded once.
  public static let bundled: ContentLibrary = {
    do {
      return try load(from: resources)
    } catch {
      fatalError("the bundled content does not load: \(error)")
    }
  }()

  /// The folder of the bundled data files (the one holding `words/` and `decks/`).
  public static var resources: URL {
    Bundle.module.url(forResource: "words", withExtension: nil)!.deletingLastPathComponent()
  }

  /// Loads the content in `folder` (`words/<category>.txt`, `decks/<id>.json`).
  public static func load(from folder: URL) throws -> ContentLibrary {
    let categories = try categoryIDs.map { id in
      let text = try String(
        contentsOf: folder.appendingPathComponent("words/\(id).txt"), encoding: .utf8)
      return WordCategory(
        id: id, title: id.prefix(1).uppercased() + id.dropFirst(), words: lines(text))
    }
    var translated: [Language: [String: [String]]] = [:]
    for language in Language.allCases where language != .en {
      for id in categoryIDs {
        let url = folder.appendingPathComponent("words/\(language.rawValue)/\(id).txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        translated[language, default: [:]][id] = lines(text)
      }
    }
    let deckFolder = folder.appendingPathComponent("decks")
    let deckFiles = try FileManager.default.contentsOfDirectory(atPath: deckFolder.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    let decks = try deckFiles.map { file in
      try JSONDecoder().decode(
        Deck.self, from: Data(contentsOf: deckFolder.appendingPathComponent(file)))
    }
    return ContentLibrary(categories: categories, decks: decks, translatedWords: translated)
  }

  /// The words on the bundled blocklists (every language's): never shown, whatever their
  /// source.
  public static let blocklist: Set<String> = {
    let files =
      ["words/blocklist.txt"] + Language.allCases.map { "words/\($0.rawValue)/blocklist.txt" }
    return Set(
      files.flatMap { file in
        (try? String(contentsOf: resources.appendingPathComponent(file), encoding: .utf8))
          .map(lines) ?? []
      })
  }()

  static func lines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }

  public func category(_ id: String) -> WordCategory? {
    categories.first { $0.id == id }
  }

  public func deck(_ id: String) -> Deck? {
    decks.first { $0.id == id }
  }
}

/// A Guess or Pass category and its words.
public struct WordCategory: Sendable, Equatable, Codable {
  public let id: String
  public let title: String
  public let words: [String]

  public init(id: String, title: String, words: [String]) {
    self.id = id
    self.title = title
    self.words = words
  }
}

/// A Picture Quiz deck: its items and how it looks and asks.
public struct Deck: Sendable, Equatable, Codable {
  public let id: String
  public let title: String
  /// The question, with `{answer}` where the item's name goes.
  public let question: String
  /// Put before a tapped item's name: "Wrong! That's <noun> <name>."
  public let noun: String
  /// Two to four colours for the background gradient.
  public let theme: [String]
  /// Shown under the game.
  public let credit: String
  public let items: [Item]
  /// The deck's texts in other languages (`title`, `question`, `noun`, `credit`).
  public let languages: [String: Texts]?

  /// A deck's texts in one language.
  public struct Texts: Sendable, Equatable, Codable {
    public let title: String
    public let question: String
    public let noun: String
    public let credit: String
  }

  public struct Item: Sendable, Equatable, Codable {
    public let name: String
    /// The name in other languages, by language code.
    public let names: [String: String]?
    /// The picture, when it is an emoji that browsers draw themselves.
    public let emoji: String?
    /// The picture, when it is an imported photo: its id in the store (a SHA-256 of its
    /// bytes, so that its URL says nothing of the answer).
    public let picture: String?

    public init(
      name: String, emoji: String? = nil, picture: String? = nil, names: [String: String]? = nil
    ) {
      self.name = name
      self.names = names
      self.emoji = emoji
      self.picture = picture
    }

    /// What a game shows for this item: the emoji itself, or the picture's id.
    public var pictureToken: String? { emoji ?? picture }
  }

  public init(
    id: String, title: String, question: String, noun: String, theme: [String], credit: String,
    items: [Item], languages: [String: Texts]? = nil
  ) {
    self.languages = languages
    self.id = id
    self.title = title
    self.question = question
    self.noun = noun
    self.theme = theme
    self.credit = credit
    self.items = items
  }

  /// The deck in `language`: its texts and item names where it has them, English where not
  /// (an imported deck of photos keeps its own words).
  public func localized(_ language: Language) -> Deck {
    guard language != .en else { return self }
    let texts = languages?[language.rawValue]
    return Deck(
      id: id, title: texts?.title ?? title, question: texts?.question ?? question,
      noun: texts?.noun ?? noun, theme: theme, credit: texts?.credit ?? credit,
      items: items.map {
        Item(
          name: $0.names?[language.rawValue] ?? $0.name, emoji: $0.emoji, picture: $0.picture,
          names: $0.names)
      }, languages: languages)
  }

  /// A game needs at least this many pictures: the default number of choices.
  public static let minimumPictures = 3

  /// The items that have a picture.
  public var playableItems: [Item] { items.filter { $0.pictureToken != nil } }

  /// Whether a game with the default settings can be played on this deck.
  public var isPlayable: Bool { playableItems.count >= Self.minimumPictures }
}
