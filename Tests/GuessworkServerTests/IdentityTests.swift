import Foundation
import GuessworkPlay
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import GuessworkServer

@Suite("Who is asking: the token in the cookies, and its hash")
struct IdentityTests {
  static func request(cookies: [String]) -> Request {
    var fields = HTTPFields()
    for cookie in cookies { fields.append(HTTPField(name: .cookie, value: cookie)) }
    return Request(
      head: HTTPRequest(
        method: .get, scheme: "http", authority: "localhost", path: "/api/me",
        headerFields: fields),
      body: RequestBody(buffer: ByteBuffer()))
  }

  @Test("The token is found among other cookies, in any of the headers; the last one counts")
  func tokenAmongCookies() {
    let token = PlayerIdentity.newToken()
    let other = PlayerIdentity.newToken()
    let cases: [(cookies: [String], token: String?)] = [
      ([], nil),
      (["guesswork_player=\(token)"], token),
      (["a=1; guesswork_player=\(token); b=2"], token),
      (["a=1;guesswork_player=\(token)"], token),
      (["a=1;   guesswork_player=\(token);"], token),
      ([";;guesswork_player=\(token);;"], token),
      (["a=1", "guesswork_player=\(token)"], token),
      (["xguesswork_player=\(token)"], nil),
      (["guesswork_players=\(token)"], nil),
      (["guesswork_player =\(token)"], nil),
      (["guesswork_player=\(token)", "guesswork_player=\(other)"], other),
      (["guesswork_player=\(token); guesswork_player=\(other)"], other),
      // The last is ours but no token: nothing, not the one before.
      (["guesswork_player=\(token); guesswork_player=short"], nil),
      (["guesswork_player=\(token)x"], nil),
      (["guesswork_player=é\(token.dropFirst(2))"], "é\(token.dropFirst(2))"),
    ]
    for (cookies, expected) in cases {
      #expect(Identity.token(of: Self.request(cookies: cookies)) == expected, "\(cookies)")
    }
  }

  @Test("A token's hash is its SHA-256 in lowercase hex")
  func tokenHash() {
    // FIPS 180-2's examples, and the empty text.
    for (text, hash) in [
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ] {
      #expect(PlayerIdentity.hash(text) == hash)
      #expect(PlayerIdentity.sha256(Data(text.utf8)) == hash)
    }
    for text in [PlayerIdentity.newToken(), "é✓", String(repeating: "z", count: 1000)] {
      #expect(PlayerIdentity.hash(text) == PlayerIdentity.sha256(Data(text.utf8)))
    }
  }
}
