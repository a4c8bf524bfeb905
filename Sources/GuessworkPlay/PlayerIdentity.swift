import Crypto
public import Foundation
import GuessworkContent
public import GuessworkCore
public import GuessworkStore

/// Who a player is, the same for the server and the terminal: a random 256-bit token (the
/// browser keeps it in a cookie, the terminal in a file), of which only the SHA-256 is stored,
/// and a name with the same rules everywhere.
public enum PlayerIdentity {
  /// The longest name, in characters.
  public static let nameLimit = 24

  /// A new random token, base64url without padding (43 characters).
  public static func newToken() -> String { randomText(words: 4) }

  /// `words` × 64 random bits, base64url without padding.
  static func randomText(words: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<words).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
    return Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Whether `text` has the shape of a token.
  public static func looksLikeToken(_ text: some StringProtocol) -> Bool {
    text.utf8.count == 43
  }

  /// What the store keeps instead of the token: its SHA-256, in lowercase hex.
  ///
  /// Every request a player makes is known by it, so the token's bytes are hashed where they
  /// are, and the hex written straight into the string (no `Data`, no array between).
  public static func hash(_ token: String) -> String {
    var token = token
    let digest = token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    return hex(digest)
  }

  /// The SHA-256 of `data`, in lowercase hex.
  public static func sha256(_ data: Data) -> String {
    hex(SHA256.hash(data: data))
  }

  /// A digest in lowercase hex.
  private static func hex(_ digest: SHA256.Digest) -> String {
    String(unsafeUninitializedCapacity: 2 * SHA256.byteCount) { text in
      let digits: StaticString = "0123456789abcdef"
      var count = 0
      digits.withUTF8Buffer { digits in
        for byte in digest {
          text[count] = digits[Int(byte >> 4)]
          text[count + 1] = digits[Int(byte & 0x0F)]
          count += 2
        }
      }
      return count
    }
  }

  /// A name that breaks the rules, with what is wrong.
  public struct NameError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: Message
    public var description: String { message.description }
  }

  /// A name of 1...24 characters (and at most 96 bytes) after trimming, with no control
  /// characters or line breaks (``StoredText``), and no word of the bundled blocklists: names
  /// show on a party room's TV and on the daily boards, so they stay family-friendly.
  public static func validName(_ raw: String) throws(NameError) -> String {
    let name: String
    do {
      name = try StoredText(field: "text.field.name", characters: nameLimit).clean(raw)
    } catch {
      throw NameError(message: error.message)
    }
    guard !WordCleaning.containsBlockedWord(name) else {
      throw NameError(message: Message("text.blocked", ["field": .key("text.field.name")]))
    }
    return name
  }
}

/// A one-use code that signs a browser in as a player (`guesswork stats --browser-link` prints
/// one for the local player): random, short-lived, stored only as its SHA-256, and confirmed by
/// the player on a page that says who it signs in as, so that a link cannot quietly swap a
/// visitor's browser into someone else's player.
public enum LinkCode {
  /// How long a code can be used.
  public static let lifetimeMilliseconds: Int64 = 10 * 60 * 1000

  /// A new code for `playerID`, kept in `store` (as its hash) until it expires: the code and
  /// when it expires.
  public static func issue(for playerID: String, in store: any GuessworkStore, at now: Int64)
    async throws -> (code: String, expiresAt: Int64)
  {
    // 128 random bits, base64url without padding (22 characters).
    let code = PlayerIdentity.randomText(words: 2)
    let expiresAt = now + lifetimeMilliseconds
    try await store.insertLinkCode(
      hash: PlayerIdentity.hash(code), playerID: playerID, expiresAt: expiresAt)
    return (code, expiresAt)
  }

  /// Whether `text` has the shape of a code.
  public static func looksLikeCode(_ text: some StringProtocol) -> Bool {
    text.utf8.count == 22
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
      }
  }
}
