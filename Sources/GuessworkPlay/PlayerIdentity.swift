import Crypto
public import Foundation

/// Who a player is, the same for the server and the terminal: a random 256-bit token (the
/// browser keeps it in a cookie, the terminal in a file), of which only the SHA-256 is stored,
/// and a name with the same rules everywhere.
public enum PlayerIdentity {
  /// The longest name, in characters.
  public static let nameLimit = 24

  /// A new random token, base64url without padding (43 characters).
  public static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
    return Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Whether `text` has the shape of a token.
  public static func looksLikeToken(_ text: some StringProtocol) -> Bool {
    text.utf8.count == 43
  }

  /// What the store keeps instead of the token: its SHA-256, in lowercase hex.
  public static func hash(_ token: String) -> String {
    sha256(Data(token.utf8))
  }

  /// The SHA-256 of `data`, in lowercase hex.
  public static func sha256(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  /// A name that breaks the rules, with what is wrong.
  public struct NameError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }

  /// A name of 1...24 characters after trimming, with no control characters or line breaks;
  /// format characters such as the zero-width joiner inside "👩‍💻" are fine.
  public static func validName(_ raw: String) throws(NameError) -> String {
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw NameError(message: "name must not be empty.") }
    guard name.count <= nameLimit else {
      throw NameError(
        message: "name must be at most \(nameLimit) characters (it has \(name.count)).")
    }
    let forbidden: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
    guard
      !name.unicodeScalars.contains(where: { forbidden.contains($0.properties.generalCategory) })
    else {
      throw NameError(message: "name must not contain control characters.")
    }
    return name
  }
}
