/// A game's identifier, as the API, the command line and the browser use it ("number",
/// "color-match"). Each engine declares its own (`NumberGame.kind`); ``Games/all`` lists them.
public struct GameKind: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }
}

/// What a game needs to start besides its settings and seed.
public enum ContentNeed: String, Codable, Sendable {
  /// Nothing: the seed makes the whole game.
  case none
  /// A list of words (a Guess or Pass category: bundled, fetched or the player's own).
  case words
  /// A deck of pictures with names (a Picture Quiz deck).
  case deck
}

/// A list of words to deal. `seen` holds the words this player has met in earlier rounds, so a
/// round can deal the fresh ones first.
public struct WordList: Sendable, Equatable {
  public var fresh: [String]
  public var seen: [String]

  public init(fresh: [String], seen: [String] = []) {
    self.fresh = fresh
    self.seen = seen
  }
}

/// One card of a deck: an opaque id (for the picture) and the name a question asks for.
public struct DeckItem: Codable, Sendable, Hashable {
  /// Chosen by the caller; must not reveal the name (players see it).
  public var id: String
  /// The answer, shown in the question ("Reggie White").
  public var name: String

  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// The content found for a game, by the kind of content it needs.
public enum SuppliedContent: Sendable {
  case none
  /// The words of a category, and the category's id.
  case words(WordList, category: String)
  /// A deck's playable items, its id, and the noun its questions use ("the Hall of Famer").
  case deck([DeckItem], id: String, noun: String)

  /// What the game is played on (the category or deck id), kept with the game.
  public var variant: String? {
    switch self {
    case .none: nil
    case .words(_, let category): category
    case .deck(_, let id, _): id
    }
  }
}

/// What a finished game hands back to the world around it.
public struct Handback: Sendable, Equatable {
  /// Words the player has now seen in the game's category (they are dealt last next time).
  public var seenWords: [String]

  public init(seenWords: [String] = []) {
    self.seenWords = seenWords
  }
}

/// A finished game as statistics see it: its summary, score and variant.
public struct FinishedRecord<Summary: Sendable>: Sendable {
  public var summary: Summary
  public var score: Int
  /// The category or deck it was played on, if any.
  public var variant: String?

  public init(summary: Summary, score: Int, variant: String?) {
    self.summary = summary
    self.score = score
    self.variant = variant
  }
}
