import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird

/// Signing devices in and out. A player has a token per device. A one-use code signs another
/// device in (`guesswork stats --browser-link` prints one for the terminal's player; Settings
/// makes one for the browser's), once its holder confirms on `link.html`, which says who the
/// code signs in as and who this browser stops being. A device can sign out, or take a new
/// token (a copied cookie then signs nothing in).
extension API {
  /// Who a code signs in as, and who this browser is now (what the confirmation page shows).
  struct LinkCodeView: Encodable {
    var player: PlayerView
    /// This browser's player now, if any: signing in signs it out here.
    var current: PlayerView?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(player, forKey: .player)
      try container.encode(current, forKey: .current)
    }

    enum CodingKeys: String, CodingKey { case player, current }
  }

  /// A new code for this player, to sign in another device.
  struct NewLinkCode: Encodable {
    var code: String
    /// Where to open it, on this server.
    var path: String
    var expiresAt: Int64
  }

  static let unknownCode = APIError(.notFound, "not-found", "error.signInLink")

  func addSignInRoutes(to router: Router<some RemoteAddressRequestContext>) {
    router.get("/api/link-codes/{code}") { request, context in
      // Codes are short: guessing them is charged to the client, as looking up rooms is.
      try limiter.admit(.rooms, key: client(request, address: context.remoteAddress))
      let hash = try Self.codeHash(context.parameters.require("code"))
      guard let playerID = try await store.linkCodePlayer(hash: hash, at: clock().milliseconds),
        let player = try await store.player(id: playerID)
      else { throw Self.unknownCode }
      let current = try await identity.player(of: request)
      return json(LinkCodeView(player: PlayerView(player), current: current.map(PlayerView.init)))
    }
    router.post("/api/link-codes/{code}") { request, context in
      try limiter.admit(.rooms, key: client(request, address: context.remoteAddress))
      let hash = try Self.codeHash(context.parameters.require("code"))
      try await emptyBody(of: request)  // JSON or nothing: no cross-site form can use a code
      let now = clock().milliseconds
      guard let playerID = try await store.useLinkCode(hash: hash, at: now),
        let player = try await store.player(id: playerID)
      else { throw Self.unknownCode }
      if let old = Identity.token(of: request) { try await signOut(token: old) }
      let token = PlayerIdentity.newToken()
      try await store.addToken(playerID: player.id, tokenHash: PlayerIdentity.hash(token), at: now)
      var response = json(PlayerView(player))
      response.setCookie(identity.cookie(for: token))
      return response
    }
    router.post("/api/me/link-codes") { request, _ in
      let player = try await identity.requirePlayer(of: request)
      try limiter.admit(.games, key: player.id)
      try await emptyBody(of: request)
      let (code, expiresAt) = try await LinkCode.issue(
        for: player.id, in: store, at: clock().milliseconds)
      return json(
        NewLinkCode(code: code, path: "/link.html#\(code)", expiresAt: expiresAt), status: .created)
    }
    router.post("/api/me/sign-out") { request, _ in
      // JSON or nothing, like every JSON route: a cross-site form cannot sign a visitor out.
      try await emptyBody(of: request)
      var response = Response(status: .noContent)
      if let token = Identity.token(of: request) {
        try await signOut(token: token)
        response.setCookie(identity.signedOutCookie)
      }
      return response
    }
    router.post("/api/me/token") { request, _ in
      let player = try await identity.requirePlayer(of: request)
      guard let old = Identity.token(of: request) else { throw APIError.noPlayer }
      let token = PlayerIdentity.newToken()
      guard
        try await store.replaceToken(
          PlayerIdentity.hash(old), with: PlayerIdentity.hash(token), at: clock().milliseconds)
      else { throw APIError.noPlayer }
      identity.knownPlayers.forget(old)
      await identity.sockets.revoke(old)
      var response = json(PlayerView(player))
      response.setCookie(identity.cookie(for: token))
      return response
    }
  }

  /// The device with `token` signs nothing in any more.
  private func signOut(token: String) async throws {
    try await store.removeToken(PlayerIdentity.hash(token))
    identity.knownPlayers.forget(token)
    await identity.sockets.revoke(token)
  }

  private static func codeHash(_ code: String) throws -> String {
    guard LinkCode.looksLikeCode(code) else { throw unknownCode }
    return PlayerIdentity.hash(code)
  }
}
