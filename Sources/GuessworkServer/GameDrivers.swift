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
      Driver<GuessOrPassGame>(
        content: { options in
          // The API finds the words first (bundled, stored, custom; seen ones last).
          guard let words = options.words, let category = options.category else {
            let category = try wordCategory(options, content: content)
            return (GuessOrPassGame.Words(fresh: category.words), category.id)
          }
          return (words, category)
        },
        fit: { settings, _, options in
          var settings = settings
          if settings.category == nil { settings.category = options.category }
          return settings
        }),
      Driver<PictureQuizGame>(
        content: { options in
          guard let deck = options.deck else { throw APIError.notFound("Deck") }
          let items = deck.playableItems.compactMap { item in
            item.pictureToken.map { PictureQuizGame.Item(id: $0, name: item.name) }
          }
          return (items, deck.id)
        },
        fit: { settings, items, options in
          var settings = settings
          settings.questions = min(settings.questions, items.count)
          settings.noun = options.deck?.noun ?? ""
          return settings
        }),
    ]
    return Dictionary(uniqueKeysWithValues: drivers.map { ($0.kind, $0) })
  }

  static func wordCategory(_ options: GameOptions, content: ContentLibrary) throws
    -> WordCategory
  {
    guard let id = options.category else { throw APIError.noCategory }
    guard let category = content.category(id) else {
      throw APIError.unknownCategory(content.categories.map(\.id))
    }
    return category
  }
}

extension APIError {
  static let noCategory = APIError(
    .badRequest, "no-category", "Please select a category to play (category is missing).")

  static func unknownCategory(_ ids: [String]) -> APIError {
    APIError(
      .badRequest, "unknown-category",
      "category must be one of \(ids.joined(separator: ", ")), or one of your own categories.")
  }
}
