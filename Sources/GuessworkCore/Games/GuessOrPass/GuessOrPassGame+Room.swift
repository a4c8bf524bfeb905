/// Guess or Pass in a room is a team game: in each turn the holder holds their phone to their
/// forehead and says "guessed" or "pass" while their teammates give clues; a team scores a point
/// per word guessed (``TeamMatch``).
extension GuessOrPassGame: TeamPlayable {
  /// The holder never sees the word in play.
  public static func hidingSecret(_ view: View) -> View {
    var view = view
    view.word = nil
    return view
  }

  /// The end of the countdown, then the end of the turn's clock.
  public func nextTurnChange(after now: Instant) -> Instant? {
    now < playStartsAt ? playStartsAt : timeUpAt
  }
}
