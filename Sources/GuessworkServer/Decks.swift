import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The Picture Quiz decks as the API serves them (``DeckLibrary`` finds them).
struct Decks: Sendable {
  let store: any GuessworkStore
  let bundled: [Deck]

  var library: DeckLibrary { DeckLibrary(store: store, bundled: bundled) }

  func all() async throws -> [Deck] { try await library.all() }

  func deck(_ id: String) async throws -> Deck? { try await library.deck(id) }

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

extension API {
  /// The Picture Quiz decks and their pictures.
  func addDeckRoutes(to router: Router<some RemoteAddressRequestContext>) {
    router.get("/api/decks") { request, _ in
      json(try await decks.all().map { Decks.Entry($0.localized(request.language)) })
    }
    router.get("/api/decks/{id}") { request, context in
      guard let found = try await decks.deck(try context.parameters.require("id")) else {
        throw APIError.notFound("deck")
      }
      let deck = found.localized(request.language)
      return json(Decks.Detail(deck: .init(deck), names: deck.items.map(\.name)))
    }
    router.get("/api/pictures/{id}") { request, context in
      try await decks.picture(try context.parameters.require("id"), request: request)
    }
  }
}
