import Foundation
import GuessworkContent
import Testing

@Suite("Bundled words")
struct BundledWordTests {
  static let library = ContentLibrary.bundled

  @Test("Every category of the original app ships", arguments: ContentLibrary.categoryIDs)
  func categoryShips(id: String) throws {
    let category = try #require(Self.library.category(id))
    #expect(category.words.count >= 200, "\(id) has only \(category.words.count) words")
  }

  @Test("No word repeats within a category (ignoring case)", arguments: ContentLibrary.categoryIDs)
  func noDuplicates(id: String) throws {
    let words = try #require(Self.library.category(id)).words.map { $0.lowercased() }
    let repeated = Dictionary(grouping: words, by: { $0 }).filter { $0.value.count > 1 }.keys
    #expect(repeated.isEmpty, "\(id) repeats \(repeated.sorted())")
  }

  @Test("Every word is one or two words of letters", arguments: ContentLibrary.categoryIDs)
  func oneOrTwoWords(id: String) throws {
    for word in try #require(Self.library.category(id)).words {
      let parts = word.split(separator: " ")
      #expect((1...2).contains(parts.count), "\(id): \"\(word)\"")
      #expect(
        word.allSatisfy { $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" },
        "\(id): \"\(word)\" has digits or symbols")
    }
  }

  @Test("No word is on the blocklist, as a whole word", arguments: ContentLibrary.categoryIDs)
  func blocklist(id: String) throws {
    for word in try #require(Self.library.category(id)).words {
      #expect(!WordCleaning.containsBlockedWord(word), "\(id): \"\(word)\" is blocked")
    }
  }

  @Test(
    "Every bundled word is already clean (its cleaned form is itself)",
    arguments: ContentLibrary.categoryIDs)
  func alreadyClean(id: String) throws {
    for word in try #require(Self.library.category(id)).words {
      #expect(WordCleaning.cleaned(word) == word.lowercased(), "\(id): \"\(word)\"")
    }
  }

  @Test("The blocklist loads and matches whole words only")
  func wholeWordsOnly() {
    #expect(ContentLibrary.blocklist.count > 20)
    for fine in ["grape", "cucumber", "grass", "peacock", "scrap", "assassin bug", "bass"] {
      #expect(!WordCleaning.containsBlockedWord(fine), "\(fine)")
    }
    let blocked = ContentLibrary.blocklist.first!
    #expect(WordCleaning.containsBlockedWord("big \(blocked)"))
    #expect(WordCleaning.cleaned("big \(blocked)") == nil)
  }
}

@Suite("Word cleaning")
struct WordCleaningTests {
  @Test(
    "Plurals become real singulars",
    arguments: [
      ("buses", "bus"), ("dogs", "dog"), ("berries", "berry"), ("puppies", "puppy"),
      ("potatoes", "potato"), ("tomatoes", "tomato"), ("shoes", "shoe"), ("boxes", "box"),
      ("foxes", "fox"), ("glasses", "glasses"), ("dresses", "dress"), ("churches", "church"),
      ("brushes", "brush"), ("headaches", "headache"), ("wolves", "wolf"), ("leaves", "leaf"),
      ("knives", "knife"), ("olives", "olive"), ("mice", "mouse"), ("geese", "goose"),
      ("children", "child"), ("horses", "horse"), ("houses", "house"), ("viruses", "virus"),
      ("movies", "movie"), ("cookies", "cookie"), ("kiwis", "kiwi"), ("taxis", "taxi"),
      ("tacos", "taco"), ("pianos", "piano"), ("pandas", "panda"), ("bananas", "banana"),
      ("menus", "menu"), ("emus", "emu"), ("quizzes", "quiz"), ("hot dogs", "hot dog"),
      ("ice skates", "ice skate"), ("aardwolves", "aardwolf"), ("dormice", "dormouse"),
      ("housewives", "housewife"), ("valves", "valve"), ("olives", "olive"), ("abdomen", "abdomen"),
      ("comics", "comics"), ("gases", "gas"), ("lenses", "lens"),
    ])
  func plurals(plural: String, singular: String) {
    #expect(WordCleaning.cleaned(plural) == singular)
  }

  @Test(
    "Singular words that end in s stay as they are",
    arguments: [
      "bus", "glass", "news", "species", "grass", "tennis", "cactus", "octopus", "iris",
      "chess", "gas", "series", "asparagus", "hummus", "walrus", "platypus", "canvas", "atlas",
      "lens", "analysis", "bronchitis", "circus", "chaos", "boss", "scissors", "jeans",
    ])
  func singulars(word: String) {
    #expect(WordCleaning.singular(word) == word)
  }

  @Test("Nothing over two words, no digits or symbols, no blanks")
  func shapes() {
    #expect(WordCleaning.cleaned("hot air balloon") == nil)
    #expect(WordCleaning.cleaned("mp3") == nil)
    #expect(WordCleaning.cleaned("4x4") == nil)
    #expect(WordCleaning.cleaned("c++") == nil)
    #expect(WordCleaning.cleaned("rock & roll") == nil)
    #expect(WordCleaning.cleaned("   ") == nil)
    #expect(WordCleaning.cleaned("") == nil)
    #expect(WordCleaning.cleaned("  Golden  Retriever ") == "golden retriever")
    #expect(WordCleaning.cleaned("t-rex") == "t-rex")
  }

  @Test("Duplicates go, the first one kept, after singulars are made")
  func duplicates() {
    #expect(
      WordCleaning.clean(["Dogs", "dog", "cat", "CAT", "cats", "buses", "bus"])
        == ["dog", "cat", "bus"])
  }
}

@Suite("Cities")
struct CityTests {
  @Test("At least 300 cities with coordinates, Skopje among them")
  func bundled() {
    #expect(City.bundled.count >= 300)
    #expect(
      City.bundled.allSatisfy { (-90...90).contains($0.lat) && (-180...180).contains($0.lon) })
    #expect(City.bundled.contains { $0.name == "Skopje" })
  }

  @Test(
    "The nearest city to a point",
    arguments: [
      (41.99, 21.43, "Skopje"), (51.51, -0.13, "London"), (48.86, 2.35, "Paris"),
      (35.68, 139.69, "Tokyo"), (-33.87, 151.21, "Sydney"), (40.71, -74.0, "New York"),
    ])
  func nearest(lat: Double, lon: Double, name: String) throws {
    let found = try #require(City.nearest(lat: lat, lon: lon))
    #expect(found.city.name == name)
    #expect(found.km < 30)
  }

  @Test("Distances are great-circle kilometres")
  func distance() {
    // London to Paris is about 344 km.
    #expect(abs(City.distanceKm(51.5074, -0.1278, 48.8566, 2.3522) - 344) < 5)
  }
}
