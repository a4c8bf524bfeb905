public import GuessworkJSON

// The JSON text of the Number game's state, view, summary, actions and events, written
// without Codable's containers (``JSONTextWritable``): at every move the server writes the
// state and the action to store, and the view and events to answer; at every read, the view;
// at the end, the summary. Each writes the keys its `encode(to:)` writes (synthesised, or in
// NumberGame+Codable.swift), in the same order, and leaves out a nil optional as that does.
// `CompactJSONTests` holds every state, view, summary, action and event of games played to a
// win and a loss to Foundation's encoding.

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

extension NumberGame.Action: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    switch self {
    case .digit(let digit):
      text.writeJSON(raw: #"{"type":"digit","digit":"#)
      text.writeJSON(integer: digit)
      text.writeJSON(raw: "}")
    case .backspace: text.writeJSON(raw: #"{"type":"backspace"}"#)
    case .clear: text.writeJSON(raw: #"{"type":"clear"}"#)
    case .enter: text.writeJSON(raw: #"{"type":"enter"}"#)
    case .guess(let number):
      text.writeJSON(raw: #"{"type":"guess","number":"#)
      text.writeJSON(integer: number)
      text.writeJSON(raw: "}")
    }
  }
}

extension NumberGame.Event: JSONTextWritable {
  public func writeJSON(to text: JSONText) {
    switch self {
    case .displayChanged(let display):
      text.writeJSON(raw: #"{"type":"displayChanged","display":"#)
      text.writeJSON(string: display)
    case .guessed(let number, let hint, let attemptsLeft, let knownLow, let knownHigh):
      text.writeJSON(raw: #"{"type":"guessed","number":"#)
      text.writeJSON(integer: number)
      text.writeJSON(raw: #","hint":"#)
      text.writeJSON(string: hint.rawValue)
      text.writeJSON(raw: #","attemptsLeft":"#)
      text.writeJSON(integer: attemptsLeft)
      text.writeJSON(raw: #","knownLow":"#)
      text.writeJSON(integer: knownLow)
      text.writeJSON(raw: #","knownHigh":"#)
      text.writeJSON(integer: knownHigh)
    case .won(let secret, let score):
      text.writeJSON(raw: #"{"type":"won","secret":"#)
      text.writeJSON(integer: secret)
      text.writeJSON(raw: #","score":"#)
      text.writeJSON(integer: score)
    case .lost(let secret):
      text.writeJSON(raw: #"{"type":"lost","secret":"#)
      text.writeJSON(integer: secret)
    }
    text.writeJSON(raw: "}")
  }
}
