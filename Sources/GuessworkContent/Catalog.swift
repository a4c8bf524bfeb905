public import Foundation
public import GuessworkCore

/// The languages Guesswork speaks. English is the source; every catalog has the same keys.
public enum Language: String, CaseIterable, Codable, Sendable {
  case en, es, ru

  /// The language's name in itself, for a menu.
  public var nativeName: String {
    switch self {
    case .en: "English"
    case .es: "Español"
    case .ru: "Русский"
    }
  }

  /// The language a tag names by its primary subtag ("es-MX" is Spanish), if it is spoken.
  public init?(tag: String) {
    let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." }).first
    guard let primary, let language = Language(rawValue: primary.lowercased()) else {
      return nil
    }
    self = language
  }

  /// The best spoken language of an `Accept-Language` header ("ru-RU,ru;q=0.9,en;q=0.8"),
  /// honouring the weights; nil when it names none.
  public init?(acceptLanguage header: String) {
    var best: (language: Language, weight: Double, order: Int)?
    for (order, item) in header.split(separator: ",").enumerated() {
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let tag = parts.first, let language = Language(tag: tag) else { continue }
      var weight = 1.0
      for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
        weight = Double(parameter.dropFirst(2)) ?? 0
      }
      guard weight > 0 else { continue }
      if best == nil || weight > best!.weight { best = (language, weight, order) }
    }
    guard let best else { return nil }
    self = best.language
  }

  /// The language of a terminal's environment: `LC_ALL`, then `LC_MESSAGES`, then `LANG`
  /// ("ru_RU.UTF-8"); English when none names a spoken language.
  public static func of(environment: [String: String]) -> Language {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        return Language(tag: value) ?? .en
      }
    }
    return .en
  }

  /// The CLDR plural category of a whole number: "one", "few", "many" or "other".
  public func pluralCategory(_ n: Int) -> String {
    let n = n.magnitude
    switch self {
    case .en:
      return n == 1 ? "one" : "other"
    case .es:
      if n == 1 { return "one" }
      return n != 0 && n % 1_000_000 == 0 ? "many" : "other"
    case .ru:
      let (ones, tens) = (n % 10, n % 100)
      if ones == 1 && tens != 11 { return "one" }
      if (2...4).contains(ones) && !(12...14).contains(tens) { return "few" }
      return "many"
    }
  }

  /// A whole number as this language writes it: "10,000", "10.000", "10 000" (no-break space),
  /// as the browsers' `Intl.NumberFormat` does.
  public func format(_ number: Int) -> String {
    let digits = String(number.magnitude)
    let (separator, minimumGrouping): (String, Int) =
      switch self {
      case .en: (",", 4)
      case .es: (".", 5)
      case .ru: ("\u{00A0}", 4)
      }
    var text = digits
    if digits.count >= minimumGrouping {
      var groups: [Substring] = []
      var end = digits.endIndex
      while end > digits.startIndex {
        let start =
          digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
        groups.insert(digits[start..<end], at: 0)
        end = start
      }
      text = groups.joined(separator: separator)
    }
    return number < 0 ? "-" + text : text
  }
}

extension Language {
  /// A number with a fraction as this language writes it ("0.5", "0,5"); a whole one as
  /// ``format(_:)-(Int)`` does.
  public func format(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 { return format(Int(number)) }
    let text = String(number)
    return self == .en ? text : text.replacingOccurrences(of: ".", with: ",")
  }
}

/// One language's texts: every key with its text, or its forms by plural category and exact
/// number. Read from `i18n/<language>/<area>.json`; see README "Adding a language".
public struct Catalog: Sendable {
  /// A catalog value: a text with `{placeholders}`, or forms chosen by the `count` argument
  /// (`"=1"`, ... exact numbers first, then the plural category, then `"other"`).
  public enum Entry: Sendable, Equatable, Codable {
    case text(String)
    case forms([String: String])

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .text(text)
      } else {
        self = .forms(try container.decode([String: String].self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .text(let text): try container.encode(text)
      case .forms(let forms): try container.encode(forms)
      }
    }

    /// Every text of the entry (one, or each form).
    public var texts: [String] {
      switch self {
      case .text(let text): [text]
      case .forms(let forms): forms.keys.sorted().map { forms[$0]! }
      }
    }
  }

  /// Why a catalog does not load.
  public struct LoadError: Error, CustomStringConvertible {
    public var description: String
  }

  public let language: Language
  /// Every key, by area ("core", "pages", ...), as the files hold them.
  public let areas: [String: [String: Entry]]
  /// Every key of every area.
  public let entries: [String: Entry]

  public init(language: Language, areas: [String: [String: Entry]]) throws(LoadError) {
    self.language = language
    self.areas = areas
    var entries: [String: Entry] = [:]
    for (area, keys) in areas.sorted(by: { $0.key < $1.key }) {
      for (key, entry) in keys {
        if entries.updateValue(entry, forKey: key) != nil {
          throw LoadError(
            description: "\(language.rawValue): the key \(key) is in two areas (one is \(area))")
        }
      }
    }
    self.entries = entries
  }

  /// The catalog of `language` in `folder`: `<folder>/<language>/<area>.json`, and each game's
  /// own file `<folder>/<language>/games/<id>.json` (area `games/<id>`, every key under the
  /// prefix `<id>.`).
  public static func load(_ language: Language, from folder: URL) throws -> Catalog {
    let directory = folder.appendingPathComponent(language.rawValue)
    var areas: [String: [String: Entry]] = [:]
    for subfolder in ["", "games/"] {
      let files =
        (try? FileManager.default.contentsOfDirectory(
          atPath: directory.appendingPathComponent(subfolder).path)) ?? []
      for file in files.filter({ $0.hasSuffix(".json") }).sorted() {
        let area = subfolder + file.dropLast(5)
        let data = try Data(contentsOf: directory.appendingPathComponent(area + ".json"))
        do {
          areas[area] = try JSONDecoder().decode([String: Entry].self, from: data)
        } catch {
          throw LoadError(description: "\(language.rawValue)/\(area).json does not load: \(error)")
        }
        if subfolder == "games/",
          let key = areas[area]?.keys.first(where: {
            !$0.hasPrefix(file.dropLast(5) + ".")
          })
        {
          throw LoadError(
            description: "\(language.rawValue)/\(area).json: \(key) is not under the game's id")
        }
      }
    }
    return try Catalog(language: language, areas: areas)
  }

  /// The folder of the bundled catalogs.
  public static var bundledFolder: URL {
    ContentLibrary.resources.appendingPathComponent("i18n")
  }

  /// The bundled catalogs, loaded once.
  public static let bundled: [Language: Catalog] = {
    do {
      return try loadAll(from: bundledFolder)
    } catch {
      fatalError("the bundled catalogs do not load: \(error)")
    }
  }()

  /// Every language's catalog in `folder`.
  public static func loadAll(from folder: URL) throws -> [Language: Catalog] {
    var all: [Language: Catalog] = [:]
    for language in Language.allCases { all[language] = try load(language, from: folder) }
    return all
  }

  /// The areas a browser needs (the server's and the terminal's own stay on the server), and
  /// every game's.
  public static let browserAreas = ["core", "pages", "play", "games/"]

  /// The keys of `areas` (an area ending in `/`: every area in that folder), as one JSON object
  /// with sorted keys: what `/i18n/<language>.json` serves.
  public func json(areas wanted: [String]) throws -> Data {
    var merged: [String: Entry] = [:]
    for (area, keys) in areas
    where wanted.contains(where: { $0 == area || $0.hasSuffix("/") && area.hasPrefix($0) }) {
      merged.merge(keys) { first, _ in first }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(merged)
  }

  /// The bundled catalog of `language`.
  public static func of(_ language: Language) -> Catalog { bundled[language]! }

  /// A message in words. A key the catalog lacks comes out as the key itself (a test keeps
  /// every catalog complete).
  public func render(_ message: Message) -> String {
    self(message.key, message.args)
  }

  /// The text of `key` with `args` put in.
  public func callAsFunction(_ key: String, _ args: Message.Arguments = [:]) -> String {
    guard let entry = entries[key] else { return key }
    let template: String
    switch entry {
    case .text(let text):
      template = text
    case .forms(let forms):
      var count: Int?
      if case .int(let n) = args["count"] { count = n }
      if let count, let exact = forms["=\(count)"] {
        template = exact
      } else if let count, let form = forms[language.pluralCategory(count)] {
        template = form
      } else {
        template = forms["other"] ?? key
      }
    }
    return fill(template, args)
  }

  /// Puts the arguments into `{name}` placeholders; `{{` and `}}` are literal braces.
  func fill(_ template: String, _ args: Message.Arguments) -> String {
    var result = ""
    var index = template.startIndex
    while index < template.endIndex {
      let character = template[index]
      let next = template.index(after: index)
      if (character == "{" || character == "}"), next < template.endIndex,
        template[next] == character
      {
        result.append(character)
        index = template.index(after: next)
      } else if character == "{", let close = template[next...].firstIndex(of: "}") {
        let name = String(template[next..<close])
        switch args[name] {
        case .int(let number): result += language.format(number)
        case .decimal(let number): result += language.format(number)
        case .text(let text): result += text
        case .key(let key): result += self(key)
        case nil: result += "{\(name)}"
        }
        index = template.index(after: close)
      } else {
        result.append(character)
        index = next
      }
    }
    return result
  }

  /// The placeholders of a text (`{name}`), for the catalogs' test.
  public static func placeholders(_ template: String) -> Set<String> {
    var names = Set<String>()
    var rest = template.replacingOccurrences(of: "{{", with: "").replacingOccurrences(
      of: "}}", with: "")[...]
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      names.insert(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }
}
