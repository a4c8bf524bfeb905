import Foundation
import GuessworkStore
import Testing

@Suite("Store contract: words, seen words, custom categories, reminders")
struct WordsAndRemindersContractTests {
  @Test(
    "Stored words keep their first source, and count only new ones", arguments: Backend.available)
  func words(backend: Backend) async throws {
    try await withStore(backend) { (store: SQLStore) async throws in
      let category = "test-\(UUID().uuidString)"
      #expect(
        try await store.addWords(["otter", "lynx"], category: category, source: "datamuse", at: 10)
          == 2)
      #expect(
        try await store.addWords(["lynx", "yak"], category: category, source: "cli", at: 20) == 1)
      let words = try await store.storedWords(category: category)
      #expect(
        words == [
          StoredWord(word: "lynx", source: "datamuse", fetchedAt: 10),
          StoredWord(word: "otter", source: "datamuse", fetchedAt: 10),
          StoredWord(word: "yak", source: "cli", fetchedAt: 20),
        ])
      #expect(try await store.storedWords(category: "other-\(UUID().uuidString)").isEmpty)
    }
  }

  @Test("A category's refresh is claimed at most once a day", arguments: Backend.available)
  func refreshClaims(backend: Backend) async throws {
    try await withStore(backend) { (store: SQLStore) async throws in
      let category = "test-\(UUID().uuidString)"
      let day: Int64 = 86_400_000
      #expect(try await store.lastRefresh(category: category) == nil)
      #expect(try await store.claimRefresh(category: category, lastBefore: 1_000 - day, at: 1_000))
      #expect(try await store.lastRefresh(category: category) == 1_000)
      // An hour later: refused, and the time of the last claim is kept.
      let later: Int64 = 1_000 + 3_600_000
      #expect(
        !(try await store.claimRefresh(category: category, lastBefore: later - day, at: later)))
      #expect(try await store.lastRefresh(category: category) == 1_000)
      let nextDay: Int64 = 1_000 + day
      #expect(
        try await store.claimRefresh(category: category, lastBefore: nextDay - day, at: nextDay))
    }
  }

  @Test(
    "Seen words are per player and category, and can be forgotten", arguments: Backend.available)
  func seenWords(backend: Backend) async throws {
    try await withStore(backend) { (store: SQLStore) async throws in
      let ana = try await newPlayer(store)
      let bo = try await newPlayer(store, name: "Bo")
      try await store.markSeen(
        playerID: ana.id, category: "animals", words: ["dog", "cat", "dog"], at: 5)
      try await store.markSeen(playerID: ana.id, category: "animals", words: ["cat", "owl"], at: 6)
      try await store.markSeen(playerID: ana.id, category: "food", words: ["pie"], at: 6)
      #expect(
        try await store.seenWords(playerID: ana.id, category: "animals") == ["dog", "cat", "owl"])
      #expect(try await store.seenWords(playerID: bo.id, category: "animals").isEmpty)
      try await store.clearSeen(playerID: ana.id, category: "animals")
      #expect(try await store.seenWords(playerID: ana.id, category: "animals").isEmpty)
      #expect(try await store.seenWords(playerID: ana.id, category: "food") == ["pie"])
    }
  }

  @Test("Custom categories belong to their player", arguments: Backend.available)
  func customCategories(backend: Backend) async throws {
    try await withStore(backend) { (store: SQLStore) async throws in
      let ana = try await newPlayer(store)
      let bo = try await newPlayer(store, name: "Bo")
      var category = CustomCategoryRecord(
        id: UUID().uuidString, playerID: ana.id, name: "Family", words: ["grandma", "uncle ted"],
        createdAt: 100)
      #expect(try await store.insertCustomCategory(category, limit: 50))
      #expect(try await store.customCategories(playerID: ana.id) == [category])
      #expect(try await store.customCategories(playerID: bo.id).isEmpty)
      #expect(try await store.customCategory(id: category.id) == category)

      category.name = "Relatives"
      category.words.append("cousin")
      category.updatedAt = 200
      #expect(try await store.updateCustomCategory(category))
      #expect(try await store.customCategory(id: category.id) == category)
      var foreign = category
      foreign.playerID = bo.id
      foreign.name = "Mine now"
      #expect(!(try await store.updateCustomCategory(foreign)))
      #expect(!(try await store.deleteCustomCategory(id: category.id, playerID: bo.id)))
      #expect(try await store.deleteCustomCategory(id: category.id, playerID: ana.id))
      #expect(try await store.customCategory(id: category.id) == nil)
    }
  }

  @Test("Reminders belong to their player, soonest first", arguments: Backend.available)
  func reminders(backend: Backend) async throws {
    try await withStore(backend) { (store: SQLStore) async throws in
      let ana = try await newPlayer(store)
      let bo = try await newPlayer(store, name: "Bo")
      let late = ReminderRecord(
        id: UUID().uuidString, playerID: ana.id, title: "Game night 🥳", startsAt: 9_000,
        utcOffsetMinutes: 60, place: "Skopje", createdAt: 1)
      let soon = ReminderRecord(
        id: UUID().uuidString, playerID: ana.id, title: "Quiz", startsAt: 5_000,
        utcOffsetMinutes: -300, place: "Lima", latitude: -12.0464, longitude: -77.0428,
        createdAt: 2)
      #expect(try await store.insertReminder(late, limit: 100))
      #expect(try await store.insertReminder(soon, limit: 100))
      #expect(try await store.reminders(playerID: ana.id) == [soon, late])
      #expect(try await store.reminders(playerID: bo.id).isEmpty)
      #expect(try await store.reminder(id: soon.id) == soon)
      #expect(!(try await store.deleteReminder(id: soon.id, playerID: bo.id)))
      #expect(try await store.deleteReminder(id: soon.id, playerID: ana.id))
      #expect(try await store.reminders(playerID: ana.id) == [late])
    }
  }
}
