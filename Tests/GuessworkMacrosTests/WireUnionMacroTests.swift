import GuessworkMacros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

// What `@WireUnion` writes, and what it refuses. That the written code reads and writes each
// game's JSON as before is held by the games' wire tests and `CompactJSONTests`.

private let macros = ["WireUnion": MacroSpec(type: WireUnionMacro.self)]

private func expect(
  _ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  assertMacroExpansion(
    source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
    indentationWidth: .spaces(2),
    failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
}

@Suite struct WireUnionMacroTests {
  @Test func anEnumGetsItsWireFormatFromItsCases() {
    expect(
      """
      @WireUnion("coin action")
      public enum Action {
        case call(_ side: Side, loud: Bool?)
        case pass
      }
      """,
      expands: #"""
        public enum Action {
          case call(_ side: Side, loud: Bool?)
          case pass
        }

        extension Action {
          public static let wireTags = ["call", "pass"]

          public static let wireName = "coin action"

          private enum CodingKeys: String, CodingKey {
            case type, side, loud
          }

          public init(from decoder: any Decoder) throws {
            let tag = try Self.wireTag(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch tag {
            case "call":
              self = .call(try container.wireValue(.side), loud: try container.wireValueIfPresent(.loud))
            case "pass":
              self = .pass
            default:
              throw Self.unreadTag(tag)
            }
          }

          public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .call(let side, let loud):
              try container.encode("call", forKey: .type)
              try container.encode(side, forKey: .side)
              try container.encodeIfPresent(loud, forKey: .loud)
            case .pass:
              try container.encode("pass", forKey: .type)
            }
          }

          public func writeJSON(to text: JSONText) throws {
            switch self {
            case .call(let side, let loud):
              text.writeJSON(raw: #"{"type":"call","side":"#)
              try text.writeJSON(field: side)
              if let loud {
                text.writeJSON(raw: #","loud":"#)
                try text.writeJSON(field: loud)
              }
              text.writeJSON(raw: #"}"#)
            case .pass:
              text.writeJSON(raw: #"{"type":"pass"}"#)
            }
          }
        }
        """#)
  }

  @Test func aValueWithoutANameIsRefused() {
    expect(
      """
      @WireUnion("coin action")
      enum Action {
        case call(Side)
      }
      """,
      expands: """
        enum Action {
          case call(Side)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "Name this value: its name is its JSON member (`_ number: Int` keeps calls unlabelled)",
          line: 3, column: 13)
      ])
  }

  @Test func aValueCalledTypeIsRefused() {
    expect(
      """
      @WireUnion("coin action")
      enum Action {
        case call(type: Int)
      }
      """,
      expands: """
        enum Action {
          case call(type: Int)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: #"A value cannot be called "type": that member tells the cases apart"#,
          line: 3, column: 13)
      ])
  }

  @Test func onlyAnEnumHasAWireFormat() {
    expect(
      """
      @WireUnion("coin action")
      struct Action {}
      """,
      expands: """
        struct Action {}
        """,
      diagnostics: [
        DiagnosticSpec(message: "@WireUnion makes the wire format of an enum", line: 1, column: 1)
      ])
  }
}
