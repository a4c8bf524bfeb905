import Foundation
import Synchronization

/// The sockets open on this instance, by the device key (token) that opened them, so that a
/// key's sockets close when the key is revoked: signed out, replaced by a new key, or given up
/// for a sign-in link. A socket otherwise outlives its key: a play socket would still move and a
/// room socket still receive the room.
final class KeySockets: Sendable {
  /// Closes one socket.
  typealias Close = @Sendable () async -> Void

  private let open = Mutex<[String: [UUID: Close]]>([:])

  /// Remembers a socket opened with `token`; returns what `remove` takes when it closes.
  func add(token: String?, close: @escaping Close) -> (token: String, id: UUID)? {
    guard let token else { return nil }
    let id = UUID()
    open.withLock { $0[token, default: [:]][id] = close }
    return (token, id)
  }

  func remove(_ registration: (token: String, id: UUID)?) {
    guard let registration else { return }
    open.withLock {
      $0[registration.token]?[registration.id] = nil
      if $0[registration.token]?.isEmpty == true { $0[registration.token] = nil }
    }
  }

  /// Closes every socket opened with `token`.
  func revoke(_ token: String) async {
    let closes = open.withLock { $0.removeValue(forKey: token) ?? [:] }
    for close in closes.values { await close() }
  }
}
