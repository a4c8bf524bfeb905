import Foundation
import GuessworkCore
import Testing

/// A message's arguments: a short list by name, in the order given, equal in any order.
@Suite struct MessageTests {
  @Test("Arguments are found by name and kept in the order given")
  func argumentsByName() {
    let args: Message.Arguments = ["low": 1, "high": 9, "name": "Ana"]
    #expect(args.map(\.0) == ["low", "high", "name"])
    #expect(args["high"] == .int(9))
    #expect(args["name"] == .text("Ana"))
    #expect(args["count"] == nil)
    #expect(args.count == 3)
    #expect(!args.isEmpty)
    #expect((Message.Arguments()).isEmpty)
  }

  @Test("Setting a name replaces its value in place or adds it last; nil removes it")
  func settingArguments() {
    var args: Message.Arguments = ["low": 1, "high": 9]
    args["low"] = 2
    args["setting"] = .text("attempts")
    #expect(args.map(\.0) == ["low", "high", "setting"])
    #expect(args["low"] == .int(2))
    args["high"] = nil
    args["absent"] = nil
    #expect(args.map(\.0) == ["low", "setting"])
    #expect(args == ["setting": "attempts", "low": 2])
  }

  @Test("Messages are equal, and hash alike, when their names have the same values in any order")
  func equalityIgnoresOrder() {
    let one = Message("k", ["a": 1, "b": "x"])
    let other = Message("k", ["b": "x", "a": 1])
    #expect(one == other)
    #expect(one.hashValue == other.hashValue)
    #expect(Set([one, other]).count == 1)
    #expect(one != Message("k", ["a": 1, "b": "y"]))
    #expect(one != Message("k", ["a": 1]))
    #expect(one != Message("k", ["a": 1, "b": "x", "c": 2]))
    #expect(one != Message("j", ["a": 1, "b": "x"]))
  }

  @Test("A message reads back from its JSON, every kind of argument included")
  func decodes() throws {
    let json = #"{"key":"k","args":{"n":3,"d":0.5,"t":"x","r":{"key":"game.number"}}}"#
    let message = try JSONDecoder().decode(Message.self, from: Data(json.utf8))
    #expect(
      message == Message("k", ["n": 3, "d": .decimal(0.5), "t": "x", "r": .key("game.number")]))
    #expect(
      try JSONDecoder().decode(Message.self, from: Data(#"{"key":"k"}"#.utf8)) == Message("k"))
    #expect(message.description == "k(d: 0.5, n: 3, r: game.number, t: x)")
  }
}
