/// Something a game tells a player, as data: a key of the language catalogs and the values
/// that fill it (`{"key": "number.hint.higher", "args": {"number": 42}}`). The engines say
/// what happened; the browser and the terminal put it into words in the player's language,
/// so that no sentence is written here.
public struct Message: Codable, Sendable, Hashable, CustomStringConvertible {
  /// A value that fills a placeholder: a whole number (which also chooses a plural form when
  /// it is called `count`) or a text put in as it is (a name from a deck).
  public enum Argument: Codable, Sendable, Hashable, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, CustomStringConvertible
  {
    case int(Int)
    /// A number with a fraction, written with the language's decimal sign.
    case decimal(Double)
    case text(String)
    /// The text of another catalog key (a game's title inside a sentence).
    case key(String)

    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .text(value) }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int.self) {
        self = .int(number)
      } else if let number = try? container.decode(Double.self) {
        self = .decimal(number)
      } else if let reference = try? container.decode([String: String].self),
        let key = reference["key"]
      {
        self = .key(key)
      } else {
        self = .text(try container.decode(String.self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .int(let number): try container.encode(number)
      case .decimal(let number): try container.encode(number)
      case .text(let text): try container.encode(text)
      case .key(let key): try container.encode(["key": key])
      }
    }

    public var description: String {
      switch self {
      case .int(let number): String(number)
      case .decimal(let number): String(number)
      case .text(let text): text
      case .key(let key): key
      }
    }
  }

  /// The catalog key ("number.hint.higher").
  public var key: String
  /// The placeholders' values, by name.
  public var args: [String: Argument]

  public init(_ key: String, _ args: [String: Argument] = [:]) {
    self.key = key
    self.args = args
  }

  private enum CodingKeys: String, CodingKey { case key, args }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decode(String.self, forKey: .key)
    args = try container.decodeIfPresent([String: Argument].self, forKey: .args) ?? [:]
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(key, forKey: .key)
    if !args.isEmpty { try container.encode(args, forKey: .args) }
  }

  /// The key and its arguments, for logs and test failures (`number.hint.higher(number: 42)`).
  public var description: String {
    guard !args.isEmpty else { return key }
    let list = args.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    return "\(key)(\(list.joined(separator: ", ")))"
  }
}
