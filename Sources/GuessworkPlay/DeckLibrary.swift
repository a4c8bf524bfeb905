public import Foundation
public import GuessworkContent
import GuessworkJSON
public import GuessworkStore

/// The Picture Quiz decks: the bundled ones, and those imported into the database (so every
/// instance sees them). An imported deck replaces a bundled one of the same id, which is how
/// the Hall of Fame roster gets its photos.
public struct DeckLibrary: Sendable {
  public let store: any GuessworkStore
  public let bundled: [Deck]

  public init(store: any GuessworkStore, bundled: [Deck]) {
    self.store = store
    self.bundled = bundled
  }

  public func all() async throws -> [Deck] {
    let imported = try await store.importedDecks().compactMap { _, manifest in
      try? JSONDecoder().decode(Deck.self, from: Data(manifest.utf8))
    }
    let byID = Dictionary(imported.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let bundledIDs = Set(bundled.map(\.id))
    return bundled.map { byID[$0.id] ?? $0 }
      + imported.filter { !bundledIDs.contains($0.id) }.sorted { $0.id < $1.id }
  }

  public func deck(_ id: String) async throws -> Deck? {
    try await all().first { $0.id == id }
  }
}

/// Reads the deck folder at `folder`, checks every file, and stores the deck with its
/// pictures in one transaction (replacing a deck of the same id). Throws
/// `DeckImportError` naming every bad file, and then stores nothing.
public func importDeck(
  from folder: URL, id: String?, into store: any GuessworkStore, at now: Int64
) async throws -> Deck {
  let read = try DeckFolder.read(
    folder, id: id, builtIn: ContentLibrary.bundled.decks, sha256: PlayerIdentity.sha256)
  try await store.replaceDeck(
    id: read.deck.id,
    manifest: try CompactJSON.string(read.deck),
    pictures: read.pictures.map {
      StoredPicture(id: $0.id, contentType: $0.contentType, data: $0.data)
    }, at: now)
  return read.deck
}

/// Every deck, bundled and imported, for `guesswork decks list`.
public func allDecks(in store: any GuessworkStore) async throws -> [Deck] {
  try await DeckLibrary(store: store, bundled: ContentLibrary.bundled.decks).all()
}
