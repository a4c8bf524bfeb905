/// Turns raw word lists (Datamuse answers, words typed on the command line or in a custom
/// category) into words fit for Guess or Pass: trimmed and lowercased, one or two words of
/// letters only, nothing on the blocklist (whole words only, so "grape" and "grass" pass),
/// singular, and each once.
public enum WordCleaning {
  /// Cleans `words` in order: the first of any duplicates is kept.
  public static func clean(
    _ words: [String], blocklist: Set<String> = ContentLibrary.blocklist,
    language: Language = .en
  ) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for raw in words {
      guard let word = cleaned(raw, blocklist: blocklist, language: language),
        seen.insert(word).inserted
      else {
        continue
      }
      result.append(word)
    }
    return result
  }

  /// One word cleaned, or `nil` when it cannot be used.
  public static func cleaned(
    _ raw: String, blocklist: Set<String> = ContentLibrary.blocklist, language: Language = .en
  ) -> String? {
    let parts = raw.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(
      String.init)
    guard (1...2).contains(parts.count) else { return nil }
    for part in parts {
      // Letters only (an inner hyphen or apostrophe is fine: "t-rex", "jack-o'-lantern" is
      // not one or two words anyway); no digits or symbols.
      guard part.count <= 24, let first = part.first, let last = part.last, first.isLetter,
        last.isLetter,
        part.allSatisfy({
          ($0.isLetter && ($0.isASCII || language != .en)) || $0 == "-" || $0 == "'"
        })
      else { return nil }
    }
    if isBlocked(parts, blocklist: blocklist) { return nil }
    switch language {
    case .en: break
    case .es:
      // No rule makes Spanish plurals singular safely ("tenis", "autobús"): a word that looks
      // plural is left out rather than guessed at.
      return looksPluralInSpanish(parts.last!) ? nil : parts.joined(separator: " ")
    case .ru:
      return parts.joined(separator: " ")
    }
    var words = parts
    words[words.count - 1] = singular(words[words.count - 1])
    if isBlocked(words, blocklist: blocklist) { return nil }
    return words.joined(separator: " ")
  }

  /// Whether a Spanish word ends like a plural: "-s" after an unaccented vowel or "-es".
  static func looksPluralInSpanish(_ word: String) -> Bool {
    guard word.hasSuffix("s"), word.count > 3 else { return false }
    let before = word.dropLast().last!
    return "aeiou".contains(before) || word.hasSuffix("es")
  }

  /// Whether any whole word of `parts` (or a hyphenated piece of one) is on the blocklist, or
  /// the phrase itself is.
  public static func isBlocked(_ parts: [String], blocklist: Set<String>) -> Bool {
    if blocklist.contains(parts.joined(separator: " ")) { return true }
    return parts.contains { part in
      blocklist.contains(part)
        || part.split(whereSeparator: { $0 == "-" || $0 == "'" }).contains {
          blocklist.contains(String($0))
        }
    }
  }

  /// Whether `text` contains a blocked word as a whole word (for words typed by players).
  public static func containsBlockedWord(
    _ text: String, blocklist: Set<String> = ContentLibrary.blocklist
  ) -> Bool {
    let parts = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    return isBlocked(parts, blocklist: blocklist)
  }

  // MARK: Singular forms

  /// The singular of an English noun, by rules with exceptions: "buses" → "bus",
  /// "berries" → "berry", "potatoes" → "potato", "wolves" → "wolf", "mice" → "mouse"; words
  /// that end in "s" but are singular ("bus", "glass", "news", "species", "tennis") stay.
  public static func singular(_ word: String) -> String {
    if let known = irregular[word] { return known }
    if invariant.contains(word) { return word }
    // Compounds of an irregular plural: "aardwolves", "dormice", "housewives".
    for key in irregularEndings where word.hasSuffix(key) {
      return String(word.dropLast(key.count)) + irregular[key]!
    }
    guard word.count > 3, word.hasSuffix("s") else { return word }
    let stem = String(word.dropLast())  // without the final "s"
    let stemES = String(word.dropLast(2))  // without "es"
    if word.hasSuffix("ss") || word.hasSuffix("sis") || word.hasSuffix("itis") { return word }
    if word.hasSuffix("ies") {
      return ieNouns.contains(stem) ? stem : String(word.dropLast(3)) + "y"
    }
    if word.hasSuffix("oes") { return oeNouns.contains(stem) ? stem : stemES }
    if word.hasSuffix("sses") || word.hasSuffix("xes") || word.hasSuffix("zzes")
      || word.hasSuffix("shes")
    {
      return stemES
    }
    if word.hasSuffix("ches") {
      return ["ache", "iche", "oche", "anche", "yche"].contains(where: stem.hasSuffix)
        ? stem : stemES
    }
    if word.hasSuffix("uses") {
      if word.hasSuffix("ouses") || word.hasSuffix("auses") || useNouns.contains(stem) {
        return stem
      }
      return stemES  // buses, viruses, walruses, circuses
    }
    if word.hasSuffix("us") { return uNouns.contains(stem) ? stem : word }
    if word.hasSuffix("is") { return latinIs.contains(word) ? word : stem }
    if word.hasSuffix("ics") { return word }
    if word.hasSuffix("os") { return greekOs.contains(word) ? word : stem }
    if word.hasSuffix("as") { return singularAs.contains(word) ? word : stem }
    return stem
  }

  /// Singular nouns that end in "s", and plurals with no singular worth using.
  static let invariant: Set<String> = [
    "bus", "gas", "yes", "glass", "news", "species", "series", "means", "lens", "chess",
    "tennis", "billiards", "darts", "checkers", "clothes", "scissors", "pants", "jeans",
    "shorts", "trousers", "pliers", "tongs", "binoculars", "goggles", "headphones",
    "earphones", "glasses", "sunglasses", "pajamas", "pyjamas", "overalls", "tights",
    "leggings", "olympics", "mumps", "measles", "rabies", "diabetes", "herpes", "physics",
    "mathematics", "athletics", "gymnastics", "aerobics", "electronics", "economics",
    "politics", "acoustics", "robotics", "genetics", "ethics", "logistics", "graphics",
    "bowls", "cards", "dominoes", "marbles", "jacks", "molasses", "hummus", "couscous",
    "asparagus", "citrus", "octopus", "platypus", "hippopotamus", "cactus", "walrus", "virus",
    "campus", "circus", "census", "chorus", "bonus", "fungus", "hibiscus", "crocus", "lotus",
    "status", "apparatus", "asbestos", "atlas", "canvas", "iris", "axis", "pelvis",
    "chassis", "trellis", "debris", "mantis", "ibis", "cannabis", "texas", "christmas",
    "pancreas", "alias", "bias", "chaos", "cosmos", "kudos", "rhinoceros", "thanks", "odds",
    "headquarters", "barracks", "crossroads", "innings", "suds", "always", "perhaps",
    "blues", "bagpipes", "maracas", "timpani", "bongos",
  ]

  static let irregular: [String: String] = [
    "children": "child", "men": "man", "women": "woman", "people": "person", "mice": "mouse",
    "geese": "goose", "feet": "foot", "teeth": "tooth", "oxen": "ox", "lice": "louse",
    "cacti": "cactus", "fungi": "fungus", "octopi": "octopus", "loaves": "loaf",
    "knives": "knife", "wives": "wife", "leaves": "leaf", "wolves": "wolf", "calves": "calf",
    "halves": "half", "shelves": "shelf", "thieves": "thief", "elves": "elf",
    "hooves": "hoof", "scarves": "scarf", "lives": "life", "gases": "gas", "lenses": "lens",
    "atlases": "atlas", "canvases": "canvas", "irises": "iris", "quizzes": "quiz",
    "buses": "bus", "busses": "bus", "axes": "axe", "species": "species",
    "firemen": "fireman", "policemen": "policeman", "snowmen": "snowman",
    "fishermen": "fisherman", "geniuses": "genius",
  ]

  /// Irregular plurals that also end longer words ("-men" is not one: "abdomen", "ramen").
  static let irregularEndings = [
    "wolves", "calves", "halves", "shelves", "knives", "wives", "loaves", "leaves", "thieves",
    "hooves", "scarves", "mice", "geese", "teeth", "feet", "children",
  ]

  /// Nouns ending in "ie" (their plurals end in "ies" but are not "-y" words).
  static let ieNouns: Set<String> = [
    "movie", "cookie", "pie", "tie", "brownie", "zombie", "smoothie", "calorie", "selfie",
    "rookie", "goalie", "veggie", "birdie", "hoodie", "beanie", "genie", "magpie", "budgie",
    "collie", "prairie", "lingerie", "pixie", "hippie", "quickie", "walkie", "talkie",
    "eyrie", "bootie", "groupie", "newbie", "techie", "foodie", "sweetie", "lie", "die",
  ]

  /// Nouns ending in "oe".
  static let oeNouns: Set<String> = [
    "shoe", "toe", "canoe", "oboe", "hoe", "floe", "foe", "horseshoe", "snowshoe", "tiptoe",
    "mistletoe", "felloe", "sloe", "roe", "doe", "aloe",
  ]

  /// Nouns ending in "use" that are not "-us" words.
  static let useNouns: Set<String> = [
    "fuse", "muse", "excuse", "ruse", "abuse", "use", "refuse", "recluse", "caboose",
  ]

  /// Nouns ending in "u", whose plurals end in "us".
  static let uNouns: Set<String> = [
    "emu", "gnu", "menu", "guru", "tutu", "haiku", "bayou", "tofu", "kudzu", "tiramisu",
    "sudoku", "tabu", "caribou", "bijou",
  ]

  /// Singular nouns that end in "is" (the "-i" words, "kiwis", "taxis", "skis", lose the "s").
  static let latinIs: Set<String> = [
    "iris", "tennis", "axis", "pelvis", "chassis", "trellis", "debris", "hubris", "mantis",
    "ibis", "cannabis", "marquis", "proboscis", "epidermis", "metropolis", "acropolis",
    "clematis", "aphis", "penis", "clitoris", "this",
  ]

  /// Singular nouns that end in "os".
  static let greekOs: Set<String> = [
    "chaos", "cosmos", "asbestos", "kudos", "pathos", "ethos", "rhinoceros", "thermos",
  ]

  /// Singular nouns that end in "as".
  static let singularAs: Set<String> = [
    "gas", "atlas", "canvas", "christmas", "pancreas", "alias", "bias", "pajamas", "pyjamas",
    "texas", "vegas", "fracas", "madras",
  ]
}
