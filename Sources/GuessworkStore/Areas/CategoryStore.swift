/// A player's own word categories.
public protocol CategoryStore: Sendable {
  /// Stores a category unless its player has `limit` already (`false`), checked and inserted
  /// in one transaction, so that creations at once cannot pass the limit together.
  func insertCustomCategory(_ category: CustomCategoryRecord, limit: Int) async throws -> Bool
  /// Replaces the name and words of a player's category; `false` when the player has no such
  /// category.
  func updateCustomCategory(_ category: CustomCategoryRecord) async throws -> Bool
  /// `false` when the player has no such category.
  func deleteCustomCategory(id: String, playerID: String) async throws -> Bool
  /// A player's own categories, oldest first.
  func customCategories(playerID: String) async throws -> [CustomCategoryRecord]
  func customCategory(id: String) async throws -> CustomCategoryRecord?
}

/// A player's own Guess or Pass category.
public struct CustomCategoryRecord: Sendable, Equatable {
  public var id: String
  public var playerID: String
  public var name: String
  public var words: [String]
  public var createdAt: Int64
  public var updatedAt: Int64

  public init(
    id: String, playerID: String, name: String, words: [String], createdAt: Int64,
    updatedAt: Int64? = nil
  ) {
    self.id = id
    self.playerID = playerID
    self.name = name
    self.words = words
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }
}
