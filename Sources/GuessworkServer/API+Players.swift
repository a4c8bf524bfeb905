import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

// MARK: Players: joining, who I am, my name, language and avatar, my statistics

extension API {
  func addPlayerRoutes(to router: Router<some RemoteAddressRequestContext>) {
    router.post("/api/players") { request, context in
      try limiter.admit(.players, key: client(request, address: context.remoteAddress))
      return try await createPlayer(request)
    }
    addSignInRoutes(to: router)
    router.get("/api/session") { request, _ in
      json(Session(player: try await identity.player(of: request).map(PlayerView.init)))
    }
    router.get("/api/me") { request, _ in
      json(PlayerView(try await identity.requirePlayer(of: request)))
    }
    router.patch("/api/me") { request, _ in try await updateMe(request) }
    router.put("/api/me/avatar") { request, _ in try await putAvatar(request) }
    router.get("/api/players/{id}/avatar") { request, context in
      try await avatar(request, id: context.parameters.require("id"))
    }
    router.get("/api/me/stats") { request, _ in
      let playerID = try await identity.requirePlayerID(of: request)
      // A round whose time ran out counts, even before the background sweep reaches it.
      try await finishExpiredGames(playerID: playerID)
      return json(
        encoded: try await book.statisticsJSON(
          playerID: playerID, now: clock().milliseconds,
          catalog: catalog(request.language)))
    }
  }

  /// Who this browser is, if anyone yet: a first visit gets `{"player": null}`, not an error.
  struct Session: Encodable {
    var player: PlayerView?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(player, forKey: .player)
    }

    enum CodingKeys: String, CodingKey { case player }
  }

  private struct NewPlayer: Decodable {
    var name: String
  }

  func createPlayer(_ request: Request) async throws -> Response {
    let input = try JSONDecoder().decode(NewPlayer.self, from: try await body(of: request))
    let name = try PlayerRules.validName(input.name)
    let token = PlayerIdentity.newToken()
    let record = PlayerRecord(
      id: UUID().uuidString.lowercased(), name: name,
      preferences: try CompactJSON.string(Preferences()),
      createdAt: clock().milliseconds)
    try await store.insertPlayer(record, tokenHash: PlayerIdentity.hash(token))
    var response = json(PlayerView(record), status: .created)
    response.setCookie(identity.cookie(for: token))
    return response
  }

  private struct PlayerChanges: Decodable {
    var name: String?
    var preferences: PreferenceChanges?
  }

  /// The preferences a `PATCH` names; the others keep their values.
  private struct PreferenceChanges: Decodable {
    var inputMode: Preferences.InputMode?
    var sound: Bool?
    var theme: Preferences.Theme?
    var language: Preferences.LanguageChoice?
  }

  func updateMe(_ request: Request) async throws -> Response {
    var player = try await identity.requirePlayer(of: request)
    let changes = try JSONDecoder().decode(PlayerChanges.self, from: try await body(of: request))
    if let name = changes.name { player.name = try PlayerRules.validName(name) }
    if let changed = changes.preferences {
      var preferences = PlayerView(player).preferences
      if let inputMode = changed.inputMode { preferences.inputMode = inputMode }
      if let sound = changed.sound { preferences.sound = sound }
      if let theme = changed.theme { preferences.theme = theme }
      if let language = changed.language { preferences.language = language }
      player.preferences = try CompactJSON.string(preferences)
    }
    try await store.updatePlayer(
      id: player.id, name: player.name, preferences: player.preferences,
      at: clock().milliseconds)
    return json(PlayerView(player))
  }

  func putAvatar(_ request: Request) async throws -> Response {
    var player = try await identity.requirePlayer(of: request)
    let data: Data
    do {
      data = try await anyBody(of: request, limit: PlayerRules.maxAvatarBytes)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw APIError(.contentTooLarge, "too-large", "error.avatarTooLarge")
    }
    guard let type = PlayerRules.imageType(of: data) else {
      throw APIError(.unsupportedMediaType, "unsupported-media-type", "error.avatarType")
    }
    try await store.setAvatar(
      playerID: player.id, Avatar(contentType: type, data: data), at: clock().milliseconds)
    player.hasAvatar = true
    return json(PlayerView(player))
  }

  /// A player's own avatar, or the avatar of a player on a leaderboard (whose name and
  /// picture the leaderboards show everyone); anyone else's does not exist for the asker.
  func avatar(_ request: Request, id: String) async throws -> Response {
    let playerID = try await identity.requirePlayerID(of: request)
    let shown = playerID == id ? true : try await store.isOnLeaderboard(playerID: id)
    guard shown else { throw APIError.notFound("avatar") }
    return try await avatarPicture(of: id)
  }

  /// Player `id`'s picture, to someone allowed to see it.
  func avatarPicture(of id: String) async throws -> Response {
    guard let avatar = try await store.avatar(playerID: id) else {
      throw APIError.notFound("avatar")
    }
    return Response(
      status: .ok,
      headers: [.contentType: avatar.contentType, .cacheControl: "private, no-cache"],
      body: .init(byteBuffer: ByteBuffer(bytes: avatar.data)))
  }
}
