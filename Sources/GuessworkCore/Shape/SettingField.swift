/// A setting's value, whatever its kind.
public enum SettingValue: Sendable, Equatable, Codable, CustomStringConvertible {
  case integer(Int)
  case number(Double)
  case text(String)
  case flag(Bool)

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let flag = try? container.decode(Bool.self) {
      self = .flag(flag)
    } else if let integer = try? container.decode(Int.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else {
      self = .text(try container.decode(String.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .text(let value): try container.encode(value)
    case .flag(let value): try container.encode(value)
    }
  }

  public var description: String {
    switch self {
    case .integer(let value): String(value)
    case .number(let value):
      value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    case .text(let value): value
    case .flag(let value): String(value)
    }
  }
}

/// One setting a player can choose, described as data: its name in the settings object, what
/// it is for, its kind and range. The server's validation, the API document, the browser's
/// setup form and the terminal's options are all made from these.
public struct SettingField<S: GameSettings>: Sendable {
  /// The kinds of setting, with what is allowed.
  public enum Kind: Sendable, Equatable {
    case integer(ClosedRange<Int>)
    /// A number in a range, offered in steps of `step`.
    case number(ClosedRange<Double>, step: Double)
    /// One of a few words.
    case choice([String])
    case flag

    public static func == (lhs: Kind, rhs: Kind) -> Bool {
      switch (lhs, rhs) {
      case (.integer(let a), .integer(let b)): a == b
      case (.number(let a, let x), .number(let b, let y)): a == b && x == y
      case (.choice(let a), .choice(let b)): a == b
      case (.flag, .flag): true
      default: false
      }
    }
  }

  /// The key in the settings object ("attempts").
  public let name: String
  public let kind: Kind
  /// Reads the setting's value.
  public let read: @Sendable (S) -> SettingValue
  /// Writes a value of the field's kind (checked before).
  let write: @Sendable (inout S, SettingValue) -> Void

  public static func integer(
    _ name: String, _ path: WritableKeyPath<S, Int>, in range: ClosedRange<Int>
  ) -> Self {
    nonisolated(unsafe) let path = path
    return Self(
      name: name, kind: .integer(range),
      read: { .integer($0[keyPath: path]) },
      write: { settings, value in if case .integer(let v) = value { settings[keyPath: path] = v } })
  }

  public static func number(
    _ name: String, _ path: WritableKeyPath<S, Double>, in range: ClosedRange<Double>,
    step: Double
  ) -> Self {
    nonisolated(unsafe) let path = path
    return Self(
      name: name, kind: .number(range, step: step),
      read: { .number($0[keyPath: path]) },
      write: { settings, value in
        switch value {
        case .number(let v): settings[keyPath: path] = v
        case .integer(let v): settings[keyPath: path] = Double(v)
        default: break
        }
      })
  }

  public static func choice<E: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ path: WritableKeyPath<S, E>
  ) -> Self where E.RawValue == String {
    nonisolated(unsafe) let path = path
    return Self(
      name: name,
      kind: .choice(E.allCases.map(\.rawValue)),
      read: { .text($0[keyPath: path].rawValue) },
      write: { settings, value in
        if case .text(let raw) = value, let chosen = E(rawValue: raw) {
          settings[keyPath: path] = chosen
        }
      })
  }

  public static func flag(
    _ name: String, _ path: WritableKeyPath<S, Bool>
  ) -> Self {
    nonisolated(unsafe) let path = path
    return Self(
      name: name, kind: .flag,
      read: { .flag($0[keyPath: path]) },
      write: { settings, value in if case .flag(let v) = value { settings[keyPath: path] = v } })
  }

  /// What is allowed ("a whole number from 1 to 20"), as a message.
  public var allowed: Message {
    switch kind {
    case .integer(let range):
      Message("allowed.integer", ["low": .int(range.lowerBound), "high": .int(range.upperBound)])
    case .number(let range, _):
      Message(
        "allowed.number", ["low": .decimal(range.lowerBound), "high": .decimal(range.upperBound)])
    case .choice(let choices):
      Message("allowed.oneOf", ["list": .text(choices.joined(separator: ", "))])
    case .flag: Message("allowed.flag")
    }
  }

  /// Checks `value` against the field's kind and range; the error names the setting.
  public func check(_ value: SettingValue) throws(SettingError) -> SettingValue {
    switch (kind, value) {
    case (.integer(let range), .integer(let v)) where range.contains(v): return value
    case (.number(let range, _), .number(let v)) where range.contains(v): return value
    case (.number(let range, _), .integer(let v)) where range.contains(Double(v)):
      return .number(Double(v))
    case (.choice(let choices), .text(let v)) where choices.contains(v):
      return value
    case (.flag, .flag): return value
    default: throw SettingError(setting: name, allowed: allowed)
    }
  }

  /// Reads a value typed as text (the terminal's `--set name=value`), checked.
  public func parse(_ text: String) throws(SettingError) -> SettingValue {
    let value: SettingValue? =
      switch kind {
      case .integer: Int(text).map(SettingValue.integer)
      case .number: Double(text).map(SettingValue.number)
      case .choice: .text(text)
      case .flag:
        switch text.lowercased() {
        case "true", "yes", "on", "1": .flag(true)
        case "false", "no", "off", "0": .flag(false)
        default: nil
        }
      }
    guard let value else { throw SettingError(setting: name, allowed: allowed) }
    return try check(value)
  }

  /// Sets the field in `settings` to `value`, checked.
  public func set(_ value: SettingValue, in settings: inout S) throws(SettingError) {
    write(&settings, try check(value))
  }

  /// The field as data for clients, with its default; its texts are the catalog keys
  /// `<prefix>.setting.<name>`, `….about` and, for a choice, `….<value>`.
  public func info(keyPrefix prefix: String) -> SettingInfo {
    let key = "\(prefix).setting.\(name)"
    var info = SettingInfo(
      name: name, label: key, about: key + ".about", kind: .flag, defaultValue: read(S()))
    switch kind {
    case .integer(let range):
      info.kind = .integer
      info.min = .integer(range.lowerBound)
      info.max = .integer(range.upperBound)
    case .number(let range, let step):
      info.kind = .number
      info.min = .number(range.lowerBound)
      info.max = .number(range.upperBound)
      info.step = step
    case .choice(let choices):
      info.kind = .choice
      info.choices = choices.map { SettingInfo.Choice(value: $0, label: "\(key).\($0)") }
    case .flag:
      break
    }
    return info
  }
}

/// A setting described for clients: `GET /api/catalog` lists these per game.
public struct SettingInfo: Codable, Sendable, Equatable {
  public enum Kind: String, Codable, Sendable, CaseIterable {
    case integer, number, choice, flag
  }
  public struct Choice: Codable, Sendable, Equatable {
    public var value: String
    public var label: String

    public init(value: String, label: String) {
      self.value = value
      self.label = label
    }
  }

  public var name: String
  public var label: String
  public var about: String
  public var kind: Kind
  public var defaultValue: SettingValue
  public var min: SettingValue?
  public var max: SettingValue?
  public var step: Double?
  public var choices: [Choice]?

  enum CodingKeys: String, CodingKey {
    case name, label, about, kind
    case defaultValue = "default"
    case min, max, step, choices
  }
}

/// A coding key made from any string, for settings read field by field.
public struct FieldKey: CodingKey, Sendable {
  public var stringValue: String
  public var intValue: Int? { nil }
  public init(_ string: String) { stringValue = string }
  public init?(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { nil }
}

extension GameSettings {
  /// The fields, with their defaults, for clients; texts are catalog keys under `prefix`.
  public static func infos(keyPrefix prefix: String) -> [SettingInfo] {
    fields.map { $0.info(keyPrefix: prefix) }
  }

  /// The field named `name`, if the game has one.
  public static func field(_ name: String) -> SettingField<Self>? {
    fields.first { $0.name == name }
  }

  /// Reads the fields present in a settings object; missing ones keep their defaults. A value
  /// of the wrong kind throws the field's ``SettingError``; a value out of range is left to
  /// ``validate()``.
  public static func decodeFields(from decoder: any Decoder, into settings: Self = Self())
    throws -> Self
  {
    let container = try decoder.container(keyedBy: FieldKey.self)
    var settings = settings
    for field in fields {
      let key = FieldKey(field.name)
      let value: SettingValue?
      // A value of the wrong kind (`"attempts": 2.5`, `"x"`) is refused as a setting, naming
      // it and what it allows, as a value out of its range is. Any error: Foundation's decoder
      // reports a fraction read as a whole number with an error of its own, which it later
      // calls "not valid JSON".
      do {
        value = try decode(field, key, from: container)
      } catch {
        throw SettingError(setting: field.name, allowed: field.allowed)
      }
      if let value { field.write(&settings, value) }
    }
    return settings
  }

  private static func decode(
    _ field: SettingField<Self>, _ key: FieldKey, from container: KeyedDecodingContainer<FieldKey>
  ) throws -> SettingValue? {
    switch field.kind {
    case .integer: try container.decodeIfPresent(Int.self, forKey: key).map { .integer($0) }
    case .number: try container.decodeIfPresent(Double.self, forKey: key).map { .number($0) }
    case .choice(let choices):
      try container.decodeIfPresent(String.self, forKey: key).map { raw in
        guard choices.contains(raw) else {
          throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "\(field.name) must be one of \(choices.joined(separator: ", "))")
        }
        return .text(raw)
      }
    case .flag: try container.decodeIfPresent(Bool.self, forKey: key).map { .flag($0) }
    }
  }

  /// Checks every field against its range, in order, skipping those named in `except`.
  public func validateFields(except: Set<String> = []) throws(SettingError) {
    for field in Self.fields where !except.contains(field.name) {
      _ = try field.check(field.read(self))
    }
  }
}
