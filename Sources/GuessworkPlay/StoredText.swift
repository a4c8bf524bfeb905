import Foundation

/// The one rule for every text a player gives that is kept (names, category names and words,
/// reminder titles and places): trimmed, within a number of characters and of bytes, and with
/// no control characters.
///
/// Bytes as well as characters, because one character can be hundreds of bytes (a letter with
/// a pile of combining marks is one character); control characters, because PostgreSQL refuses
/// a NUL (and SQLite cuts the text there) and BEL or ESC would reach terminals and calendar
/// files as they are.
public struct StoredText: Sendable {
  /// The field's name, as a client sends it ("title").
  public let field: String
  /// The most characters (extended grapheme clusters, as people count them).
  public let characters: Int
  /// The most bytes of UTF-8.
  public let bytes: Int

  public init(field: String, characters: Int, bytes: Int? = nil) {
    self.field = field
    self.characters = characters
    // Four bytes a character covers every emoji and most accented text.
    self.bytes = bytes ?? characters * 4
  }

  /// What is wrong with a text, in a sentence that names the field.
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }

  /// `raw` trimmed (and, with `collapsingSpaces`, its runs of white space made one space), or
  /// the problem. Control characters, line and paragraph separators are refused inside the
  /// text (a trailing newline is trimmed); format characters such as the zero-width joiner
  /// inside "👩‍💻" are fine.
  public func clean(_ raw: String, collapsingSpaces: Bool = false) throws(Problem) -> String {
    // Tabs inside a text whose white space is made one space are white space, nothing more.
    let spaced = collapsingSpaces ? raw.replacingOccurrences(of: "\t", with: " ") : raw
    let trimmed = spaced.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.unicodeScalars.contains(where: Self.isForbidden) {
      throw Problem(message: "\(field) must not contain control characters or line breaks.")
    }
    let text =
      collapsingSpaces
      ? trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " ") : trimmed
    guard !text.isEmpty else { throw Problem(message: "\(field) must not be empty.") }
    guard text.count <= characters else {
      throw Problem(
        message: "\(field) must be at most \(characters) characters (it has \(text.count)).")
    }
    guard text.utf8.count <= bytes else {
      throw Problem(
        message:
          "\(field) is too long in bytes: at most \(bytes) (it has \(text.utf8.count)); fewer accents or symbols fit."
      )
    }
    return text
  }

  static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
