import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes

extension API {
  /// The content a game of `need` plays on, found for `player`: nothing, the words of the
  /// category asked for (this player's seen words last), or the deck asked for.
  func supply(
    _ need: ContentNeed, playerID: String, category: String?, deck: String?,
    language: Language = .en
  ) async throws -> SuppliedContent {
    switch need {
    case .none:
      return .none
    case .words:
      guard let category else { throw APIError.noCategory }
      return .words(
        try await roundWords(playerID: playerID, category: category, language: language).0,
        category: category)
    case .deck:
      return .deck(try await pictureDeck(deck).localized(language))
    }
  }

  /// The deck asked for (the first playable one when none is named).
  func pictureDeck(_ id: String?) async throws -> Deck {
    let all = try await decks.all()
    guard let id else {
      guard let first = all.first(where: \.isPlayable) else { throw APIError.notFound("deck") }
      return first
    }
    guard let deck = all.first(where: { $0.id == id }) else {
      throw APIError(
        .badRequest, "unknown-deck", "error.unknownDeck",
        ["list": .text(all.map(\.id).joined(separator: ", "))])
    }
    guard deck.isPlayable else { throw APIError.deckNeedsPhotos(deck) }
    return deck
  }
}

extension APIError {
  static let noCategory = APIError(.badRequest, "no-category", "error.noCategory")

  static func unknownCategory(_ ids: [String]) -> APIError {
    APIError(
      .badRequest, "unknown-category", "error.unknownCategory",
      ["list": .text(ids.joined(separator: ", "))])
  }
}
