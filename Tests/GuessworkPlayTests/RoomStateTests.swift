import Foundation
import GuessworkCore
import Testing

@testable import GuessworkPlay

@Suite("A room as stored and seen: actions from JSON, storing, each connection's view")
struct RoomStateTests {
  let t0 = Instant(milliseconds: 5_000_000)

  func body(_ json: String) -> Data { Data(json.utf8) }

  func request(_ json: String) throws -> RoomRequest {
    try JSONDecoder().decode(RoomRequest.self, from: body(json))
  }

  /// A room with four players who chose Guess or Pass in two teams.
  func teamsRoom(wordsOn: String) throws -> RoomState {
    var state = RoomState(room: Room(code: "K7QM", host: "h", at: t0))
    for id in ["a", "b", "c", "d"] { try state.room.join(id, name: id.uppercased(), at: t0) }
    state.version = 4
    let choose = """
      {"version": 4, "action": {"type": "choose", "game": "guess-or-pass",
       "settings": {"duration": 30}, "category": "animals", "teams": 2, "wordsOn": "\(wordsOn)"}}
      """
    let read = try request(choose)
    _ = try state.apply(read.action, by: "h", version: read.version, body: body(choose), at: t0)
    let start = #"{"version": 5, "action": {"type": "start"}}"#
    _ = try state.apply(
      try request(start).action, by: "h", version: 5, body: body(start),
      content: .words(WordList(fresh: ["zebra", "otter", "panda", "koala"]), category: "animals"),
      seed: 1, at: t0)
    return state
  }

  func json(_ view: RoomView) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as! [String: Any]
  }

  func word(in view: RoomView) throws -> String? {
    let turn = try json(view)["turn"] as? [String: Any]
    return (turn?["view"] as? [String: Any])?["word"] as? String
  }

  @Test("A team game needs a player per team; a game of rounds one player; a list decides")
  func playersNeeded() throws {
    func start(_ game: String, teams: Int, players: Int, kinds: RoomKinds = .standard) throws {
      var state = RoomState(room: Room(code: "K7QM", host: "h", at: t0), kinds: kinds)
      for id in ["a", "b", "c"].prefix(players) { try state.room.join(id, name: id, at: t0) }
      let choose = #"{"action": {"type": "choose", "game": "\#(game)", "teams": \#(teams)}}"#
      _ = try state.apply(
        try request(choose).action, by: "h", version: 0, body: body(choose), at: t0)
      let start = #"{"action": {"type": "start"}}"#
      _ = try state.apply(
        try request(start).action, by: "h", version: 1, body: body(start),
        content: .words(WordList(fresh: ["zebra", "otter", "panda", "koala"]), category: "a"),
        seed: 1, at: t0)
    }
    #expect(throws: RoomRefusal(.tooFewPlayers, ["count": .int(3)])) {
      try start("guess-or-pass", teams: 3, players: 2)
    }
    try start("guess-or-pass", teams: 3, players: 3)
    // Number ignores the team count: one player is enough.
    try start("number", teams: 3, players: 1)
    // A server whose list lacks a game does not play it in rooms.
    #expect(throws: RoomUnknownGame.self) {
      try start("number", teams: 2, players: 1, kinds: RoomKinds([BullseyeGame.self]))
    }
  }

  @Test("The holder never sees the word; teammates or the screen do, as the host chose")
  func wordVisibility() throws {
    let playing = t0.advanced(by: 6_000)
    for wordsOn in ["phones", "screen"] {
      let state = try teamsRoom(wordsOn: wordsOn)
      func seen(_ viewer: RoomViewer) throws -> String? {
        try word(in: state.view(for: viewer, at: playing, connected: [], link: ""))
      }
      // Teams: a, c | b, d; a holds first.
      let (a, b, c, d, screen) = (
        try seen(.player("a")), try seen(.player("b")), try seen(.player("c")),
        try seen(.player("d")), try seen(.screen)
      )
      #expect(a == nil && b == nil && d == nil)
      #expect((c != nil) == (wordsOn == "phones"))
      #expect((screen != nil) == (wordsOn == "screen"))
      let holder = state.view(for: .player("a"), at: playing, connected: [], link: "")
      #expect(holder.you?.holding == true && holder.phase == "turn")
    }
  }

  @Test("A room read back from storage is the same room")
  func roundTrip() throws {
    var state = try teamsRoom(wordsOn: "phones")
    let guessed = #"{"action": {"type": "play", "action": {"type": "guessed"}}}"#
    _ = try state.apply(
      try request(guessed).action, by: "a", version: nil, body: body(guessed),
      at: t0.advanced(by: 6_000))
    let encoded = try state.encoded()
    let read = try RoomState(encoded: encoded, version: state.version)
    #expect(try read.encoded() == encoded)
    let at = t0.advanced(by: 7_000)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for viewer in [RoomViewer.screen, .player("a"), .player("c")] {
      let before = try encoder.encode(state.view(for: viewer, at: at, connected: [], link: ""))
      let after = try encoder.encode(read.view(for: viewer, at: at, connected: [], link: ""))
      #expect(before == after)
    }
  }

  @Test("A host's action needs the current version; a player's answer does not")
  func versions() throws {
    var state = try teamsRoom(wordsOn: "screen")
    let next = #"{"version": 1, "action": {"type": "next"}}"#
    #expect(throws: RoomStale.self) {
      try state.apply(try request(next).action, by: "h", version: 1, body: body(next), at: t0)
    }
    #expect(throws: RoomRefusal(.notHost)) {
      try state.apply(try request(next).action, by: "a", version: 6, body: body(next), at: t0)
    }
    #expect(state.version == 6)
  }

  @Test("Unknown actions and games are decoding errors that name what is allowed")
  func unreadable() throws {
    #expect(throws: DecodingError.self) { try request(#"{"action": {"type": "dance"}}"#) }
    var state = RoomState(room: Room(code: "K7QM", host: "h", at: t0))
    let chess = #"{"version": 0, "action": {"type": "choose", "game": "chess"}}"#
    #expect(throws: RoomUnknownGame.self) {
      try state.apply(try request(chess).action, by: "h", version: 0, body: body(chess), at: t0)
    }
    let bad =
      #"{"version": 0, "action": {"type": "choose", "game": "number", "settings": {"attempts": 99}}}"#
    #expect(throws: RoomPlayError.self) {
      try state.apply(try request(bad).action, by: "h", version: 0, body: body(bad), at: t0)
    }
    #expect(state.version == 0 && state.room.choice == nil)
  }
}
