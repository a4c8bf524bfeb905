import Foundation
import Testing

@testable import GuessworkCore

/// The JSON the browser sends and receives, pinned so that page and core cannot drift apart.
@Suite("Bullseye wire format")
struct BullseyeWireTests {
  typealias H = BullseyeHelpers

  @Test(
    "Actions decode from the JSON a page sends",
    arguments: [
      (
        #"{"type":"check","guess":{"r":10,"g":20,"b":30}}"#,
        Bullseye.Action.check(guess: RGB(r: 10, g: 20, b: 30))
      ),
      (#"{"type":"next"}"#, .next),
      (#"{"type":"newColour"}"#, .newColour),
      (#"{"type":"finish"}"#, .finish),
      // Out-of-range channels decode, so that the game can refuse them with a reason.
      (
        #"{"type":"check","guess":{"r":300,"g":-1,"b":0}}"#, .check(guess: RGB(r: 300, g: -1, b: 0))
      ),
    ])
  func decodeActions(json: String, action: Bullseye.Action) throws {
    #expect(try H.decode(Bullseye.Action.self, json) == action)
    // And encoding gives back an equal action.
    #expect(try H.decode(Bullseye.Action.self, H.json(action)) == action)
  }

  @Test("Actions encode as flat objects with a type")
  func encodeActions() throws {
    #expect(
      try H.json(Bullseye.Action.check(guess: RGB(r: 10, g: 20, b: 30)))
        == #"{"guess":{"b":30,"g":20,"r":10},"type":"check"}"#)
    #expect(try H.json(Bullseye.Action.newColour) == #"{"type":"newColour"}"#)
  }

  @Test(
    "Malformed actions are decoding errors",
    arguments: [
      #"{"type":"guess","number":4}"#, #"{"type":"check"}"#,
      #"{"type":"check","guess":{"r":1.5,"g":0,"b":0}}"#,
      #"{"type":"check","guess":{"r":1,"g":2}}"#,
      #"{"guess":{"r":1,"g":2,"b":3}}"#, #"[]"#,
    ])
  func malformedActions(json: String) {
    #expect(throws: DecodingError.self) { try H.decode(Bullseye.Action.self, json) }
  }

  @Test("An unknown action type says which types exist")
  func unknownType() {
    do {
      _ = try H.decode(Bullseye.Action.self, #"{"type":"peek"}"#)
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("peek"))
      #expect(context.debugDescription.contains("newColour"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(
    "Events encode as flat objects with a type and decode back",
    arguments: [
      (
        Bullseye.Event.scored(
          round: 1, target: RGB(r: 145, g: 190, b: 248), guess: RGB(r: 10, g: 20, b: 30), score: 5,
          deltaE: 63.5),
        #"{"deltaE":63.5,"guess":{"b":30,"g":20,"r":10},"round":1,"score":5,"target":{"b":248,"g":190,"r":145},"type":"scored"}"#
      ),
      (
        .checked(round: 2, guess: RGB(r: 1, g: 2, b: 3), score: 43, deltaE: 7.1),
        #"{"deltaE":7.1,"guess":{"b":3,"g":2,"r":1},"round":2,"score":43,"type":"checked"}"#
      ),
      (.newTarget(round: 2), #"{"round":2,"type":"newTarget"}"#),
      (
        .revealed(round: 1, target: RGB(r: 151, g: 191, b: 152)),
        #"{"round":1,"target":{"b":152,"g":191,"r":151},"type":"revealed"}"#
      ),
      (
        .gameOver(score: 300, total: 300, maxTotal: 500),
        #"{"maxTotal":500,"score":300,"total":300,"type":"gameOver"}"#
      ),
    ])
  func events(event: Bullseye.Event, json: String) throws {
    #expect(try H.json(event) == json)
    #expect(try H.decode(Bullseye.Event.self, json) == event)
  }

  @Test("The view while guessing is pinned and holds no target")
  func guessingView() throws {
    let game = try H.newGame(seed: 1)
    #expect(game.target == RGB(r: 145, g: 190, b: 248))
    #expect(
      try H.json(game.view(at: .zero))
        == #"{"actions":["check"],"freePlay":false,"isOver":false,"maxTotal":500,"message":{"args":{"round":1,"rounds":5},"key":"bullseye.round"},"phase":"guessing","round":1,"rounds":5,"score":0,"scoring":"perceptual","startGuess":{"b":128,"g":128,"r":128},"total":0}"#
    )
  }

  @Test("The view of a scored round is pinned: target and guess with hex, score, ΔE, meaning")
  func scoredView() throws {
    var game = try H.newGame(seed: 1)
    H.play(&game, .check(guess: RGB(r: 10, g: 20, b: 30)))
    #expect(
      try H.json(game.view(at: .zero))
        == ##"{"actions":["next"],"freePlay":false,"isOver":false,"maxTotal":500,"message":{"args":{"deltaE":63.5,"score":5},"key":"bullseye.scored"},"phase":"scored","result":{"checks":1,"deltaE":63.5,"deltaEText":"63.5","guess":{"b":30,"g":20,"hex":"#0A141E","r":10},"meaning":{"key":"bullseye.difference.oppositeColours"},"round":1,"score":5,"target":{"b":248,"g":190,"hex":"#91BEF8","r":145}},"round":1,"rounds":5,"score":5,"scoring":"perceptual","startGuess":{"b":128,"g":128,"r":128},"total":5}"##
    )
  }

  @Test("The free-play views are pinned: a check hides the target, a new colour reveals it")
  func freePlayViews() throws {
    var game = try H.newGame(scoring: .classic, freePlay: true, seed: 2)
    #expect(game.target == RGB(r: 151, g: 191, b: 152))
    H.play(&game, .check(guess: RGB(r: 10, g: 20, b: 30)))
    #expect(
      try H.json(game.view(at: .zero))
        == ##"{"actions":["check","newColour","finish"],"bestScore":43,"freePlay":true,"isOver":false,"maxTotal":0,"message":{"args":{"deltaE":63.9,"score":43},"key":"bullseye.freePlay.checked"},"phase":"guessing","result":{"checks":1,"deltaE":63.9,"deltaEText":"63.9","guess":{"b":30,"g":20,"hex":"#0A141E","r":10},"meaning":{"key":"bullseye.difference.oppositeColours"},"round":1,"score":43},"round":1,"score":43,"scoring":"classic","startGuess":{"b":30,"g":20,"r":10},"total":0}"##
    )
    H.play(&game, .newColour)
    #expect(
      try H.json(game.view(at: .zero))
        == ##"{"actions":["check","newColour","finish"],"bestScore":43,"freePlay":true,"isOver":false,"maxTotal":100,"message":{"key":"bullseye.freePlay.start"},"phase":"guessing","revealed":{"best":{"checks":1,"deltaE":63.9,"deltaEText":"63.9","guess":{"b":30,"g":20,"hex":"#0A141E","r":10},"meaning":{"key":"bullseye.difference.oppositeColours"},"round":1,"score":43,"target":{"b":152,"g":191,"hex":"#97BF98","r":151}},"round":1,"target":{"b":152,"g":191,"hex":"#97BF98","r":151}},"round":2,"score":43,"scoring":"classic","startGuess":{"b":128,"g":128,"r":128},"total":43}"##
    )
    #expect(
      try H.json(game.summary)
        == ##"{"average":43,"bestRoundScore":43,"checks":1,"freePlay":true,"maxTotal":100,"rounds":[{"checks":1,"deltaE":63.9,"deltaEText":"63.9","guess":{"b":30,"g":20,"hex":"#0A141E","r":10},"meaning":{"key":"bullseye.difference.oppositeColours"},"round":1,"score":43,"target":{"b":152,"g":191,"hex":"#97BF98","r":151}}],"scoring":"classic","total":43}"##
    )
  }

  @Test("Views and summaries decode back to themselves")
  func viewRoundTrip() throws {
    var game = try H.newGame(rounds: 2, seed: 10)
    H.play(&game, .check(guess: .white))
    H.play(&game, .next)
    H.play(&game, .check(guess: .black))
    let view = game.view(at: .zero)
    #expect(try H.decode(Bullseye.View.self, H.json(view)) == view)
    #expect(try H.decode(Bullseye.Summary.self, H.json(game.summary)) == game.summary)
  }
}
