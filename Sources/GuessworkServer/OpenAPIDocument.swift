public import Foundation
import GuessworkContent
import GuessworkCore
public import GuessworkPlay

/// The OpenAPI document: the routes and shared schemas are written by hand in
/// `openapi-base.json`; every game's part (its settings, actions, events, view, summary and
/// figures, and the lists that name the games) is made here from the games' own types, so it
/// cannot drift from what the server reads and writes. `guesswork openapi` prints it;
/// `docs/openapi.json` is that output, checked in for readers and the end-to-end tests.
public enum OpenAPIDocument {
  /// The document for `games`, as pretty JSON with sorted keys.
  public static func data(for engines: GameEngines = GameEngines()) throws -> Data {
    let url = Bundle.module.url(forResource: "openapi-base", withExtension: "json")!
    guard
      var document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    else { throw SchemaReader.Failure(description: "openapi-base.json is not an object") }
    var components = document["components"] as! [String: Any]
    var schemas = components["schemas"] as! [String: Any]
    for engine in engines.all {
      for (name, schema) in try gameSchemas(engine) { schemas[name] = schema }
    }
    func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }
    let prefixes = engines.all.map { prefix($0.kind) }

    schemas["GameKind", default: [:]] = merged(schemas["GameKind"], ["enum": engines.ids])
    schemas["NewGame"] = merged(
      schemas["NewGame"],
      [
        "oneOf": engines.all.map { engine -> [String: Any] in
          var properties: [String: Any] = [
            "game": ["const": engine.kind.rawValue],
            // null is taken as no settings: every default.
            "settings": ["anyOf": [ref(prefix(engine.kind) + "Settings"), ["type": "null"]]],
          ]
          var required = ["game"]
          switch engine.contentNeed {
          case .none: break
          case .words:
            properties["category"] = [
              "type": "string",
              "description":
                "A category id from the catalog (required): a built-in one, or one of the player's own.",
            ]
            required.append("category")
          case .deck:
            properties["deck"] = [
              "type": ["string", "null"],
              "description": "A deck id from the catalog (default: the first playable deck).",
            ]
          }
          return ["type": "object", "properties": properties, "required": required]
        }
      ])
    /// Merges `changes` into property `property` of schema `name`.
    func amend(_ name: String, _ property: String, _ changes: [String: Any]) {
      var schema = schemas[name] as! [String: Any]
      var properties = schema["properties"] as! [String: Any]
      properties[property] = merged(properties[property], changes)
      schema["properties"] = properties
      schemas[name] = schema
    }
    amend("ActionRequest", "action", ["anyOf": prefixes.map { ref($0 + "Action") }])
    amend("GameReply", "view", ["anyOf": prefixes.map { ref($0 + "View") }])
    amend("GameReply", "summary", ["anyOf": prefixes.map { ref($0 + "Summary") }])
    amend("GameReply", "events", ["items": ["anyOf": prefixes.map { ref($0 + "Event") }]])
    amend("GameStats", "figures", ["anyOf": prefixes.map { ref($0 + "Figures") }])
    schemas["GameReply"] = merged(
      schemas["GameReply"],
      [
        "oneOf": engines.all.map { engine -> [String: Any] in
          let name = prefix(engine.kind)
          return [
            "properties": [
              "game": ["const": engine.kind.rawValue], "view": ref(name + "View"),
              "events": ["type": "array", "items": ref(name + "Event")],
              "summary": ref(name + "Summary"),
            ]
          ]
        }
      ])

    components["schemas"] = schemas
    document["components"] = components
    return try JSONSerialization.data(
      withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      + Data("\n".utf8)
  }

  /// "color-match" → "ColorMatch": the prefix of a game's schema names.
  static func prefix(_ kind: GameKind) -> String {
    kind.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
      .joined()
  }

  private static func merged(_ base: Any?, _ changes: [String: Any]) -> [String: Any] {
    var result = base as? [String: Any] ?? [:]
    for (key, value) in changes { result[key] = value }
    return result
  }

  /// The schemas of one game, read off its types.
  static func gameSchemas(_ engine: any GameEngine) throws -> [String: Any] {
    let name = prefix(engine.kind)
    let wire = try WireSchemas(engine.gameType)
    return [
      name + "Settings": settingsSchema(engine.entry.rendered(.of(.en)).settings),
      // A game reads the members of an action it knows and ignores others.
      name + "Action": foundation(wire.action, closed: false),
      name + "Event": foundation(wire.event, closed: true),
      name + "View": foundation(wire.view, closed: true),
      name + "Summary": foundation(wire.summary, closed: true),
      name + "Figures": figuresSchema(engine.entry.rendered(.of(.en)).figures),
    ]
  }

  private static func settingsSchema(_ settings: [SettingInfo]) -> [String: Any] {
    var properties: [String: Any] = [:]
    for setting in settings {
      var schema: [String: Any] = [
        "description": "\(setting.about) Default: \(setting.defaultValue)."
      ]
      // A setting given as null takes its default, as a missing one does.
      switch setting.kind {
      case .integer: schema["type"] = ["integer", "null"]
      case .number: schema["type"] = ["number", "null"]
      case .choice:
        schema["type"] = ["string", "null"]
        schema["enum"] =
          (setting.choices?.map(\.value as (SettingInfo.Choice) -> Any) ?? []) + [NSNull()]
      case .flag: schema["type"] = ["boolean", "null"]
      }
      // The ranges are told in the description, not enforced by the schema: a value out of
      // range is a request the API must answer with a 400 naming the setting.
      if let min = setting.min, let max = setting.max {
        schema["description"] =
          "\(setting.about) From \(min) to \(max); default \(setting.defaultValue)."
      }
      properties[setting.name] = schema
    }
    return [
      "type": "object", "properties": properties, "additionalProperties": false,
      "description":
        "Missing keys take their defaults; a key that is no setting of the game is refused.",
    ]
  }

  private static func figuresSchema(_ figures: [FigureInfo]) -> [String: Any] {
    var properties: [String: Any] = [:]
    var required: [String] = []
    for figure in figures {
      switch figure.format {
      case "count":
        properties[figure.id] = ["type": "integer", "minimum": 0, "description": figure.label]
        required.append(figure.id)
      case "percent":
        properties[figure.id] = [
          "type": "number", "minimum": 0, "maximum": 1,
          "description": "\(figure.label); absent before any game.",
        ]
      case "ms", "decimal":
        properties[figure.id] = [
          "type": "number", "description": "\(figure.label); absent before any game.",
        ]
      case "score":
        properties[figure.id] = [
          "type": "integer", "description": "\(figure.label); absent before any game.",
        ]
      case "bars":
        let label = figure.barLabel ?? "label"
        let value = figure.barValue ?? "value"
        properties[figure.id] = [
          "type": "array", "description": figure.label,
          "items": [
            "type": "object", "required": [label, value], "additionalProperties": false,
            "properties": [label: ["type": "integer"], value: ["type": "integer", "minimum": 0]],
          ],
        ]
        required.append(figure.id)
      default:
        properties[figure.id] = [
          "type": "object", "additionalProperties": ["type": "integer"],
          "description": figure.label,
        ]
        required.append(figure.id)
      }
    }
    return [
      "type": "object", "properties": properties, "required": required,
      "additionalProperties": false,
    ]
  }

  /// A schema as Foundation objects; `closed` objects allow no other keys.
  static func foundation(_ value: JSONValue, closed: Bool) -> Any {
    switch value {
    case .string(let value): return value
    case .array(let values): return values.map { foundation($0, closed: closed) }
    case .object(let pairs):
      var object: [String: Any] = [:]
      for (key, value) in pairs {
        object[key] =
          key == "properties"
          ? propertiesObject(value, closed: closed)
          : foundation(value, closed: closed)
      }
      if closed, object["properties"] != nil, object["additionalProperties"] == nil {
        object["additionalProperties"] = false
      }
      return object
    }
  }

  /// A `properties` object: its keys are names, each value a schema.
  private static func propertiesObject(_ value: JSONValue, closed: Bool) -> Any {
    guard case .object(let pairs) = value else { return foundation(value, closed: closed) }
    var object: [String: Any] = [:]
    for (key, value) in pairs { object[key] = foundation(value, closed: closed) }
    return object
  }
}
