import Foundation
import GuessworkContent
import GuessworkCore
import Testing

/// The catalogs agree: every language has every key of English, in the same area, with the
/// same placeholders; every key is used; the plural rules and number formats are right.
@Suite("Language catalogs")
struct CatalogTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every source file a key can be used in: Swift, the pages and their scripts.
  static let sources: String = {
    var text = ""
    let folder = root.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
    for file in files ?? []
    where [".swift", ".js", ".html"].contains(where: file.hasSuffix) && !file.contains("/i18n/") {
      text += (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
      text += "\n"
    }
    return text
  }()

  static func placeholders(_ entry: Catalog.Entry) -> Set<String> {
    entry.texts.reduce(into: Set<String>()) { $0.formUnion(Catalog.placeholders($1)) }
  }

  @Test("Every language has exactly English's keys, area by area, with the same placeholders")
  func sameKeys() {
    let english = Catalog.of(.en)
    for language in Language.allCases where language != .en {
      let other = Catalog.of(language)
      #expect(Set(other.areas.keys) == Set(english.areas.keys), "\(language)")
      for (area, keys) in english.areas {
        let theirs = other.areas[area] ?? [:]
        let missing = Set(keys.keys).subtracting(theirs.keys).sorted()
        let extra = Set(theirs.keys).subtracting(keys.keys).sorted()
        #expect(missing.isEmpty, "\(language)/\(area).json lacks \(missing)")
        #expect(extra.isEmpty, "\(language)/\(area).json has keys English lacks: \(extra)")
        for (key, entry) in keys {
          guard let their = theirs[key] else { continue }
          var want = Self.placeholders(entry)
          var have = Self.placeholders(their)
          // A form that says the number in words may leave {count} out.
          if case .forms = entry { want.remove("count"); have.remove("count") }
          #expect(have == want, "\(language) \(key): \(have.sorted()) against \(want.sorted())")
        }
      }
    }
  }

  @Test("Plural values name only the language's forms, and always have other")
  func pluralForms() {
    let categories: [Language: Set<String>] = [
      .en: ["one", "other"], .es: ["one", "many", "other"], .ru: ["one", "few", "many", "other"],
    ]
    for language in Language.allCases {
      for (key, entry) in Catalog.of(language).entries {
        guard case .forms(let forms) = entry else { continue }
        #expect(forms["other"] != nil, "\(language) \(key) has no other")
        for form in forms.keys where !form.hasPrefix("=") {
          #expect(categories[language]!.contains(form), "\(language) \(key): \(form)")
        }
        if language == .ru {
          #expect(forms["few"] != nil && forms["many"] != nil, "ru \(key) needs few and many")
        }
      }
    }
  }

  /// Keys the code makes from data rather than writes out.
  static var derivedKeys: Set<String> {
    var keys = Set<String>()
    for game in Games.all {
      keys.insert(game.title.key)
      keys.insert(game.blurb.key)
      for setting in game.settingInfos {
        keys.formUnion([setting.label, setting.about])
        keys.formUnion(setting.choices?.map(\.label) ?? [])
      }
      keys.formUnion(game.figureInfos.map(\.label))
    }
    keys.formUnion(ContentLibrary.categoryIDs.map { "category.\($0)" })
    keys.formUnion(PerceivedDifference.allCases.map(\.message.key))
    keys.formUnion(ColorMatchGame.Colour.allCases.map(\.word.key))
    // A room's refusals: room.refusal.<code> (the game's own refusals carry their own keys).
    keys.formUnion(
      RoomRefusal.Code.allCases.filter { $0 != .refused }.map { "room.refusal.\($0.rawValue)" })
    return keys
  }

  @Test("Every key made from the games' data is in the catalogs")
  func derivedKeysPresent() {
    let english = Catalog.of(.en)
    for key in Self.derivedKeys.sorted() {
      #expect(english.entries[key] != nil, "\(key) is missing")
    }
  }

  @Test("Every key is used: written in a source, or made from the games' data")
  func everyKeyUsed() {
    let derived = Self.derivedKeys
    for key in Catalog.of(.en).entries.keys.sorted() where !derived.contains(key) {
      // setting.invalid.<allowed key> says a SettingError's allowed message; error.notFound.<x>
      // is notFound("x").
      var written = [key]
      if key.hasPrefix("setting.invalid.") { written.append(String(key.dropFirst(16))) }
      if key.hasPrefix("error.notFound.") { written.append("notFound(\"\(key.dropFirst(15))\")") }
      let used = written.contains { name in
        // data-i18n-attr="aria-label:key;title:key" names keys after a colon.
        ["\"\(name)\"", "'\(name)'", "`\(name)`", ":\(name)\"", ":\(name);", "notFound("].contains {
          wrap in
          wrap == "notFound("
            ? name.hasPrefix("notFound(") && Self.sources.contains(name)
            : Self.sources.contains(wrap)
        }
      }
      #expect(used, "\(key) is in the catalogs but nothing uses it")
    }
  }

  @Test(
    "Russian plurals: one, few, many",
    arguments: [
      (1, "one"), (2, "few"), (4, "few"), (5, "many"), (11, "many"), (12, "many"), (14, "many"),
      (21, "one"), (22, "few"), (25, "many"), (101, "one"), (111, "many"),
    ])
  func russianPlurals(n: Int, form: String) {
    #expect(Language.ru.pluralCategory(n) == form)
  }

  @Test("Numbers are written as each language writes them")
  func numbers() {
    #expect(Language.en.format(10_000) == "10,000")
    #expect(Language.es.format(1000) == "1000")
    #expect(Language.es.format(10_000) == "10.000")
    #expect(Language.ru.format(1000) == "1\u{00A0}000")
    #expect(Language.ru.format(2.5) == "2,5")
    #expect(Catalog.of(.ru)("number.attemptsLeft", ["count": 21]).hasSuffix("21 попытка"))
    #expect(Catalog.of(.ru)("number.attemptsLeft", ["count": 11]).hasSuffix("11 попыток"))
  }

  @Test("The language of a request or a terminal")
  func choosing() {
    #expect(Language(acceptLanguage: "ru-RU,ru;q=0.9,en;q=0.8") == .ru)
    #expect(Language(acceptLanguage: "de-DE,es;q=0.5,en;q=0.7") == .en)
    #expect(Language(acceptLanguage: "de-DE, fr;q=0.9") == nil)
    #expect(Language(acceptLanguage: "es;q=0") == nil)
    #expect(Language.of(environment: ["LANG": "ru_RU.UTF-8"]) == .ru)
    #expect(Language.of(environment: ["LC_ALL": "es_ES.UTF-8", "LANG": "ru_RU.UTF-8"]) == .es)
    #expect(Language.of(environment: ["LANG": "C.UTF-8"]) == .en)
  }

  @Test("Spanish and Russian words: at least 200 a category, clean, each once")
  func translatedWords() {
    for language in [Language.es, .ru] {
      for id in ContentLibrary.categoryIDs {
        let words = ContentLibrary.bundled.words(category: id, in: language)
        let cleaned = WordCleaning.clean(words, language: language)
        #expect(cleaned.count >= 200, "\(language) \(id): \(cleaned.count)")
        #expect(Set(words).count == words.count, "\(language) \(id) has a word twice")
      }
    }
  }

  @Test("Every deck reads in every language, each name once")
  func decks() {
    for deck in ContentLibrary.bundled.decks {
      for language in Language.allCases {
        let local = deck.localized(language)
        #expect(local.question.contains("{answer}"), "\(deck.id) \(language)")
        #expect(Set(local.items.map(\.name)).count == local.items.count, "\(deck.id) \(language)")
        if language != .en {
          #expect(local.title != deck.title || deck.id == "eagles-hof", "\(deck.id) \(language)")
        }
      }
    }
  }
}
