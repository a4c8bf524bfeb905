import GuessworkContent
import GuessworkCore
import HTTPTypes

/// The games the server plays: one line per game.
enum GameDrivers {
  static func all(content: ContentLibrary) -> [GameKind: any GameDriver] {
    let drivers: [any GameDriver] = [
      Driver<NumberGame> { _ in ((), nil) },
      Driver<ColorMatchGame> { _ in ((), nil) },
      Driver<BullseyeGame> { _ in ((), nil) },
      Driver<GuessOrPassGame> { options in
        let category = try wordCategory(options, content: content)
        return (GuessOrPassGame.Words(fresh: category.words), category.id)
      },
      Driver<PictureQuizGame> { options in
        let deck = try pictureDeck(options, content: content)
        return (deck.playableItems.map { .init(id: $0.emoji ?? $0.name, name: $0.name) }, deck.id)
      },
    ]
    return Dictionary(uniqueKeysWithValues: drivers.map { ($0.kind, $0) })
  }

  static func wordCategory(_ options: GameOptions, content: ContentLibrary) throws
    -> WordCategory
  {
    guard let id = options.category else {
      throw APIError(
        .badRequest, "no-category", "Please select a category to play (category is missing).")
    }
    guard let category = content.category(id) else {
      throw APIError(
        .badRequest, "unknown-category",
        "category must be one of \(content.categories.map(\.id).joined(separator: ", ")).")
    }
    return category
  }

  static func pictureDeck(_ options: GameOptions, content: ContentLibrary) throws -> Deck {
    let id = options.deck ?? content.decks.first { !$0.playableItems.isEmpty }?.id ?? ""
    guard let deck = content.deck(id) else {
      throw APIError(
        .badRequest, "unknown-deck",
        "deck must be one of \(content.decks.map(\.id).joined(separator: ", ")).")
    }
    return deck
  }
}
