import Foundation
import GuessworkContent
public import GuessworkCore
import GuessworkJSON
public import GuessworkStore
import Synchronization

/// Decoded game states by game, each with its version and the JSON it was decoded from: a hit
/// counts only when that version and JSON are the ones asked about (the same string, usually,
/// so comparing is immediate). One entry per game (``LatestVersions``), the ones in use kept.
public final class DecodedStates<G: Game>: Sendable {
  public static var capacity: Int { 8192 }

  /// And at most this many bytes, as ``size`` counts them.
  public static var byteCapacity: Int { 16 << 20 }

  /// The game kept as `any Game`, so that the cache's type does not depend on `G`: in the
  /// engine's generic code (the only code before its moves were specialized for each game, and
  /// still a game's not listed there) a `LatestVersions` of `(String, G)` asked the runtime for
  /// its types on every look-up and store (perf, BENCHMARKS.md).
  private let states = LatestVersions<DecodedState>(
    capacity: capacity, byteCapacity: byteCapacity,
    weigh: { gameID, entry in 64 + gameID.utf8.count + 2 * entry.json.utf8.count })

  public init() {}

  /// Entries and bytes: the JSON kept, and as much again for the decoded game.
  public var size: CacheSize { states.size }

  public subscript(gameID: String, version: Int) -> (json: String, game: G)? {
    get {
      guard let entry = states[gameID, version], let game = entry.game as? G else { return nil }
      return (entry.json, game)
    }
    set {
      // Not `newValue.map`: generic code here, it asked the runtime for its types.
      if let newValue {
        states[gameID, version] = DecodedState(json: newValue.json, game: newValue.game)
      } else {
        states[gameID, version] = nil
      }
    }
  }
}

/// A game state kept decoded (``DecodedStates``), with the JSON it was decoded from. Not nested
/// in the generic class, where it would be generic too.
private struct DecodedState: Sendable {
  var json: String
  var game: any Game
}

/// Values decoded from JSON lately, by the JSON (bounded, ``RecentlyUsed``).
final class Decoded<Value: Sendable>: Sendable {
  private let values: Mutex<RecentlyUsed<String, Value>>

  /// At most `capacity` values, and about `byteCapacity` bytes (the JSON twice: as a key and
  /// as the value decoded from it).
  init(capacity: Int, byteCapacity: Int = 8 << 20) {
    values = Mutex(
      RecentlyUsed(
        capacity: capacity, byteCapacity: byteCapacity,
        weigh: { json, _ in 64 + 2 * json.utf8.count }
      ))
  }

  func value(for json: String, decode: () -> Value) -> Value {
    if let known = values.withLock({ $0[json] }) { return known }
    let value = decode()
    values.withLock { $0[json] = value }
    return value
  }
}
