import Foundation
import GuessworkCore
import GuessworkStore
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// How fast one client may make players, and one player start games and move: limits that a
/// person at a game never meets and a script does. Each is a bucket of `count` that refills
/// evenly over `seconds`; a request that finds it empty gets `429` with `Retry-After`.
public struct RateLimits: Sendable, Equatable {
  public struct Limit: Sendable, Equatable {
    public var count: Int
    public var seconds: Int

    public init(count: Int, seconds: Int) {
      self.count = count
      self.seconds = seconds
    }
  }

  /// New players per client address.
  public var players: Limit?
  /// New games (daily puzzles included) per player.
  public var games: Limit?
  /// Actions per player, over all their games.
  public var moves: Limit?
  /// Rooms looked up or joined per client address: join codes cannot be tried quickly.
  public var rooms: Limit?

  /// What is limited, named as in the setting.
  enum Kind: String, Sendable {
    case players, games, moves, rooms

    var limit: WritableKeyPath<RateLimits, Limit?> {
      switch self {
      case .players: \.players
      case .games: \.games
      case .moves: \.moves
      case .rooms: \.rooms
      }
    }
  }

  public init(
    players: Limit? = nil, games: Limit? = nil, moves: Limit? = nil, rooms: Limit? = nil
  ) {
    self.players = players
    self.games = games
    self.moves = moves
    self.rooms = rooms
  }

  /// A household making players for everyone at the table, a game started every ten seconds,
  /// ten answers a second for ten seconds running: all within these.
  public static let standard = RateLimits(
    players: Limit(count: 20, seconds: 3600), games: Limit(count: 30, seconds: 300),
    moves: Limit(count: 100, seconds: 10), rooms: Limit(count: 30, seconds: 60))
  public static let off = RateLimits()

  /// `off`, or limits as `players=20/3600,games=30/300,moves=100/10` (count per seconds); a
  /// limit not named keeps its standard value, and `name=off` turns one off.
  public static func parse(_ text: String) throws -> RateLimits {
    let text = text.trimmingCharacters(in: .whitespaces)
    if text.lowercased() == "off" { return .off }
    var limits = RateLimits.standard
    for part in text.split(separator: ",") {
      let pair = part.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let limit: Limit?
      if pair.count == 2, pair[1].lowercased() == "off" {
        limit = nil
      } else if pair.count == 2, case let numbers = pair[1].split(separator: "/"),
        numbers.count == 2, let count = Int(numbers[0]), let seconds = Int(numbers[1]),
        count > 0, seconds > 0
      {
        limit = Limit(count: count, seconds: seconds)
      } else {
        throw RateLimitsError(part: String(part))
      }
      guard let kind = Kind(rawValue: pair[0]) else { throw RateLimitsError(part: String(part)) }
      limits[keyPath: kind.limit] = limit
    }
    return limits
  }
}

/// A rate limit setting that cannot be read.
public struct RateLimitsError: Error, CustomStringConvertible {
  let part: String
  public var description: String {
    "Cannot read the rate limit \"\(part)\": write off, or players=, games=, moves= or rooms= with count/seconds (moves=100/10), separated by commas."
  }
}

/// The buckets, by kind and key (a client address or a player id), kept for the keys in use
/// (``RecentlyUsed``: a key left alone long enough starts again with a full bucket, which is
/// what it would have refilled to anyway).
final class RateLimiter: Sendable {
  typealias Kind = RateLimits.Kind

  private struct Bucket: Sendable {
    var tokens: Double
    var at: ContinuousClock.Instant
  }

  let limits: RateLimits
  private let buckets = Mutex(RecentlyUsed<String, Bucket>(capacity: 100_000))

  init(_ limits: RateLimits) {
    self.limits = limits
  }

  /// Takes one from `key`'s bucket of `kind`, or throws `429` saying when to try again.
  func admit(_ kind: Kind, key: String, now: ContinuousClock.Instant = .now) throws {
    guard let limit = limits[keyPath: kind.limit] else { return }
    let perSecond = Double(limit.count) / Double(limit.seconds)
    let wait: Double? = buckets.withLock { buckets in
      let id = "\(kind.rawValue) \(key)"
      var bucket = buckets[id] ?? Bucket(tokens: Double(limit.count), at: now)
      let elapsed = now - bucket.at
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      bucket.tokens = min(Double(limit.count), bucket.tokens + seconds * perSecond)
      bucket.at = now
      defer { buckets[id] = bucket }
      guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
      bucket.tokens -= 1
      return nil
    }
    guard let wait else { return }
    var error = APIError(
      .tooManyRequests, "too-many-requests", "error.tooManyRequests",
      ["kind": .text("\(kind.rawValue)"), "int": .text("\(Int(wait.rounded(.up)))")])
    error.retryAfter = max(1, Int(wait.rounded(.up)))
    throw error
  }
}

/// A request's context, with the address of the client that sent it (for per-client limits).
struct GuessworkContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let remoteAddress: SocketAddress?
  /// Where a room's socket keeps its handler once the request asks for the upgrade.
  let webSocket: WebSocketHandlerReference<Self>

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
    webSocket = .init()
  }
}
