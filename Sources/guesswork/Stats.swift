import ArgumentParser
import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore

#if canImport(Glibc)
  import Glibc
#endif

/// `guesswork stats`: the local player's statistics, computed by the same `Statistics` as the server's
/// from the same store, so the terminal and the browser's statistics page agree.
struct Stats: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the local player's statistics (games played in the terminal).",
    discussion: """
      The figures are the ones the browser's statistics page shows for the same player. To see \
      them there, start `guesswork serve` on the same data and open the link that \
      --browser-link prints: it signs that browser in as the local player.
      """)

  @Option(
    help:
      "The folder of guesswork.sqlite, as for `guesswork serve` (GUESSWORK_DATA_DIR; default .)."
  )
  var dataDir: String?

  @Flag(help: "Print the statistics as the API's JSON (GET /api/me/stats).")
  var json = false

  @Flag(help: "Print a one-use link (ten minutes) that signs a browser in as the local player.")
  var browserLink = false

  @Option(help: "The server's address for --browser-link.") var host = "127.0.0.1"
  @Option(help: "The server's port for --browser-link.") var port = 8080
  @Option(help: "The language: en, es or ru (default: from LANG, else English).")
  var lang: Language?

  func run() async throws {
    if let lang { Speech.use(lang) }
    let data = LocalData(dataDirectory: dataDir)
    let store = try await data.openStore()
    guard let (player, _) = try await data.localPlayer(in: store) else {
      try? await store.close()
      print("No games yet: play one with `guesswork play`.")
      return
    }
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    if browserLink {
      // A one-use code, good for ten minutes, that the browser confirms: never the token.
      let (code, _) = try await LinkCode.issue(for: player.id, in: store, at: now)
      try? await store.close()
      print("http://\(host):\(port)/link.html#\(code)")
      print("Open it within ten minutes, once; it signs that browser in as \(player.name).")
      return
    }
    let statistics = try await StatisticsBook(store: store, engines: GameEngines())
      .statistics(playerID: player.id, now: now)
    try? await store.close()
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      print(
        String(decoding: try encoder.encode(statistics.rendered(Speech.catalog)), as: UTF8.self))
      return
    }
    let colour =
      isatty(STDOUT_FILENO) == 1
      && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    print(StatsReport(player: player.name, statistics: statistics, colour: colour).text)
  }
}

/// The statistics as text: a table per game and a small bar chart of its last scores.
struct StatsReport {
  let player: String
  let statistics: Statistics
  let colour: Bool

  private func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
  private func bar(_ text: String) -> String { colour ? "\u{1B}[36m\(text)\u{1B}[0m" : text }

  var text: String {
    var lines = [bold(Speech.say("terminal.stats.title", ["player": .text(player)])), ""]
    func streak(_ daily: Statistics.Streak) -> String {
      Speech.say(
        "terminal.stats.streak", ["current": .int(daily.current), "best": .int(daily.best)])
    }
    if let daily = statistics.daily {
      lines.append(row(Speech.say("terminal.stats.dailySet"), streak(daily)))
      lines.append("")
    }
    for game in statistics.games {
      lines.append(bold(Speech.say(game.title)))
      lines.append(row(Speech.say("terminal.stats.played"), String(game.played)))
      if let daily = game.daily {
        lines.append(row(Speech.say("terminal.stats.dailyStreak"), streak(daily)))
      }
      guard game.played > 0 else {
        lines.append("")
        continue
      }
      lines.append(row(Speech.say("terminal.stats.best"), game.bestScore.map(String.init) ?? "–"))
      lines.append(
        row(
          Speech.say("terminal.stats.lastScores"),
          game.lastScores.suffix(10).map(String.init).joined(separator: " ")))
      lines += figures(game.figures, of: game.game)
      lines.append("  " + Speech.say("terminal.stats.chart"))
      lines += chart(game.lastScores.suffix(10).map { ("", $0) })
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  private func row(_ label: String, _ value: String) -> String {
    "  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value
  }

  private func percent(_ value: Double?) -> String {
    value.map { "\(Int(($0 * 100).rounded()))%" } ?? "–"
  }

  private func ms(_ value: Double?) -> String {
    value.map { "\(Int($0.rounded())) ms" } ?? "–"
  }

  /// A game's own figures, each read as its format says.
  private func figures(_ figures: Figures, of game: String) -> [String] {
    figures.list.flatMap { figure -> [String] in
      let said = Speech.say(figure.info(keyPrefix: game).label)
      let label = said.prefix(1).lowercased() + said.dropFirst()
      switch figure.value {
      case .count(let value): return [row(label, String(value))]
      case .score(let value): return [row(label, value.map(String.init) ?? "–")]
      case .percent(let value): return [row(label, percent(value))]
      case .milliseconds(let value): return [row(label, ms(value))]
      case .decimal(let value):
        return [row(label, value.map { String(format: "%.1f", $0) } ?? "–")]
      case .bars(let bars, _, _):
        guard !bars.isEmpty else { return [] }
        return ["  \(label):"] + chart(bars.map { ("\($0.label)", $0.value) })
      case .byVariant(let best):
        return best.keys.sorted().map {
          row(Speech.say("terminal.stats.bestIn", ["variant": .text($0)]), String(best[$0]!))
        }
      }
    }
  }

  /// Horizontal bars scaled to the largest value (negative scores draw as empty bars).
  private func chart(_ values: [(label: String, value: Int)]) -> [String] {
    let largest = max(1, values.map(\.value).max() ?? 1)
    let labelWidth = values.map(\.label.count).max() ?? 0
    return values.map { label, value in
      let length = max(0, value) * 30 / largest
      let padded = String(repeating: " ", count: labelWidth - label.count) + label
      return "  " + padded + (labelWidth > 0 ? " " : "") + "│"
        + bar(String(repeating: "█", count: length))
        + " " + String(value)
    }
  }
}
