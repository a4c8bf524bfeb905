/// A party room's membership: who is in it, who hosts it, who was kicked, what game comes next.
/// The game being played is a ``RoundsMatch`` or a ``TeamMatch`` kept beside it; this value
/// holds the rules of joining and leaving, which are the same whatever the game.
public struct Room: Codable, Sendable, Equatable {
  /// Where the room is.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// Players join; the host chooses a game.
    case lobby
    /// A game is being played.
    case playing
    /// A game has ended: its podium shows until the host goes back to the lobby.
    case podium
    /// The host closed the room, or it was idle too long.
    case closed
  }

  /// A player who joined.
  public struct Member: Codable, Sendable, Equatable {
    public var id: String
    /// The name when they last joined (names are short and change rarely).
    public var name: String
    /// Whether they had a picture when they last joined.
    public var hasAvatar: Bool
    public var joinedAt: Instant
    /// Kicked by the host: cannot join again until readmitted.
    public var kicked: Bool
    /// Left by themselves: joining again brings them back.
    public var left: Bool

    /// In the room now.
    public var isPresent: Bool { !kicked && !left }
  }

  /// The game the host has chosen, with its settings as the client sent them (JSON text: this
  /// module reads no JSON; the settings are checked when the choice is made).
  public struct Choice: Codable, Sendable, Equatable {
    public var kind: GameKind
    public var settings: String
    /// The Picture Quiz deck or the Guess or Pass category.
    public var variant: String?
    /// A team game (``TeamPlayable``): how many teams.
    public var teams: Int
    /// A team game: the secret on the shared screen (else on the clue-givers' phones).
    public var wordsOnScreen: Bool

    public init(
      kind: GameKind, settings: String, variant: String? = nil, teams: Int = 2,
      wordsOnScreen: Bool = true
    ) {
      self.kind = kind
      self.settings = settings
      self.variant = variant
      self.teams = teams
      self.wordsOnScreen = wordsOnScreen
    }
  }

  /// The characters of join codes: no 0/O, 1/I/L, which read alike.
  public static let codeAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
  /// The allowed lengths of a join code.
  public static let codeLengths = 4...6
  /// How many players a room holds unless its host says otherwise.
  public static let defaultLimit = 30
  /// The most a host may allow.
  public static let limits = 2...100
  /// The most teams a team game plays in.
  public static let teamCounts = 2...6
  /// How long the host may be away before the role passes on, unless the room says otherwise.
  public static let defaultHandoverSeconds = 60
  /// What a room may say.
  public static let handoverSecondsRange = 5...3600

  public let code: String
  /// Who hosts now: the room's first host, or a player standing in while they are away.
  public private(set) var host: String
  /// While a player stands in as host: the first host, who may take the role back.
  public private(set) var standingInFor: String?
  public let limit: Int
  /// How long the host may be away (no connection to the room) before the role passes to the
  /// player connected longest; nil in rooms stored before it could be set.
  private var handoverSeconds: Int?
  /// Locked by the host: nobody new may join (nil in rooms stored before rooms could be).
  private var isLocked: Bool?
  /// The host hides the join code on the shared screen (a stream shows it to strangers).
  private var isCodeHidden: Bool?
  public let createdAt: Instant
  public private(set) var members: [Member]
  public private(set) var phase: Phase
  public private(set) var choice: Choice?
  /// When anyone last did anything: a room idle too long closes.
  public private(set) var lastActivity: Instant

  public init(
    code: String, host: String, limit: Int = Room.defaultLimit,
    handoverSeconds: Int = Room.defaultHandoverSeconds, at now: Instant
  ) {
    self.code = code
    self.host = host
    self.limit = limit
    self.handoverSeconds = handoverSeconds
    createdAt = now
    members = []
    phase = .lobby
    lastActivity = now
  }

  /// A code of `length` characters drawn from ``codeAlphabet``.
  public static func makeCode(length: Int = 4, using random: inout SeededRandom) -> String {
    String((0..<length).map { _ in codeAlphabet[random.index(below: codeAlphabet.count)] })
  }

  /// A code as typed (any case, spaces around): the code it names, or nil when it cannot be one.
  public static func normalizedCode(_ typed: String) -> String? {
    let code = typed.trimmingSpaces().uppercased()
    guard codeLengths.contains(code.count), code.allSatisfy(codeAlphabet.contains) else {
      return nil
    }
    return code
  }

  /// The members in the room now, in the order they first joined.
  public var present: [Member] { members.filter(\.isPresent) }

  public func member(_ id: String) -> Member? { members.first { $0.id == id } }

  public func isHost(_ id: String) -> Bool { id == host }

  /// Nobody new may join; who has been in the room may come back.
  public var locked: Bool { isLocked ?? false }

  /// The shared screen does not show the join code.
  public var codeHidden: Bool { isCodeHidden ?? false }

  /// The player who opened the room (the host, unless someone stands in for them).
  public var firstHost: String { standingInFor ?? host }

  /// How long the host may be away before the role passes on, in milliseconds.
  public var handoverMs: Int64 { Int64(handoverSeconds ?? Self.defaultHandoverSeconds) * 1000 }

  // MARK: Joining and leaving

  /// Joins, or comes back (after leaving, or with another device: same identity, same place).
  /// Returns whether anything changed: a member who is in the room already, with the same name
  /// and avatar, changes nothing (a phone's reconnect must not move the room on).
  @discardableResult
  public mutating func join(_ id: String, name: String, hasAvatar: Bool = false, at now: Instant)
    throws(RoomRefusal) -> Bool
  {
    guard phase != .closed else { throw RoomRefusal(.closed) }
    if let index = members.firstIndex(where: { $0.id == id }) {
      guard !members[index].kicked else { throw RoomRefusal(.kicked) }
      let member = members[index]
      if !member.left, member.name == name, member.hasAvatar == hasAvatar { return false }
      if members[index].left {
        guard present.count < limit else { throw RoomRefusal(.full, ["limit": .int(limit)]) }
      }
      members[index].left = false
      members[index].name = name
      members[index].hasAvatar = hasAvatar
    } else {
      guard !locked else { throw RoomRefusal(.locked) }
      guard present.count < limit else { throw RoomRefusal(.full, ["limit": .int(limit)]) }
      members.append(
        Member(
          id: id, name: name, hasAvatar: hasAvatar, joinedAt: now, kicked: false, left: false))
    }
    lastActivity = now
    return true
  }

  public mutating func leave(_ id: String, at now: Instant) throws(RoomRefusal) {
    guard let index = members.firstIndex(where: { $0.id == id && $0.isPresent }) else {
      throw RoomRefusal(.notMember)
    }
    members[index].left = true
    lastActivity = now
  }

  /// The host removes a player; they cannot join again until readmitted.
  public mutating func kick(_ id: String, by actor: String, at now: Instant) throws(RoomRefusal) {
    try requireHost(actor)
    guard id != host, id != standingInFor else { throw RoomRefusal(.hostStays) }
    guard let index = members.firstIndex(where: { $0.id == id }) else {
      throw RoomRefusal(.noSuchPlayer)
    }
    guard !members[index].kicked else { throw RoomRefusal(.alreadyRemoved) }
    members[index].kicked = true
    lastActivity = now
  }

  /// The host lets a kicked player back: they are in the room again.
  public mutating func readmit(_ id: String, by actor: String, at now: Instant)
    throws(RoomRefusal)
  {
    try requireHost(actor)
    guard let index = members.firstIndex(where: { $0.id == id }) else {
      throw RoomRefusal(.noSuchPlayer)
    }
    guard members[index].kicked else { throw RoomRefusal(.notKicked) }
    guard present.count < limit else { throw RoomRefusal(.full, ["limit": .int(limit)]) }
    members[index].kicked = false
    members[index].left = false
    lastActivity = now
  }

  // MARK: Who hosts

  /// The host has been away too long: `id`, a player in the room, hosts in their place. The
  /// first host keeps the right to take the role back; a stand-in who goes away in turn passes
  /// it on the same way. Not a player's doing, so the room is no less idle for it.
  public mutating func handOver(to id: String) throws(RoomRefusal) {
    guard phase != .closed else { throw RoomRefusal(.closed) }
    guard id != host, member(id)?.isPresent == true else { throw RoomRefusal(.notMember) }
    if standingInFor == nil { standingInFor = host }
    if id == standingInFor { standingInFor = nil }
    host = id
  }

  /// The first host, back, takes the role again from whoever stood in.
  public mutating func takeBackHosting(by actor: String, at now: Instant) throws(RoomRefusal) {
    guard phase != .closed else { throw RoomRefusal(.closed) }
    guard let first = standingInFor, actor == first else { throw RoomRefusal(.notFirstHost) }
    host = first
    standingInFor = nil
    lastActivity = now
  }

  // MARK: Who may join, and what the screen shows

  /// The host locks the room (nobody new joins) or opens it again.
  public mutating func lock(_ locked: Bool, by actor: String, at now: Instant) throws(RoomRefusal) {
    try requireHost(actor)
    guard phase != .closed else { throw RoomRefusal(.closed) }
    isLocked = locked
    lastActivity = now
  }

  /// The host hides the join code on the shared screen, or shows it again.
  public mutating func hideCode(_ hidden: Bool, by actor: String, at now: Instant)
    throws(RoomRefusal)
  {
    try requireHost(actor)
    guard phase != .closed else { throw RoomRefusal(.closed) }
    isCodeHidden = hidden
    lastActivity = now
  }

  // MARK: The host's choices

  public func requireHost(_ actor: String) throws(RoomRefusal) {
    guard actor == host else { throw RoomRefusal(.notHost) }
  }

  /// Chooses the next game (in the lobby).
  public mutating func choose(_ choice: Choice, by actor: String, at now: Instant)
    throws(RoomRefusal)
  {
    try requireHost(actor)
    guard phase == .lobby else { throw RoomRefusal(.wrongPhase) }
    guard Self.teamCounts.contains(choice.teams) else {
      throw RoomRefusal(
        .badChoice,
        [
          "low": .int(Self.teamCounts.lowerBound), "high": .int(Self.teamCounts.upperBound),
        ])
    }
    self.choice = choice
    lastActivity = now
  }

  /// The chosen game begins: returns it and the players who play it, at least `needed` of
  /// them (a team game's team count).
  public mutating func start(by actor: String, needing needed: Int = 1, at now: Instant)
    throws(RoomRefusal) -> (Choice, [Member])
  {
    try requireHost(actor)
    guard phase == .lobby else { throw RoomRefusal(.wrongPhase) }
    guard let choice else { throw RoomRefusal(.noGame) }
    let players = present
    guard players.count >= needed else {
      throw RoomRefusal(.tooFewPlayers, ["count": .int(needed)])
    }
    phase = .playing
    lastActivity = now
    return (choice, players)
  }

  /// A start whose game could not be dealt leaves the room in the lobby.
  public mutating func cancelStart() {
    if phase == .playing { phase = .lobby }
  }

  /// The game being played has ended: the podium.
  public mutating func finishGame(at now: Instant) {
    if phase == .playing { phase = .podium }
    lastActivity = now
  }

  /// From the podium back to the lobby, to choose another game.
  public mutating func backToLobby(by actor: String, at now: Instant) throws(RoomRefusal) {
    try requireHost(actor)
    guard phase == .podium else { throw RoomRefusal(.wrongPhase) }
    phase = .lobby
    lastActivity = now
  }

  /// The host closes the room, or it closes after being idle.
  public mutating func close(at now: Instant) {
    phase = .closed
    lastActivity = now
  }

  /// Marks activity that changes nothing else (an answer in a game).
  public mutating func touch(at now: Instant) { lastActivity = now }

  /// Whether nobody has done anything for `idleMs`.
  public func isIdle(at now: Instant, idleMs: Int64) -> Bool {
    now.milliseconds(since: lastActivity) >= idleMs
  }
}

/// Why a room refused something. The server turns the code into a status and the message into
/// the player's language (catalog key `room.refusal.<code>`).
public struct RoomRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Code: String, Codable, Sendable, CaseIterable {
    case closed = "room-closed"
    case full = "room-full"
    /// The host has locked the room: nobody new may join.
    case locked = "room-locked"
    case kicked
    case notMember = "not-in-room"
    case notKicked = "not-kicked"
    /// Kicking or readmitting a player the room has never had.
    case noSuchPlayer = "no-such-player"
    case alreadyRemoved = "already-removed"
    /// The host cannot be removed from their own room.
    case hostStays = "host-cannot-be-removed"
    case notHost = "not-host"
    /// Only the room's first host may take the host's role back, and only from a stand-in.
    case notFirstHost = "not-first-host"
    case wrongPhase = "wrong-phase"
    case noGame = "no-game-chosen"
    case badChoice = "bad-choice"
    case tooFewPlayers = "too-few-players"
    case notPlaying = "not-playing"
    case roundClosed = "round-closed"
    case answered = "already-answered"
    case notYourTurn = "not-your-turn"
    /// The game's own rules refused the action (`refusal` says why).
    case refused
  }

  public let code: Code
  public let args: Message.Arguments
  /// When the game's rules refused: their reason.
  public let refusal: Refusal?

  public init(_ code: Code, _ args: Message.Arguments = [:]) {
    self.code = code
    self.args = args
    refusal = nil
  }

  public init(_ refusal: Refusal) {
    code = .refused
    args = [:]
    self.refusal = refusal
  }

  /// What to tell the player.
  public var reason: [Message] {
    refusal?.reason ?? [Message("room.refusal.\(code.rawValue)", args)]
  }

  public var description: String { reason.map(\.description).joined(separator: " ") }
}

extension String {
  /// Without spaces and tabs at either end.
  fileprivate func trimmingSpaces() -> String {
    var characters = Substring(self)
    while characters.first?.isWhitespace == true { characters.removeFirst() }
    while characters.last?.isWhitespace == true { characters.removeLast() }
    return String(characters)
  }
}
