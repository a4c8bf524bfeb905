public import Foundation

/// Picture Quiz decks imported into the database, with their pictures.
public protocol DeckStore: Sendable {
  /// Replaces the imported deck `id` (its manifest, as JSON) and stores its pictures, all in
  /// one transaction: a deck is never half imported.
  func replaceDeck(id: String, manifest: String, pictures: [StoredPicture], at: Int64)
    async throws
  /// The imported decks' manifests, by id.
  func importedDecks() async throws -> [String: String]
  func picture(id: String) async throws -> StoredPicture?
}

/// A picture of an imported deck, by the SHA-256 of its bytes.
public struct StoredPicture: Sendable, Equatable {
  public var id: String
  public var contentType: String
  public var data: Data

  public init(id: String, contentType: String, data: Data) {
    self.id = id
    self.contentType = contentType
    self.data = data
  }
}
