import Foundation
import GuessworkStore
import Testing

@Suite("Party rooms in the store")
struct RoomStoreTests {
  func room(_ code: String, host: String, version: Int = 0, open: Bool = true, at: Int64 = 10)
    -> RoomRecord
  {
    RoomRecord(
      code: code, hostID: host, state: #"{"v":\#(version)}"#, version: version, players: 0,
      isOpen: open, createdAt: 10, updatedAt: at)
  }

  @Test(
    "A code is one open room; a save needs the version it read; two racing saves: one wins",
    arguments: Backend.available)
  func versions(backend: Backend) async throws {
    try await withStore(backend) { store in
      let host = PlayerRecord(id: UUID().uuidString, name: "Host", createdAt: 5)
      try await store.insertPlayer(host, tokenHash: UUID().uuidString)
      let code = String(UUID().uuidString.prefix(6))
      #expect(try await store.insertRoom(room(code, host: host.id)))
      #expect(try await !store.insertRoom(room(code, host: host.id)))
      #expect(try await store.room(code: code) == room(code, host: host.id))
      // Two instances read version 0 and both save version 1: only one is stored.
      async let first = store.saveRoom(
        room(code, host: host.id, version: 1, at: 20), expectedVersion: 0)
      async let second = store.saveRoom(
        room(code, host: host.id, version: 1, at: 21), expectedVersion: 0)
      let saved = try await [first, second]
      #expect(saved.filter { $0 }.count == 1)
      #expect(try await store.room(code: code)?.version == 1)
      #expect(try await store.openRooms(limit: 1000).contains { $0.code == code })
      // Closed, it is no longer listed, and its code may be given again.
      #expect(
        try await store.saveRoom(
          room(code, host: host.id, version: 2, open: false, at: 30), expectedVersion: 1))
      #expect(try await !store.openRooms(limit: 1000).contains { $0.code == code })
      #expect(try await store.insertRoom(room(code, host: host.id)))
    }
  }

  @Test("PostgreSQL tells every listener of a saved room: code and version")
  func notifications() async throws {
    guard Backend.available.contains(.postgres) else { return }
    try await withStore(.postgres) { store in
      let listening = try #require(store.roomChanges())
      let host = PlayerRecord(id: UUID().uuidString, name: "Host", createdAt: 5)
      try await store.insertPlayer(host, tokenHash: UUID().uuidString)
      let code = String(UUID().uuidString.prefix(6))
      #expect(try await store.insertRoom(room(code, host: host.id)))
      // LISTEN takes a moment to be in place: save every 200 ms until a notification arrives
      // (at most 20 times).
      let change = await withTaskGroup(of: String?.self) { group in
        group.addTask {
          for await change in listening where change.hasPrefix(code) { return change }
          return nil
        }
        group.addTask {
          for version in 0..<20 {
            _ = try? await store.saveRoom(
              room(code, host: host.id, version: version + 1), expectedVersion: version)
            try? await Task.sleep(for: .milliseconds(200))
          }
          return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
      }
      let heard = try #require(change)
      #expect(heard.hasPrefix("\(code) "))
      #expect((Int(heard.split(separator: " ")[1]) ?? 0) >= 1)
    }
  }
}
