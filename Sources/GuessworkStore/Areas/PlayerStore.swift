public import Foundation

/// Players: who they are, the tokens that sign them in, link codes, avatars.
public protocol PlayerStore: Sendable {
  /// A new player, signed in on one device with the token `tokenHash` names.
  func insertPlayer(_ player: PlayerRecord, tokenHash: String) async throws
  func player(tokenHash: String) async throws -> PlayerRecord?
  func player(id: String) async throws -> PlayerRecord?
  /// Changes the name and preferences of a player; `false` when there is no such player.
  @discardableResult
  func updatePlayer(id: String, name: String, preferences: String, at: Int64) async throws -> Bool
  /// Keeps a one-use sign-in code (its hash) for a player until `expiresAt`.
  func insertLinkCode(hash: String, playerID: String, expiresAt: Int64) async throws
  /// The player a sign-in code signs in as, while it is unused and unexpired; it stays unused.
  func linkCodePlayer(hash: String, at now: Int64) async throws -> String?
  /// Uses a sign-in code: its player, once (of two uses at once, one gets `nil`).
  func useLinkCode(hash: String, at now: Int64) async throws -> String?
  /// Deletes the link codes that expired by `now` (used or not).
  func deleteExpiredLinkCodes(at now: Int64) async throws
  /// The ids of the unfinished games of `kinds` created since `since` (of one player, or of
  /// everyone), oldest first, at most `limit`.
  func unfinishedGameIDs(kinds: [String], since: Int64, playerID: String?, limit: Int)
    async throws -> [String]
  /// Signs one more device in as a player (a player has a token per device).
  func addToken(playerID: String, tokenHash: String, at now: Int64) async throws
  /// Signs the device with this token out: the token signs nothing in any more.
  func removeToken(_ tokenHash: String) async throws
  /// Gives the device with token `old` the token `new` instead; `false` when `old` is unknown.
  func replaceToken(_ old: String, with new: String, at now: Int64) async throws -> Bool
  func setAvatar(playerID: String, _ avatar: Avatar, at: Int64) async throws
  func avatar(playerID: String) async throws -> Avatar?
}

public struct PlayerRecord: Sendable, Equatable, Codable {
  public var id: String
  public var name: String
  /// The player's preferences as a JSON object, opaque to the store.
  public var preferences: String
  public var createdAt: Int64
  public var hasAvatar: Bool

  public init(
    id: String, name: String, preferences: String = "{}", createdAt: Int64,
    hasAvatar: Bool = false
  ) {
    self.id = id
    self.name = name
    self.preferences = preferences
    self.createdAt = createdAt
    self.hasAvatar = hasAvatar
  }
}

public struct Avatar: Sendable, Equatable {
  public var contentType: String
  public var data: Data

  public init(contentType: String, data: Data) {
    self.contentType = contentType
    self.data = data
  }
}
