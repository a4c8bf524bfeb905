import Foundation
import GuessworkCore
public import GuessworkStore

/// `GET /api/me/stats`: per game, how many were played, the best score, the last 20 scores,
/// and the game's own figures, all worked out from the summaries of finished games.
public struct Statistics: Encodable {
  public struct PerGame: Encodable {
    public var game: String
    public var title: String
    public var played: Int
    public var bestScore: Int?
    /// Oldest first.
    public var lastScores: [Int]
    public var figures: Figures
  }

  /// The figures only one game has.
  public enum Figures: Encodable {
    case number(NumberFigures)
    case colorMatch(ColorMatchFigures)
    case bullseye(BullseyeFigures)
    case best(BestByVariant)

    public func encode(to encoder: any Encoder) throws {
      switch self {
      case .number(let figures): try figures.encode(to: encoder)
      case .colorMatch(let figures): try figures.encode(to: encoder)
      case .bullseye(let figures): try figures.encode(to: encoder)
      case .best(let figures): try figures.encode(to: encoder)
      }
    }
  }

  public struct NumberFigures: Encodable {
    public struct Bar: Encodable {
      public var attempts: Int
      public var wins: Int
    }
    public var wins: Int
    public var losses: Int
    public var winRate: Double?
    public var currentStreak: Int
    public var bestStreak: Int
    /// Won games by the attempts they took.
    public var attemptsHistogram: [Bar]
  }

  public struct ColorMatchFigures: Encodable {
    public var trials: Int
    public var correct: Int
    public var accuracy: Double?
    public var meanReactionMsCongruent: Double?
    public var meanReactionMsIncongruent: Double?
    public var interferenceMs: Double?
  }

  public struct BullseyeFigures: Encodable {
    public var rounds: Int
    public var averageRound: Double?
    public var bestRound: Int?
  }

  /// Best scores overall and per category (Guess or Pass) or deck (Picture Quiz).
  public struct BestByVariant: Encodable {
    public var bestOverall: Int?
    public var bestByVariant: [String: Int]
  }

  public var games: [PerGame]

  public init(games finished: [FinishedGame]) {
    games = GameKind.allCases.map { kind in
      let mine = finished.filter { $0.kind == kind.rawValue }
      return PerGame(
        game: kind.rawValue, title: kind.title, played: mine.count,
        bestScore: mine.map(\.score).max(), lastScores: mine.suffix(20).map(\.score),
        figures: Self.figures(kind, mine))
    }
  }

  private static func summaries<S: Decodable>(_ games: [FinishedGame], as type: S.Type) -> [S] {
    games.compactMap { try? JSONDecoder().decode(S.self, from: Data($0.summary.utf8)) }
  }

  private static func mean(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
  }

  private static func figures(_ kind: GameKind, _ games: [FinishedGame]) -> Figures {
    switch kind {
    case .number:
      let results = summaries(games, as: NumberGame.Summary.self)
      var current = 0
      var best = 0
      for result in results {
        current = result.won ? current + 1 : 0
        best = max(best, current)
      }
      let wins = results.filter(\.won)
      let histogram = Dictionary(grouping: wins, by: \.attemptsUsed)
        .map { NumberFigures.Bar(attempts: $0.key, wins: $0.value.count) }
        .sorted { $0.attempts < $1.attempts }
      return .number(
        NumberFigures(
          wins: wins.count, losses: results.count - wins.count,
          winRate: results.isEmpty ? nil : Double(wins.count) / Double(results.count),
          currentStreak: current, bestStreak: best, attemptsHistogram: histogram))
    case .colorMatch:
      let trials = summaries(games, as: ColorMatchGame.Summary.self).flatMap(\.trialRecords)
      let congruent = mean(trials.filter(\.congruent).map { Double($0.reactionMs) })
      let incongruent = mean(trials.filter { !$0.congruent }.map { Double($0.reactionMs) })
      let correct = trials.filter(\.correct).count
      return .colorMatch(
        ColorMatchFigures(
          trials: trials.count, correct: correct,
          accuracy: trials.isEmpty ? nil : Double(correct) / Double(trials.count),
          meanReactionMsCongruent: congruent, meanReactionMsIncongruent: incongruent,
          interferenceMs: congruent.flatMap { c in incongruent.map { $0 - c } }))
    case .bullseye:
      let rounds = summaries(games, as: BullseyeGame.Summary.self).flatMap(\.rounds)
      return .bullseye(
        BullseyeFigures(
          rounds: rounds.count, averageRound: mean(rounds.map { Double($0.score) }),
          bestRound: rounds.map(\.score).max()))
    case .guessOrPass, .pictureQuiz:
      var best: [String: Int] = [:]
      for game in games {
        guard let variant = game.variant else { continue }
        best[variant] = max(best[variant] ?? game.score, game.score)
      }
      return .best(BestByVariant(bestOverall: games.map(\.score).max(), bestByVariant: best))
    }
  }
}
