import ArgumentParser
import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkStore

/// `guesswork rooms`: the open party rooms of the local server's database, for an operator.
struct RoomsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rooms",
    abstract: "List the open party rooms: code, host, players, what they are doing.")

  @OptionGroup var store: StoreOptions

  @Option(help: "At most this many rooms, the most recently active first.")
  var limit = 100

  func run() async throws {
    guard (1...10_000).contains(limit) else {
      throw ValidationError("--limit must be from 1 to 10000.")
    }
    let store = try await store.open()
    let records = try await store.openRooms(limit: limit)
    var hosts: [String: String] = [:]
    for record in records where hosts[record.hostID] == nil {
      hosts[record.hostID] = try await store.player(id: record.hostID)?.name ?? "?"
    }
    try await store.close()
    guard !records.isEmpty else {
      print("No open rooms.")
      return
    }
    print(
      "\("code".padded(to: 7)) \("host".padded(to: 16)) \("players".padded(to: 8)) \("doing".padded(to: 30)) last active (UTC)"
    )
    let format = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
      .time(includingFractionalSeconds: false)
    for record in records {
      let state = try? RoomState(encoded: record.state, version: record.version)
      let doing = state.map(Self.doing) ?? "(unreadable)"
      let active = Date(timeIntervalSince1970: Double(record.updatedAt) / 1000).formatted(format)
      print(
        "\(record.code.padded(to: 7)) \((hosts[record.hostID] ?? "?").padded(to: 16)) \(String(record.players).padded(to: 8)) \(doing.padded(to: 30)) \(active)"
      )
    }
  }

  /// What a room is doing, in a few words.
  static func doing(_ state: RoomState) -> String {
    let game = state.room.choice?.kind.rawValue
    switch state.room.phase {
    case .lobby: return game.map { "lobby, \($0) chosen" } ?? "lobby"
    case .playing: return "playing \(game ?? "?")"
    case .podium: return "podium of \(game ?? "?")"
    case .closed: return "closed"
    }
  }
}
