public import GuessworkJSON

// The JSON text of the Number game's state, view and summary, written without Codable's
// containers (``JSONTextWritable``): at every move the server writes the state to store and
// the view to answer; at every read, the view; at the end, the summary (its actions and events
// are written by `@WireUnion`). Each writes the keys its synthesised `encode(to:)` writes, in
// the same order, and leaves out a nil optional as that does. `CompactJSONTests` holds every
// state, view and summary of games played to a win and a loss to Foundation's encoding.

extension NumberGame {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"settings":"#)
    settings.writeJSON(to: text)
    text.writeJSON(raw: #","secret":"#)
    text.writeJSON(integer: secret)
    text.writeJSON(raw: #","random":{"state":"#)
    text.writeJSON(integer: random.state)
    text.writeJSON(raw: #"},"pad":{"width":"#)
    text.writeJSON(integer: pad.width)
    text.writeJSON(raw: #","display":"#)
    text.writeJSON(string: pad.display)
    text.writeJSON(raw: #"},"knownLow":"#)
    text.writeJSON(integer: knownLow)
    text.writeJSON(raw: #","knownHigh":"#)
    text.writeJSON(integer: knownHigh)
    text.writeJSON(raw: #","guesses":"#)
    try text.writeJSON(array: guesses)
    text.writeJSON(raw: #","phase":"#)
    text.writeJSON(string: phase.rawValue)
    text.writeJSON(raw: "}")
  }
}

extension NumberGame.Settings {
  func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"low":"#)
    text.writeJSON(integer: low)
    text.writeJSON(raw: #","high":"#)
    text.writeJSON(integer: high)
    text.writeJSON(raw: #","attempts":"#)
    text.writeJSON(integer: attempts)
    text.writeJSON(raw: "}")
  }
}

extension NumberGame.Guess: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"number":"#)
    text.writeJSON(integer: number)
    text.writeJSON(raw: #","hint":"#)
    text.writeJSON(string: hint.rawValue)
    text.writeJSON(raw: #","knownLow":"#)
    text.writeJSON(integer: knownLow)
    text.writeJSON(raw: #","knownHigh":"#)
    text.writeJSON(integer: knownHigh)
    text.writeJSON(raw: "}")
  }
}

extension NumberGame.GuessView: JSONTextWritable {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"number":"#)
    text.writeJSON(integer: number)
    text.writeJSON(raw: #","hint":"#)
    text.writeJSON(string: hint.rawValue)
    text.writeJSON(raw: #","text":"#)
    try self.text.writeJSON(to: text)
    text.writeJSON(raw: "}")
  }
}

extension NumberGame.View: JSONTextWritable {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"phase":"#)
    text.writeJSON(string: phase.rawValue)
    text.writeJSON(raw: #","isOver":"#)
    text.writeJSON(bool: isOver)
    text.writeJSON(raw: #","score":"#)
    text.writeJSON(integer: score)
    text.writeJSON(raw: #","low":"#)
    text.writeJSON(integer: low)
    text.writeJSON(raw: #","high":"#)
    text.writeJSON(integer: high)
    text.writeJSON(raw: #","knownLow":"#)
    text.writeJSON(integer: knownLow)
    text.writeJSON(raw: #","knownHigh":"#)
    text.writeJSON(integer: knownHigh)
    text.writeJSON(raw: #","knownRangeText":"#)
    try knownRangeText.writeJSON(to: text)
    text.writeJSON(raw: #","display":"#)
    text.writeJSON(string: display)
    text.writeJSON(raw: #","displayWidth":"#)
    text.writeJSON(integer: displayWidth)
    text.writeJSON(raw: #","attemptsAllowed":"#)
    text.writeJSON(integer: attemptsAllowed)
    text.writeJSON(raw: #","attemptsLeft":"#)
    text.writeJSON(integer: attemptsLeft)
    text.writeJSON(raw: #","attemptsLeftText":"#)
    try attemptsLeftText.writeJSON(to: text)
    text.writeJSON(raw: #","isLastAttempt":"#)
    text.writeJSON(bool: isLastAttempt)
    if let hint {
      text.writeJSON(raw: #","hint":"#)
      try hint.writeJSON(to: text)
    }
    text.writeJSON(raw: #","guesses":"#)
    try text.writeJSON(array: guesses)
    text.writeJSON(raw: #","message":"#)
    try message.writeJSON(to: text)
    if let secret {
      text.writeJSON(raw: #","secret":"#)
      text.writeJSON(integer: secret)
    }
    text.writeJSON(raw: "}")
  }
}

extension NumberGame.SummaryGuess: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    text.writeJSON(raw: #"{"number":"#)
    text.writeJSON(integer: number)
    text.writeJSON(raw: #","hint":"#)
    text.writeJSON(string: hint.rawValue)
    text.writeJSON(raw: #","knownLow":"#)
    text.writeJSON(integer: knownLow)
    text.writeJSON(raw: #","knownHigh":"#)
    text.writeJSON(integer: knownHigh)
    text.writeJSON(raw: #","halved":"#)
    text.writeJSON(bool: halved)
    text.writeJSON(raw: "}")
  }
}

/// Written twice when a game ends: stored, and in the reply.
extension NumberGame.Summary: JSONTextWritable {
  public func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"isOver":"#)
    text.writeJSON(bool: isOver)
    text.writeJSON(raw: #","won":"#)
    text.writeJSON(bool: won)
    text.writeJSON(raw: #","score":"#)
    text.writeJSON(integer: score)
    text.writeJSON(raw: #","attemptsUsed":"#)
    text.writeJSON(integer: attemptsUsed)
    text.writeJSON(raw: #","attemptsAllowed":"#)
    text.writeJSON(integer: attemptsAllowed)
    text.writeJSON(raw: #","low":"#)
    text.writeJSON(integer: low)
    text.writeJSON(raw: #","high":"#)
    text.writeJSON(integer: high)
    if let secret {
      text.writeJSON(raw: #","secret":"#)
      text.writeJSON(integer: secret)
    }
    text.writeJSON(raw: #","guesses":"#)
    try text.writeJSON(array: guesses)
    text.writeJSON(raw: #","halvedCount":"#)
    text.writeJSON(integer: halvedCount)
    text.writeJSON(raw: #","rangeSize":"#)
    text.writeJSON(integer: rangeSize)
    text.writeJSON(raw: #","optimalTries":"#)
    text.writeJSON(integer: optimalTries)
    text.writeJSON(raw: #","guaranteedNumbers":"#)
    text.writeJSON(integer: guaranteedNumbers)
    text.writeJSON(raw: #","strategy":"#)
    try text.writeJSON(array: strategy)
    text.writeJSON(raw: "}")
  }
}
