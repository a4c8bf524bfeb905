/// Guess or Pass words: those fetched or added for a category, and what a player has seen.
public protocol WordStore: Sendable {
  /// Adds words to a category's stored words (those fetched from Datamuse or added with
  /// `guesswork words add`); a word already there keeps its first source. Returns how many
  /// were new.
  @discardableResult
  func addWords(_ words: [String], category: String, source: String, at: Int64) async throws
    -> Int
  /// The stored words of a category, in the order they were added.
  func storedWords(category: String) async throws -> [StoredWord]
  /// Claims the daily refresh of a category: `true` (and records `at`) when the last claim
  /// was at or before `notAfter`, or there was none; `false` otherwise. Atomic, so that two
  /// instances never both refresh.
  func claimRefresh(category: String, lastBefore notAfter: Int64, at: Int64) async throws -> Bool
  /// When a category was last claimed for a refresh.
  func lastRefresh(category: String) async throws -> Int64?

  /// Records that a player has seen these words in a category.
  func markSeen(playerID: String, category: String, words: [String], at: Int64) async throws
  /// The words a player has seen in a category.
  func seenWords(playerID: String, category: String) async throws -> Set<String>
  /// Forgets what a player has seen in a category (every word has been seen: a new cycle).
  func clearSeen(playerID: String, category: String) async throws
}

/// A word of a Guess or Pass category kept in the database, with where it came from
/// ("datamuse", "cli") and when.
public struct StoredWord: Sendable, Equatable {
  public var word: String
  public var source: String
  public var fetchedAt: Int64

  public init(word: String, source: String, fetchedAt: Int64) {
    self.word = word
    self.source = source
    self.fetchedAt = fetchedAt
  }
}
