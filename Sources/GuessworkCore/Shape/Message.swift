public import GuessworkJSON

/// Something a game tells a player, as data: a key of the language catalogs and the values
/// that fill it (`{"key": "number.hint.higher", "args": {"number": 42}}`). The engines say
/// what happened; the browser and the terminal put it into words in the player's language,
/// so that no sentence is written here.
public struct Message: Codable, Sendable, Hashable, CustomStringConvertible, JSONTextWritable {
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

  /// The placeholders' values by name, in the order they were given, written as a JSON
  /// object in that order (`["low": 1, "high": 9]`). A message has a few of them and a view
  /// makes a dozen messages at every move, so a list searched in order serves better than a
  /// dictionary, which hashed every name and wrote its keys in an order of its own: Number's
  /// view after eight guesses was built in 1.45 µs and written in 4.3 with a dictionary, in
  /// 0.52 and 2.5 with the list (engine benchmarks, BENCHMARKS.md "2026-11-27 (afternoon)").
  /// Two are equal when they give the same names the same values, in any order.
  public struct Arguments: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    /// A name and its value.
    public typealias Element = (String, Argument)
    private var pairs: [Element]

    /// The pairs of a literal, which names each once (as a dictionary's literal must).
    public init(dictionaryLiteral elements: Element...) {
      assert(Set(elements.map(\.0)).count == elements.count, "a name given twice")
      pairs = elements
    }

    public var isEmpty: Bool { pairs.isEmpty }
    public var count: Int { pairs.count }

    /// The value named `name`; setting one replaces it where it is, or adds it last, and
    /// `nil` removes it.
    public subscript(name: String) -> Argument? {
      get { pairs.first { $0.0 == name }?.1 }
      set {
        let index = pairs.firstIndex { $0.0 == name }
        switch (index, newValue) {
        case (let index?, let value?): pairs[index].1 = value
        case (let index?, nil): pairs.remove(at: index)
        case (nil, let value?): pairs.append((name, value))
        case (nil, nil): break
        }
      }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { pairs.makeIterator() }

    public static func == (left: Arguments, right: Arguments) -> Bool {
      left.count == right.count && left.allSatisfy { name, value in right[name] == value }
    }

    public func hash(into hasher: inout Hasher) {
      for (name, value) in pairs.sorted(by: { $0.0 < $1.0 }) {
        hasher.combine(name)
        hasher.combine(value)
      }
    }

    private struct Name: CodingKey {
      let stringValue: String
      init(stringValue: String) { self.stringValue = stringValue }
      var intValue: Int? { nil }
      init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Name.self)
      pairs = try container.allKeys.map {
        ($0.stringValue, try container.decode(Argument.self, forKey: $0))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Name.self)
      for (name, value) in pairs { try container.encode(value, forKey: Name(stringValue: name)) }
    }
  }

  /// The catalog key ("number.hint.higher").
  public var key: String
  /// The placeholders' values, by name.
  public var args: Arguments

  public init(_ key: String, _ args: Arguments = [:]) {
    self.key = key
    self.args = args
  }

  private enum CodingKeys: String, CodingKey { case key, args }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decode(String.self, forKey: .key)
    args = try container.decodeIfPresent(Arguments.self, forKey: .args) ?? [:]
  }

  public func encode(to encoder: any Encoder) throws {
    if let text = encoder as? any JSONTextEncoder {
      return try text.writeJSON(value: self)
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(key, forKey: .key)
    if !args.isEmpty { try container.encode(args, forKey: .args) }
  }

  /// The JSON ``encode(to:)`` makes, written as it is: a view holds dozens of messages, and
  /// Codable's containers were a twentieth of a move's time (BENCHMARKS.md). An encoder that
  /// knows a message when it sees one calls this without asking what encoder it is.
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"key":"#)
    text.writeJSON(string: key)
    if !args.isEmpty {
      text.writeJSON(raw: #","args":{"#)
      var first = true
      for (name, value) in args {
        if !first { text.writeJSON(raw: ",") }
        first = false
        text.writeJSON(string: name)
        text.writeJSON(raw: ":")
        switch value {
        case .int(let number): text.writeJSON(integer: number)
        case .decimal(let number): try text.writeJSON(number: number)
        case .text(let words): text.writeJSON(string: words)
        case .key(let reference):
          text.writeJSON(raw: #"{"key":"#)
          text.writeJSON(string: reference)
          text.writeJSON(raw: "}")
        }
      }
      text.writeJSON(raw: "}")
    }
    text.writeJSON(raw: "}")
  }

  /// The key and its arguments, for logs and test failures (`number.hint.higher(number: 42)`).
  public var description: String {
    guard !args.isEmpty else { return key }
    let list = args.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }
    return "\(key)(\(list.joined(separator: ", ")))"
  }
}
