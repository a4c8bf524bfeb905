import GuessworkStore
import NIOCore
import Synchronization

/// The answer to a read of each untimed game in play, encoded, by game: such a game reads the
/// same until it moves. Its view does not change with time (a rule each untimed game keeps,
/// `TimeCompositionTests`), and a move makes a new version, so an answer is given only for the
/// version it was made from: one made before a move, here or on another instance, is never
/// given. A page reads its game as it loads and as it comes back to it; building the view and
/// its JSON was a third of a read's CPU (BENCHMARKS.md).
///
/// Bounded (``RecentlyUsed``): the games in play are kept, the ones left alone fall out.
final class ReadReplies: Sendable {
  static let capacity = 8192
  static let byteCapacity = 8 << 20

  private let replies = Mutex(
    RecentlyUsed<String, (version: Int, body: ByteBuffer)>(
      capacity: capacity, byteCapacity: byteCapacity,
      weigh: { gameID, value in 64 + gameID.utf8.count + value.body.readableBytes }))

  /// The answer kept for version `version` of game `gameID`, if that is the version kept.
  func body(gameID: String, version: Int) -> ByteBuffer? {
    guard let kept = replies.withLock({ $0[gameID] }), kept.version == version else {
      return nil
    }
    return kept.body
  }

  /// Keeps `body` as the answer for version `version` of game `gameID` (the one before it,
  /// which will not be asked for again, is forgotten).
  func keep(_ body: ByteBuffer, gameID: String, version: Int) {
    replies.withLock { $0[gameID] = (version, body) }
  }

  /// Entries and bytes: the answers, and a fixed part each.
  var size: CacheSize {
    replies.withLock { $0.size }
  }
}
