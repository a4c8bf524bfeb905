public import GuessworkJSON

// The JSON text of a Picture Quiz state, written without Codable's containers
// (``JSONTextWritable``): the server stores the state at every tap, and it holds the deck and
// every question, each a container of its own through Codable (45 allocations a state). It
// writes the keys its `encode(to:)` writes (its settings' own, the rest synthesised), in the
// same order. `CompactJSONTests` holds every state of played games to Foundation's encoding.

extension PictureQuizGame {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"settings":{"choices":"#)
    text.writeJSON(integer: settings.choices)
    text.writeJSON(raw: #","questions":"#)
    text.writeJSON(integer: settings.questions)
    if !settings.noun.isEmpty {
      text.writeJSON(raw: #","noun":"#)
      text.writeJSON(string: settings.noun)
    }
    text.writeJSON(raw: #"},"deck":"#)
    try text.writeJSON(array: deck)
    text.writeJSON(raw: #","random":{"state":"#)
    text.writeJSON(integer: random.state)
    text.writeJSON(raw: #"},"questions":"#)
    try text.writeJSON(array: questions)
    text.writeJSON(raw: #","taps":"#)
    text.writeJSON(integers: taps)
    text.writeJSON(raw: #","phase":"#)
    text.writeJSON(string: phase.rawValue)
    text.writeJSON(raw: #","score":"#)
    text.writeJSON(integer: score)
    text.writeJSON(raw: "}")
  }
}

extension PictureQuizGame.Question: JSONTextWritable {
  func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"answer":"#)
    text.writeJSON(integer: answer)
    text.writeJSON(raw: #","choices":"#)
    text.writeJSON(integers: choices)
    text.writeJSON(raw: "}")
  }
}

/// A deck's item, as a Picture Quiz state holds its deck.
extension DeckItem: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"id":"#)
    text.writeJSON(string: id)
    text.writeJSON(raw: #","name":"#)
    text.writeJSON(string: name)
    text.writeJSON(raw: "}")
  }
}
