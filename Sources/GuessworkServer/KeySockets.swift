import Foundation
import Synchronization

/// The sockets open on this instance, by the device key (token) that opened them, so that a
/// key's sockets end when the key is revoked: signed out, replaced by a new key, or given up
/// for a sign-in link. A socket otherwise outlives its key: a play socket would still move and a
/// room socket still receive the room.
final class KeySockets: Sendable {
  /// One open socket: whether its key has been revoked (checked before each message it
  /// reads, so that nothing is taken once the revocation is answered), and how to close it.
  final class Socket: Sendable {
    let token: String
    let id = UUID()
    fileprivate let close: @Sendable () async -> Void
    private let revoked = Atomic<Bool>(false)

    fileprivate init(token: String, close: @escaping @Sendable () async -> Void) {
      self.token = token
      self.close = close
    }

    var isRevoked: Bool { revoked.load(ordering: .acquiring) }
    fileprivate func revoke() { revoked.store(true, ordering: .releasing) }
  }

  private let open = Mutex<[String: [UUID: Socket]]>([:])

  /// Remembers a socket opened with `token` (nil: opened without a key, never revoked).
  func add(token: String?, close: @escaping @Sendable () async -> Void) -> Socket? {
    guard let token else { return nil }
    let socket = Socket(token: token, close: close)
    open.withLock { $0[token, default: [:]][socket.id] = socket }
    return socket
  }

  func remove(_ socket: Socket?) {
    guard let socket else { return }
    open.withLock {
      $0[socket.token]?[socket.id] = nil
      if $0[socket.token]?.isEmpty == true { $0[socket.token] = nil }
    }
  }

  /// Ends every socket opened with `token`: each takes no message from now on, then closes.
  func revoke(_ token: String) async {
    let sockets = open.withLock { $0.removeValue(forKey: token) ?? [:] }
    for socket in sockets.values { socket.revoke() }
    for socket in sockets.values { await socket.close() }
  }
}
