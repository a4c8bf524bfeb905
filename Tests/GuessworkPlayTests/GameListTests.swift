import Foundation
import GuessworkCore
import GuessworkPlay
import Testing

/// What every game of the list declares is coherent: its settings' ranges are the ones its
/// validation enforces, its wire types can be read into schemas, its figures have labels.
@Suite("Every game of the list")
struct GameListTests {
  static let engines = GameEngines()

  @Test("Identifiers are unique and every game has a title, a blurb and figures")
  func identities() {
    #expect(Set(Self.engines.ids).count == Games.all.count)
    for engine in Self.engines.all {
      #expect(!engine.entry.title.isEmpty && !engine.entry.blurb.isEmpty, "\(engine.kind)")
      #expect(!engine.entry.figures.isEmpty, "\(engine.kind) shows no figures")
    }
  }

  @Test(
    "A setting's declared range is what its validation accepts",
    arguments: Games.all.map { $0.kind })
  func rangesAreEnforced(kind: GameKind) throws {
    let engine = try #require(Self.engines[kind])
    for setting in engine.entry.settings {
      guard case .integer(let low)? = setting.min, case .integer(let high)? = setting.max,
        !(kind == .number && ["low", "high"].contains(setting.name))
        // Number's low and high depend on each other: NumberGameWireTests check them.
      else { continue }
      for (value, accepted) in [(low, true), (high, true), (low - 1, false), (high + 1, false)] {
        let body = Data(#"{"settings":{"\#(setting.name)":\#(value)}}"#.utf8)
        if accepted {
          #expect(throws: Never.self, "\(kind) \(setting.name)=\(value)") {
            try engine.checkSettings(body)
          }
        } else {
          #expect(throws: PlayError.self, "\(kind) \(setting.name)=\(value)") {
            try engine.checkSettings(body)
          }
        }
      }
    }
  }

  @Test(
    "Every wire type reads into a schema; unions have one shape per tag",
    arguments: Games.all.map { $0.kind })
  func schemas(kind: GameKind) throws {
    let engine = try #require(Self.engines[kind])
    let wire = try WireSchemas(engine.gameType)
    for union in [wire.action, wire.event] {
      guard case .array(let shapes)? = union["oneOf"] else {
        Issue.record("\(kind): a union without oneOf")
        continue
      }
      #expect(!shapes.isEmpty)
      for shape in shapes {
        guard case .object(let constant)? = shape["properties"]?["type"],
          case .string? = constant.first?.1
        else {
          Issue.record("\(kind): a shape without a constant type")
          continue
        }
      }
    }
    guard case .object(let properties)? = wire.view["properties"] else {
      Issue.record("\(kind): the view is not an object")
      return
    }
    #expect(properties.contains { $0.0 == "isOver" }, "\(kind) view has isOver")
  }

  @Test("Names follow one rule for the server and the terminal")
  func names() throws {
    #expect(try PlayerIdentity.validName("  👩‍💻  ") == "👩‍💻")
    #expect(throws: PlayerIdentity.NameError.self) { try PlayerIdentity.validName(" ") }
    #expect(throws: PlayerIdentity.NameError.self) { try PlayerIdentity.validName("a\u{7}b") }
    #expect(throws: PlayerIdentity.NameError.self) {
      try PlayerIdentity.validName(String(repeating: "x", count: 25))
    }
    let token = PlayerIdentity.newToken()
    #expect(PlayerIdentity.looksLikeToken(token))
    #expect(PlayerIdentity.hash(token).count == 64)
  }
}
