public import GuessworkCore

/// The JSON Schemas of a game's wire types, read off the types themselves (``SchemaReader``).
public struct WireSchemas: Sendable {
  public var action: JSONValue
  public var event: JSONValue
  public var view: JSONValue
  public var summary: JSONValue

  public init(_ game: any Game.Type) throws {
    self = try Self.read(game)
  }

  private static func read<G: Game>(_ game: G.Type) throws -> WireSchemas {
    WireSchemas(
      action: try SchemaReader.schema(of: G.Action.self),
      event: try SchemaReader.schema(of: G.Event.self),
      view: try SchemaReader.schema(of: G.View.self),
      summary: try SchemaReader.schema(of: G.Summary.self))
  }

  private init(action: JSONValue, event: JSONValue, view: JSONValue, summary: JSONValue) {
    self.action = action
    self.event = event
    self.view = view
    self.summary = summary
  }
}
