import Foundation
import GuessworkCore
import HTTPTypes
import Hummingbird
import Synchronization

/// What one client and one room may hold, so that nobody can burn the server with rooms and
/// sockets (README, "Configuration").
public struct RoomCaps: Sendable {
  /// Sockets of one player in one room: a newer one closes the oldest.
  public var socketsPerPlayer = 3
  /// Sockets (rooms' and the play socket) open at once from one client address.
  public var socketsPerClient = 200
  /// Sockets into one room.
  public var socketsPerRoom = 500
  /// Open rooms of one host.
  public var roomsPerHost = 5
  /// How often idle rooms are closed, closed rooms purged and expired sign-in codes deleted.
  public var sweepSeconds = 60
  /// How long a closed room is kept before it is deleted.
  public var closedRoomKeptMs: Int64 = 24 * 3600 * 1000

  public init() {}
}

/// The sockets open here by client address: one client cannot hold every file the server has.
final class ClientSockets: Sendable {
  let cap: Int
  private let open = Mutex<[String: Int]>([:])

  init(cap: Int) { self.cap = cap }

  /// Counts a socket of `client` as open, or refuses it (429) when the client holds its cap
  /// already; a socket counted is given back with `closed`.
  func open(_ client: String) throws {
    let admitted = open.withLock {
      guard $0[client, default: 0] < cap else { return false }
      $0[client, default: 0] += 1
      return true
    }
    guard admitted else {
      var error = APIError(
        .tooManyRequests, "too-many-sockets", "error.tooManySockets", ["count": .int(cap)])
      error.retryAfter = 5
      throw error
    }
  }

  func closed(_ client: String) {
    open.withLock {
      $0[client, default: 1] -= 1
      if $0[client] == 0 { $0[client] = nil }
    }
  }
}

extension API {
  /// What every socket upgrade checks: a page of this server opens it (`Origin`, when a
  /// browser sends one, names the host and port asked for, so that a page on another port of
  /// the party laptop cannot). The upgrade is refused then (hummingbird-websocket answers any
  /// refused upgrade with a bare 400, whatever the refusal said).
  func checkSocketOrigin(_ request: Request) throws {
    if let origin = request.headers[.origin], !Self.sameOrigin(origin, as: request) {
      throw APIError(.forbidden, "foreign-origin", "error.foreignOrigin")
    }
  }

  /// Whether `origin` (`scheme://host[:port]`) names the host and port the request was sent to
  /// (its `Host`), default ports included.
  static func sameOrigin(_ origin: String, as request: Request) -> Bool {
    guard let asked = request.head.authority,
      let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host
    else { return false }
    let defaultPort = scheme == "https" ? 443 : 80
    func normalized(_ host: String, _ port: Int?) -> String {
      "\(host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))):\(port ?? defaultPort)"
    }
    guard let parsed = URL(string: "\(scheme)://\(asked)"), let askedHost = parsed.host else {
      return false
    }
    return normalized(host, url.port) == normalized(askedHost, parsed.port)
  }
}
