import Foundation
public import GuessworkCore

/// The one rule for every text a player gives that is kept (names, category names and words,
/// reminder titles and places): trimmed, within a number of characters and of bytes, and with
/// no control characters.
///
/// Bytes as well as characters, because one character can be hundreds of bytes (a letter with
/// a pile of combining marks is one character); control characters, because PostgreSQL refuses
/// a NUL (and SQLite cuts the text there) and BEL or ESC would reach terminals and calendar
/// files as they are.
public struct StoredText: Sendable {
  /// The catalog key of the field's name as a player reads it (`text.field.title`: "title").
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

  /// What is wrong with a text, in a sentence of the catalogs that names the field.
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: Message
    public var description: String { message.description }
  }

  private func problem(_ what: String, _ args: Message.Arguments = [:]) -> Problem {
    var args = args
    args["field"] = .key(field)
    return Problem(message: Message(what, args))
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
      throw problem("text.controlCharacters")
    }
    let text =
      collapsingSpaces
      ? trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " ") : trimmed
    guard !text.isEmpty else { throw problem("text.empty") }
    guard text.count <= characters else {
      throw problem("text.tooLong", ["limit": .int(characters), "length": .int(text.count)])
    }
    guard text.utf8.count <= bytes else {
      throw problem("text.tooManyBytes", ["limit": .int(bytes), "length": .int(text.utf8.count)])
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
