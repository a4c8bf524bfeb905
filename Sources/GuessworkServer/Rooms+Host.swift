import Foundation
import GuessworkCore
import GuessworkPlay
import Logging

extension Rooms {
  // MARK: A host who is away

  /// How long the host has had no connection before the room is told (a page reloading or a
  /// phone changing networks is back sooner).
  static let hostAwayNoticeMs: Int64 = 3_000
  /// How long a round's or a turn's results show before the room moves on without its host.
  static let resultsWithoutHostMs: Int64 = 8_000

  /// Nobody is stranded when the host goes (their phone locks, their browser closes): a few
  /// seconds later the room's views say so; results then move on by themselves; and once the
  /// host has been away for the room's handover time, the player connected longest hosts in
  /// their place (the first host may take the role back). Runs with the rooms' clock, for the
  /// rooms this instance has connections to.
  func tendHosts() async {
    for state in await hub.watchedStates() {
      do {
        try await tendHost(of: state, at: now())
      } catch {
        logger.warning("room \(state.room.code): \(error)")
      }
    }
  }

  private func tendHost(of state: RoomState, at now: Instant) async throws {
    let code = state.room.code
    var (watch, connected, seen) = await hub.host(state.room.host, of: code)
    guard state.room.phase != .closed, !connected else {
      if watch.awaySince != nil {
        let told = watch.told
        await hub.setHostWatch(code, RoomHub.HostWatch())
        if told { await publish(state) }
      }
      return
    }
    // What this instance knows of connections is its own (PostgreSQL's instances do not share
    // them yet): a host it never saw connected may well be on another.
    guard seen else { return }
    let since = watch.awaySince ?? now
    watch.awaySince = since
    let away = now.milliseconds(since: since)
    if state.waitsForHost(at: now) {
      if watch.results?.version != state.version { watch.results = (state.version, now) }
    } else {
      watch.results = nil
    }
    let tell = away >= Self.hostAwayNoticeMs && !watch.told
    if tell { watch.told = true }
    await hub.setHostWatch(code, watch)
    if tell { await publish(state) }

    if away >= state.room.handoverMs,
      let next = await hub.connectedLongestFirst(code).first(where: {
        $0 != state.room.host && state.room.member($0)?.isPresent == true
      })
    {
      let host = state.room.host
      // The new host is here: the room is no longer told its host is away.
      await hub.setHostWatch(code, RoomHub.HostWatch())
      try await change(code) { state, _ in
        // Another instance, or the host's return, may have changed the room meanwhile.
        guard state.room.host == host, state.room.member(next)?.isPresent == true else {
          return RoomOutcome()
        }
        try state.handOver(to: next)
        return RoomOutcome()
      }
      return
    }
    if watch.told, let results = watch.results,
      now.milliseconds(since: results.since) >= Self.resultsWithoutHostMs
    {
      try await change(code) { state, now in
        guard state.version == results.version, state.waitsForHost(at: now) else {
          return RoomOutcome()
        }
        return try state.goOnWithoutHost(at: now)
      }
    }
  }
}
