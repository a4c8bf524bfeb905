import Foundation
import GuessworkCore
import GuessworkJSON
import GuessworkStore
import Testing

@testable import GuessworkServer

/// The reply to every move and read writes its own JSON (`JSONTextWritable`): it must say
/// what its `encode(to:)` says, with every optional part present or absent, around the view,
/// summary and events of a game that writes its own text (Number) and of one that does not.
@Suite("A game's reply")
struct GameReplyTests {
  /// The same JSON value, whatever the order of keys.
  func canonical(_ json: some Sequence<UInt8>) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed)
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys),
      as: UTF8.self)
  }

  func expectAsCodable(_ reply: API.GameReply, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let written = try CompactJSON.encode(reply)
    #expect(
      try canonical(written) == canonical(JSONEncoder().encode(reply)),
      "\(String(decoding: written, as: UTF8.self))", sourceLocation: sourceLocation)
  }

  @Test func writesWhatItsEncodingSays() throws {
    var number = try NumberGame(settings: .init(), content: (), seed: 5, at: .zero)
    var events = try number.apply(.guess(50), at: .zero)
    events += try number.apply(.digit(7), at: .zero)
    var match = try ColorMatchGame(settings: .init(), content: (), seed: 5, at: .zero)
    let matchEvents = match.tick(at: Instant(milliseconds: 60_000))
    let daily = API.DailyReply(
      date: "2026-11-27", number: 331, counted: true,
      share: .init(text: "Guesswork \"daily\" 🎯\n", url: "https://example.org/daily"))
    let plain = API.GameReply(
      id: "g1", game: "number", version: 2, isOver: false, score: 0, variant: nil,
      view: number.view(at: .zero), events: nil, summary: nil, newBest: nil,
      newBestOverall: nil, daily: nil)
    try expectAsCodable(plain)
    var everything = plain
    everything.variant = "animals"
    everything.events = events
    everything.summary = number.summary
    everything.newBest = true
    everything.newBestOverall = false
    everything.daily = daily
    try expectAsCodable(everything)
    var noEvents = plain
    noEvents.events = []
    try expectAsCodable(noEvents)
    try expectAsCodable(
      API.GameReply(
        id: "g2", game: "colorMatch", version: 9, isOver: match.isOver, score: match.score,
        variant: nil, view: match.view(at: Instant(milliseconds: 60_000)), events: matchEvents,
        summary: match.summary, newBest: nil, newBestOverall: true,
        daily: API.DailyReply(date: "2026-11-27", number: 331, counted: false, share: nil)))
  }
}
