import Foundation
import GuessworkContent
import Testing

@testable import GuessworkCore

/// The original Guess the Number app speaks Russian; in Russian, Guesswork's Number game says
/// what it said, in its words (docs/originals/guess-the-number.md quotes them from its source).
@Suite("The Number game in Russian speaks the original app's sentences")
struct NumberInRussianTests {
  static let russian = Catalog.of(.ru)

  /// Every quoted Russian string of the original's section, in order.
  static let quoted: [String] = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/originals/guess-the-number.md")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.matches(of: /"([^"]*\p{Cyrillic}[^"]*)"/).map { String($0.output.1) }
  }()

  static func quote(startingWith prefix: String) -> String? {
    quoted.first { $0.hasPrefix(prefix) }
  }

  static func say(_ message: Message?) -> String? { message.map(russian.render) }

  @Test("The quotes are there to compare with")
  func quotesRead() {
    #expect(Self.quoted.count >= 15, "\(Self.quoted)")
  }

  @Test("The title and the intro of a new game (0 to 99, five attempts)")
  func intro() throws {
    let game = try NumberGame(settings: .init(), seed: 7)
    let view = game.view(at: .zero)
    #expect(Self.russian.render(NumberGame.title) == Self.quote(startingWith: "Угадай"))
    #expect(Self.say(view.message) == Self.quote(startingWith: "Я загадал число"))
    #expect(
      Self.say(view.knownRangeText)
        == Self.quote(startingWith: "Диапазон")?.replacingOccurrences(of: "A", with: "0")
        .replacingOccurrences(of: "B", with: "99"))
  }

  @Test("The attempts left, in the original's words from five down to the last")
  func attemptsInWords() {
    // The original shows "У вас " + its words for two to eight attempts and the last one.
    let words = Self.quoted.filter {
      $0.hasSuffix("попытки") || $0.hasSuffix("попыток") || $0 == "последняя попытка"
    }
    #expect(words.count == 8, "\(words)")
    let numbers = [
      "последняя": 1, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
      "восемь": 8,
    ]
    for phrase in words {
      let left = numbers[String(phrase.split(separator: " ")[0])]!
      #expect(Self.say(NumberGame.attemptsLeftText(left)) == "У вас " + phrase)
    }
  }

  @Test("Higher, lower, and the secret told at the end")
  func hintsAndEnd() throws {
    var game = try NumberGame(settings: .init(), seed: 7)
    let secret = game.secret
    let below = secret == 0 ? nil : secret - 1
    let above = secret == 99 ? nil : secret + 1
    let greater = try #require(Self.quote(startingWith: "Мое число больше"))
    let less = try #require(Self.quote(startingWith: "Мое число меньше"))
    if let below {
      _ = try game.apply(.guess(below), at: .zero)
      #expect(
        Self.say(game.view(at: .zero).hint)
          == greater.replacingOccurrences(of: "N", with: "\(below)"))
      #expect(
        Self.say(game.view(at: .zero).message)
          == greater.replacingOccurrences(of: "N", with: "\(below)"))
    }
    if let above {
      _ = try game.apply(.guess(above), at: .zero)
      #expect(
        Self.say(game.view(at: .zero).hint) == less.replacingOccurrences(of: "N", with: "\(above)"))
    }
    // Lose a new game: spend every attempt on the end of the range the hints still allow.
    game = try NumberGame(settings: .init(), seed: 7)
    while !game.isOver {
      _ = try game.apply(
        .guess(game.knownLow == secret ? game.knownHigh : game.knownLow), at: .zero)
    }
    let lost = try #require(Self.say(game.view(at: .zero).message))
    let noBut = try #require(Self.quote(startingWith: "Нет, но"))
    let byTheWay = try #require(Self.quote(startingWith: "Кстати"))
    #expect(lost.contains(noBut))
    #expect(lost.contains(byTheWay.replacingOccurrences(of: "N", with: "\(secret)")))
  }
}
