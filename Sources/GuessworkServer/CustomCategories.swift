import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore

/// A player's own Guess or Pass categories: a name and 10...500 words, seen by nobody else.
enum CustomCategoryRules {
  static let nameLimit = 40
  static let wordLimit = 40
  static let words = 10...500
  static let perPlayer = 50
  static let idPrefix = "custom-"

  /// The name, trimmed, or a message that says what is wrong.
  static func validName(_ raw: String) throws -> String {
    try checked(StoredText(field: "text.field.name", characters: nameLimit), raw)
  }

  /// All the words of a category together, in bytes: 500 words of 40 bytes.
  static let totalBytes = 20_000

  private static func checked(_ rule: StoredText, _ raw: String, collapsingSpaces: Bool = false)
    throws -> String
  {
    do {
      return try rule.clean(raw, collapsingSpaces: collapsingSpaces)
    } catch {
      throw APIError(.badRequest, "invalid-category", [error.message])
    }
  }

  /// The words, trimmed, blanks and repeats (ignoring case) dropped, or a message that says
  /// what is wrong.
  static func validWords(_ raw: [String]) throws -> [String] {
    var seen = Set<String>()
    var words: [String] = []
    let rule = StoredText(field: "text.field.eachWord", characters: wordLimit)
    for entry in raw where !entry.allSatisfy(\.isWhitespace) {
      let word = try checked(rule, entry, collapsingSpaces: true)
      guard !WordCleaning.containsBlockedWord(word) else {
        throw APIError(
          .badRequest, "invalid-category", "error.category.blocked", ["word": .text("\(word)")])
      }
      if seen.insert(word.lowercased()).inserted { words.append(word) }
    }
    guard words.count >= Self.words.lowerBound else {
      throw APIError(
        .badRequest, "invalid-category", "error.category.tooFew",
        ["lowerBound": .text("\(Self.words.lowerBound)"), "words": .text("\(words.count)")])
    }
    guard words.count <= Self.words.upperBound else {
      throw APIError(
        .badRequest, "invalid-category", "error.category.tooMany",
        ["upperBound": .text("\(Self.words.upperBound)"), "words": .text("\(words.count)")])
    }
    let bytes = words.reduce(0) { $0 + $1.utf8.count }
    guard bytes <= totalBytes else {
      throw APIError(
        .badRequest, "invalid-category", "error.category.tooLong",
        ["totalBytes": .text("\(totalBytes)"), "bytes": .text("\(bytes)")])
    }
    return words
  }
}

extension API {
  struct CategoryInput: Decodable {
    var name: String
    var words: [String]
  }

  struct CustomCategoryView: Encodable {
    var id: String
    var name: String
    var words: [String]
    var createdAt: Int64
    var updatedAt: Int64

    init(_ record: CustomCategoryRecord) {
      id = record.id
      name = record.name
      words = record.words
      createdAt = record.createdAt
      updatedAt = record.updatedAt
    }
  }

  struct CustomCategoryList: Encodable {
    var categories: [CustomCategoryView]
  }

  func addCustomCategoryRoutes(to router: Router<some RequestContext>) {
    router.get("/api/categories") { request, _ in
      let player = try await identity.requirePlayer(of: request)
      return json(
        CustomCategoryList(
          categories: try await store.customCategories(playerID: player.id).map(
            CustomCategoryView.init)))
    }
    router.post("/api/categories") { request, _ in try await createCategory(request) }
    router.get("/api/categories/{id}") { request, context in
      let record = try await ownCategory(request, id: context.parameters.require("id"))
      return json(CustomCategoryView(record))
    }
    router.put("/api/categories/{id}") { request, context in
      var record = try await ownCategory(request, id: context.parameters.require("id"))
      let input = try await categoryInput(request, playerID: record.playerID, except: record.id)
      record.name = input.name
      record.words = input.words
      record.updatedAt = clock().milliseconds
      guard try await store.updateCustomCategory(record) else {
        throw APIError.notFound("category")
      }
      return json(CustomCategoryView(record))
    }
    router.delete("/api/categories/{id}") { request, context in
      let player = try await identity.requirePlayer(of: request)
      guard
        try await store.deleteCustomCategory(
          id: try context.parameters.require("id"), playerID: player.id)
      else { throw APIError.notFound("category") }
      try? await store.clearSeen(
        playerID: player.id, category: try context.parameters.require("id"))
      return Response(status: .noContent)
    }
  }

  private func ownCategory(_ request: Request, id: String) async throws -> CustomCategoryRecord {
    let player = try await identity.requirePlayer(of: request)
    guard let record = try await store.customCategory(id: id), record.playerID == player.id
    else { throw APIError.notFound("category") }
    return record
  }

  /// A category body, checked: a valid name not used by the player's other categories nor by
  /// a built-in one, and 10...500 words.
  private func categoryInput(_ request: Request, playerID: String, except: String?) async throws
    -> (name: String, words: [String])
  {
    let input = try JSONDecoder().decode(CategoryInput.self, from: try await body(of: request))
    let name = try CustomCategoryRules.validName(input.name)
    let taken =
      content.categories.map(\.title)
      + (try await store.customCategories(playerID: playerID)).filter { $0.id != except }.map(
        \.name)
    if taken.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
      throw APIError(
        .badRequest, "invalid-category", "error.category.nameTaken", ["name": .text("\(name)")])
    }
    return (name, try CustomCategoryRules.validWords(input.words))
  }

  private func createCategory(_ request: Request) async throws -> Response {
    let player = try await identity.requirePlayer(of: request)
    let full = APIError(
      .badRequest, "invalid-category", "error.category.full",
      ["perPlayer": .text("\(CustomCategoryRules.perPlayer)")])
    // Said early when it is plain; decided in the store, where creations at once are counted.
    guard
      try await store.customCategories(playerID: player.id).count
        < CustomCategoryRules.perPlayer
    else { throw full }
    let input = try await categoryInput(request, playerID: player.id, except: nil)
    let now = clock().milliseconds
    let record = CustomCategoryRecord(
      id: CustomCategoryRules.idPrefix + UUID().uuidString.lowercased(), playerID: player.id,
      name: input.name, words: input.words, createdAt: now)
    guard try await store.insertCustomCategory(record, limit: CustomCategoryRules.perPlayer)
    else { throw full }
    return json(CustomCategoryView(record), status: .created)
  }

  // MARK: The words of a round

  /// The words of a round in `id` for this player: a built-in category's bundled and stored
  /// words, or the player's own category's; words the player has seen in earlier rounds go
  /// last, until every word has been seen and a new cycle starts.
  func roundWords(playerID: String, category id: String?, language: Language = .en)
    async throws -> (
      WordList, title: String
    )
  {
    guard let id else { throw APIError.noCategory }
    let all: [String]
    let title: String
    if content.category(id) != nil {
      all = await words.words(category: id, language: language)
      title = catalog(language)("category.\(id)")
    } else if id.hasPrefix(CustomCategoryRules.idPrefix),
      let custom = try await store.customCategory(id: id), custom.playerID == playerID
    {
      all = custom.words
      title = custom.name
    } else {
      throw APIError.unknownCategory(content.categories.map(\.id))
    }
    let seen = try await store.seenWords(playerID: playerID, category: id)
    let fresh = all.filter { !seen.contains($0) }
    if fresh.isEmpty {
      // Every word has been seen: start over.
      try await store.clearSeen(playerID: playerID, category: id)
      return (WordList(fresh: all), title)
    }
    return (WordList(fresh: fresh, seen: all.filter { seen.contains($0) }), title)
  }
}
