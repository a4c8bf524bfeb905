import Foundation
import GuessworkCore
import GuessworkJSON
import Testing

/// ``JSONText`` on its own, without the server's encoder around it: a value that writes itself
/// comes out as Foundation encodes it; one that does not is refused, not written half.
@Suite struct JSONTextTests {
  /// The text `value` writes of itself, its keys sorted (Foundation's encoder on Linux does
  /// not keep a type's order).
  private func written(_ value: some JSONTextWritable) throws -> String {
    let text = JSONText()
    try text.writeJSON(value: value)
    return try canonical(Data(text.bytes))
  }

  private func foundation(_ value: some Encodable) throws -> String {
    try canonical(JSONEncoder().encode(value))
  }

  private func canonical(_ json: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: json)
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys),
      as: UTF8.self)
  }

  @Test func escapesAndNumbersAreFoundations() throws {
    let message = Message(
      "a.b",
      ["name": "Ana \"\\ é\n\u{1}🎯/", "ratio": .decimal(0.25), "whole": .decimal(3), "n": -7])
    #expect(try written(message) == foundation(message))
  }

  @Test func aTextGrowsAsItIsWritten() throws {
    // From the least room a text takes, through many moves to larger memory: long strings,
    // escapes at every size, and many small pieces.
    let text = JSONText(reserving: 0)
    var expected = "["
    text.writeJSON(raw: "[")
    for index in 0..<2_000 {
      let piece = String(repeating: "é\"\u{1}", count: index % 37) + "\(index)"
      if index > 0 {
        text.writeJSON(raw: ",")
        expected += ","
      }
      text.writeJSON(string: piece)
      text.writeJSON(raw: ",")
      text.writeJSON(integer: -index)
      expected += String(decoding: try JSONEncoder().encode(piece), as: UTF8.self) + ",\(-index)"
    }
    text.writeJSON(raw: "]")
    expected += "]"
    #expect(text.string == expected)
    #expect(text.bytes == Array(expected.utf8))
  }

  @Test func aValueThatDoesNotWriteItselfIsRefused() throws {
    let text = JSONText()
    #expect(throws: EncodingError.self) { try text.writeJSON(value: ["plain": 1]) }
    #expect(text.bytes.isEmpty)
    // Writable by its type, as every game's view is, but through Codable (the default): only
    // an encoder can write it.
    struct ThroughCodable: Codable, JSONTextWritable { var plain = 1 }
    let action = ThroughCodable()
    #expect(throws: EncodingError.self) { try text.writeJSON(value: action) }
    #expect(throws: EncodingError.self) { try action.writeJSON(to: text) }
    #expect(text.bytes.isEmpty)
    #expect(throws: EncodingError.self) {
      try text.writeJSON(number: Double.nan)
    }
  }
}
