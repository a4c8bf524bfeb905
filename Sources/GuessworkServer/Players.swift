import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat
import Synchronization

/// Who is asking: players are identified by a random 256-bit token in an `HttpOnly`,
/// `SameSite=Lax` cookie. Only the token's SHA-256 is stored, so a leaked database cannot
/// be used to act as anyone.
struct Identity: Sendable {
  static let cookieName = "guesswork_player"
  let store: any GuessworkStore
  let secureCookies: Bool
  let knownPlayers = KnownPlayers()
  /// The sockets open here by key, closed when their key is revoked.
  let sockets = KeySockets()

  /// The token in this request's cookie, if it has the shape of one (the last one, when the
  /// cookie is sent twice). Read straight from the header: every move and read asks, and
  /// parsing every cookie into a table took 5% of a read (BENCHMARKS.md).
  static func token(of request: Request) -> String? {
    var token: Substring?
    for header in request.headers[values: .cookie] {
      // Each `name=value` pair, its leading spaces skipped; the last one of ours wins.
      var rest = header.utf8[...]
      while !rest.isEmpty {
        let end = rest.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
        let pair = rest[..<end].drop { $0 == UInt8(ascii: " ") }
        if pair.starts(with: cookiePrefix.utf8) {
          token = Substring(pair.dropFirst(cookiePrefix.utf8.count))
        }
        rest = rest[end...].dropFirst()
      }
    }
    guard let token, PlayerIdentity.looksLikeToken(token) else { return nil }
    return String(token)
  }

  /// What a cookie of ours begins with (`guesswork_player=`): every request a player makes is
  /// known by it, so the headers are searched for it without building anything.
  private static let cookiePrefix = "\(cookieName)="

  func cookie(for token: String) -> Cookie {
    Cookie(
      name: Self.cookieName, value: token, maxAge: 400 * 24 * 3600, path: "/",
      secure: secureCookies, httpOnly: true, sameSite: .lax)
  }

  /// The cookie that tells a browser to forget its token.
  var signedOutCookie: Cookie {
    Cookie(
      name: Self.cookieName, value: "", maxAge: 0, path: "/", secure: secureCookies,
      httpOnly: true, sameSite: .lax)
  }

  /// The player of this request, or `nil` when it carries no valid cookie.
  func player(of request: Request) async throws -> PlayerRecord? {
    guard let token = Self.token(of: request) else {
      return nil
    }
    return try await store.player(tokenHash: PlayerIdentity.hash(token))
  }

  /// The player of this request, or a 401 that says how to become one.
  func requirePlayer(of request: Request) async throws -> PlayerRecord {
    guard let player = try await player(of: request) else { throw APIError.noPlayer }
    return player
  }

  /// The id of this request's player, or a 401. A token always names the same player, so
  /// the answer is remembered: the routes of a game ask on every move.
  func requirePlayerID(of request: Request) async throws -> String {
    guard let id = try await playerID(of: request) else { throw APIError.noPlayer }
    return id
  }

  /// The id of this request's player, if it has one (remembered, as above).
  func playerID(of request: Request) async throws -> String? {
    guard let token = Self.token(of: request) else {
      return nil
    }
    if let id = knownPlayers.id(for: token) { return id }
    guard let player = try await store.player(tokenHash: PlayerIdentity.hash(token)) else {
      return nil
    }
    knownPlayers.remember(player.id, for: token)
    return player.id
  }
}

/// Player ids by token, remembered up to a bound (then forgotten all at once) and for a
/// minute each: a token replaced on another instance stops working here within that minute.
/// By the token itself, which every request carries anyway: hashing it on each one was 1.6% of
/// a read's CPU (perf). Only the hash is ever stored.
final class KnownPlayers: Sendable {
  private let ids = Mutex<[String: (id: String, until: ContinuousClock.Instant)]>([:])
  static let capacity = 50_000
  static let lifetime = Duration.seconds(60)

  func id(for token: String) -> String? {
    ids.withLock { known in
      guard let entry = known[token] else { return nil }
      return entry.until > .now ? entry.id : nil
    }
  }

  func remember(_ id: String, for token: String) {
    ids.withLock {
      if $0.count >= Self.capacity { $0.removeAll(keepingCapacity: true) }
      $0[token] = (id, .now + Self.lifetime)
    }
  }

  /// A token replaced or signed out here stops working here at once.
  func forget(_ token: String) {
    _ = ids.withLock { $0.removeValue(forKey: token) }
  }
}

/// A player's preferences, stored with the player.
struct Preferences: Codable, Equatable, Sendable {
  /// How Guess or Pass takes answers.
  enum InputMode: String, Codable, Sendable, CaseIterable {
    case buttons, swipes, tilts, all
  }
  var inputMode: InputMode = .all
  /// Whether the games make sounds (the header's mute switch).
  var sound: Bool = true
  /// The page's colours: the system's light or dark, or one chosen in settings.
  enum Theme: String, Codable, Sendable, CaseIterable {
    case system, light, dark, contrast
  }
  var theme: Theme = .system
  /// The language the pages speak: one chosen in settings, or `auto` for the browser's own.
  enum LanguageChoice: String, Codable, Sendable, CaseIterable {
    case auto, en, es, ru

    /// The language chosen; nil for `auto` (the browser's own).
    var spoken: Language? { Language(rawValue: rawValue) }
  }
  var language: LanguageChoice = .auto

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    inputMode = try container.decodeIfPresent(InputMode.self, forKey: .inputMode) ?? .all
    sound = try container.decodeIfPresent(Bool.self, forKey: .sound) ?? true
    theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? .system
    language = try container.decodeIfPresent(LanguageChoice.self, forKey: .language) ?? .auto
  }
}

/// What `GET /api/me` answers.
struct PlayerView: Encodable {
  var id: String
  var name: String
  var avatarURL: String?
  var preferences: Preferences
  var createdAt: Int64

  init(_ record: PlayerRecord) {
    id = record.id
    name = record.name
    avatarURL = record.hasAvatar ? "/api/players/\(record.id)/avatar" : nil
    preferences =
      (try? JSONDecoder().decode(Preferences.self, from: Data(record.preferences.utf8)))
      ?? Preferences()
    createdAt = record.createdAt
  }
}

enum PlayerRules {
  static let maxAvatarBytes = 256 * 1024

  /// A name as every part of Guesswork accepts it (``PlayerIdentity/validName(_:)``), or a 400.
  static func validName(_ raw: String) throws -> String {
    do {
      return try PlayerIdentity.validName(raw)
    } catch {
      throw APIError(.badRequest, "invalid-name", [error.message])
    }
  }

  /// The image type of `data` judged by its first bytes, never by what the client claims.
  static func imageType(of data: Data) -> String? {
    let bytes = [UInt8](data.prefix(12))
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
      return "image/gif"
    }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      return "image/webp"
    }
    return nil
  }
}
