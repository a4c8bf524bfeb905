public import GuessworkJSON

// The JSON text of a Color Match state, written without Codable's containers
// (``JSONTextWritable``): the server stores the state at every answer, and it holds every
// trial answered so far, so that its encoding grows through the round. It writes the keys its
// synthesised `encode(to:)` writes, in the same order, and leaves out a nil optional as that
// does. `CompactJSONTests` holds every state of played rounds to Foundation's encoding.

extension ColorMatchGame {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"settings":{"duration":"#)
    text.writeJSON(integer: settings.duration)
    text.writeJSON(raw: #","feedbackMs":"#)
    text.writeJSON(integer: settings.feedbackMs)
    text.writeJSON(raw: #","matchRate":"#)
    try text.writeJSON(number: settings.matchRate)
    text.writeJSON(raw: #","congruentRate":"#)
    try text.writeJSON(number: settings.congruentRate)
    text.writeJSON(raw: #"},"createdAt":"#)
    text.writeJSON(integer: Int(createdAt.milliseconds))
    text.writeJSON(raw: #","random":{"state":"#)
    text.writeJSON(integer: random.state)
    text.writeJSON(raw: #"},"current":{"top":"#)
    text.writeJSON(string: current.top.rawValue)
    text.writeJSON(raw: #","word":"#)
    text.writeJSON(string: current.word.rawValue)
    text.writeJSON(raw: #","ink":"#)
    text.writeJSON(string: current.ink.rawValue)
    text.writeJSON(raw: #"},"shownAt":"#)
    text.writeJSON(integer: Int(shownAt.milliseconds))
    text.writeJSON(raw: #","usedMs":"#)
    text.writeJSON(integer: Int(usedMs))
    text.writeJSON(raw: #","records":"#)
    try text.writeJSON(array: records)
    text.writeJSON(raw: #","score":"#)
    text.writeJSON(integer: score)
    text.writeJSON(raw: #","streak":"#)
    text.writeJSON(integer: streak)
    text.writeJSON(raw: #","bestStreak":"#)
    text.writeJSON(integer: bestStreak)
    if let ending {
      text.writeJSON(raw: #","ending":{"at":"#)
      text.writeJSON(integer: Int(ending.at.milliseconds))
      text.writeJSON(raw: #","reason":"#)
      text.writeJSON(string: ending.reason.rawValue)
      text.writeJSON(raw: "}")
    }
    if let wallClock {
      text.writeJSON(raw: wallClock ? #","wallClock":true"# : #","wallClock":false"#)
    }
    text.writeJSON(raw: "}")
  }
}

extension ColorMatchGame.TrialRecord: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"index":"#)
    text.writeJSON(integer: index)
    text.writeJSON(raw: #","topWord":"#)
    text.writeJSON(string: topWord.rawValue)
    text.writeJSON(raw: #","bottomWord":"#)
    text.writeJSON(string: bottomWord.rawValue)
    text.writeJSON(raw: #","bottomInk":"#)
    text.writeJSON(string: bottomInk.rawValue)
    text.writeJSON(raw: #","congruent":"#)
    text.writeJSON(bool: congruent)
    text.writeJSON(raw: #","match":"#)
    text.writeJSON(bool: match)
    text.writeJSON(raw: #","answer":"#)
    text.writeJSON(bool: answer)
    text.writeJSON(raw: #","correct":"#)
    text.writeJSON(bool: correct)
    text.writeJSON(raw: #","reactionMs":"#)
    text.writeJSON(integer: reactionMs)
    text.writeJSON(raw: "}")
  }
}
