import GuessworkContent
import GuessworkCore

/// A message as an English-speaking player reads it.
func said(_ message: Message?) -> String? {
  message.map(Catalog.of(.en).render)
}

/// Sentences as an English-speaking player reads them, one after the other.
func said(_ messages: [Message]?) -> String? {
  messages.map { $0.map(Catalog.of(.en).render).joined(separator: " ") }
}
