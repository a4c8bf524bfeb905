public import Foundation
public import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
public import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The Picture Quiz decks: the bundled ones, and those imported into the database (so every
/// instance sees them). An imported deck replaces a bundled one of the same id, which is how
/// the Hall of Fame roster gets its photos.
struct Decks: Sendable {
  let store: any GuessworkStore
  let bundled: [Deck]

  func all() async throws -> [Deck] {
    let imported = try await store.importedDecks().compactMap { _, manifest in
      try? JSONDecoder().decode(Deck.self, from: Data(manifest.utf8))
    }
    let byID = Dictionary(imported.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let bundledIDs = Set(bundled.map(\.id))
    return bundled.map { byID[$0.id] ?? $0 }
      + imported.filter { !bundledIDs.contains($0.id) }.sorted { $0.id < $1.id }
  }

  func deck(_ id: String) async throws -> Deck? {
    try await all().first { $0.id == id }
  }

  /// A deck as the deck list shows it. It never pairs names with pictures: that would tell
  /// which picture answers a question.
  struct Entry: Encodable {
    var id: String
    var title: String
    var items: Int
    var pictures: Int
    var playable: Bool
    /// Set when the deck has too few pictures to play, with how to add them.
    var needsPhotos: String?
    var theme: [String]
    var credit: String
    /// The question, with `{answer}` where the name goes.
    var question: String
    /// Put before a tapped item's name: "Wrong! That's <noun> <name>."
    var noun: String
    /// Whether the pictures are emoji the browser draws, or photos served by the server.
    var kind: String

    init(_ deck: Deck) {
      id = deck.id
      title = deck.title
      items = deck.items.count
      pictures = deck.playableItems.count
      playable = deck.isPlayable
      needsPhotos =
        deck.isPlayable
        ? nil
        : "Needs photos: put pictures named after their answers (\"\(deck.items.first?.name ?? "Name").jpg\") in a folder and run: guesswork decks import <folder> --id \(deck.id)"
      theme = deck.theme
      credit = deck.credit
      question = deck.question
      noun = deck.noun
      kind = deck.items.contains { $0.picture != nil } ? "photos" : "emoji"
    }
  }

  /// `GET /api/decks/{id}`: the entry, and the answers' names (never with their pictures).
  struct Detail: Encodable {
    var deck: Entry
    var names: [String]
  }

  /// `GET /api/pictures/{id}`: a picture, cached for good (its id is its content's hash).
  func picture(_ id: String, request: Request) async throws -> Response {
    guard id.count == 64, id.allSatisfy(\.isHexDigit), let picture = try await store.picture(id: id)
    else {
      throw APIError.notFound("picture")
    }
    let etag = "\"\(id)\""
    var headers: HTTPFields = [
      .contentType: picture.contentType, .eTag: etag,
      .cacheControl: "public, max-age=31536000, immutable",
    ]
    if request.headers[.ifNoneMatch] == etag {
      headers[.contentType] = nil
      return Response(status: .notModified, headers: headers)
    }
    return Response(
      status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: picture.data)))
  }
}

extension APIError {
  static func deckNeedsPhotos(_ deck: Deck) -> APIError {
    APIError(
      .badRequest, "deck-needs-photos", "error.deckNeedsPhotos",
      [
        "title": .text("\(deck.title)"), "playableItems": .text("\(deck.playableItems.count)"),
        "minimumPictures": .text("\(Deck.minimumPictures)"), "id": .text("\(deck.id)"),
      ])
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
  try await Decks(store: store, bundled: ContentLibrary.bundled.decks).all()
}
