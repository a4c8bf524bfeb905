public import Synchronization

/// A map bounded to `capacity` entries, and to `byteCapacity` bytes as `weigh` counts them,
/// that keeps the ones in use.
///
/// Two generations: new entries go into the young one, and an entry found in the old one moves
/// back to the young. When the young one holds half the capacity (or half the bytes), the old
/// one is forgotten and the young one becomes old. So an entry used again within half the
/// capacity's worth of new ones stays, and one left alone falls out within two generations.
/// (Forgetting one arbitrary entry when full forgot the entries in use as often as any:
/// BENCHMARKS.md.) Bounded by bytes too, because entries differ: a hostile player's entries can
/// be a thousand times the size of a usual one.
///
/// A value type: the caller shares it under its own lock. Inlinable, with its
/// ``LatestVersions``, so that the modules using it get it specialized for their keys and
/// values: called generic across modules, a cache's look-up and store asked the runtime for
/// the metadata of its entries' types on every call, 3 µs of a move's CPU (perf, BENCHMARKS.md).
public struct RecentlyUsed<Key: Hashable, Value> {
  public let capacity: Int
  public let byteCapacity: Int
  @usableFromInline let weigh: (@Sendable (Key, Value) -> Int)?
  @usableFromInline var young: [Key: Value] = [:]
  @usableFromInline var youngBytes = 0
  @usableFromInline var old: [Key: Value] = [:]

  /// `weigh`: an entry's approximate size in bytes (by default: none, so only `capacity`
  /// bounds it).
  @inlinable
  public init(
    capacity: Int, byteCapacity: Int = .max,
    weigh: (@Sendable (Key, Value) -> Int)? = nil
  ) {
    precondition(capacity >= 2, "RecentlyUsed needs room for two generations.")
    self.capacity = capacity
    self.byteCapacity = byteCapacity
    self.weigh = weigh
  }

  /// The entry for `key`, kept for longer since it was asked for; setting `nil` forgets it.
  @inlinable
  public subscript(key: Key) -> Value? {
    mutating get {
      if let value = young[key] { return value }
      guard let value = old.removeValue(forKey: key) else { return nil }
      insert(value, for: key)
      return value
    }
    set {
      old[key] = nil
      if let newValue {
        insert(newValue, for: key)
      } else if let gone = young.removeValue(forKey: key) {
        youngBytes -= weigh?(key, gone) ?? 0
      }
    }
  }

  /// How many entries are kept, and the sum of `size` over them.
  public func measure(_ size: (Key, Value) -> Int) -> CacheSize {
    var bytes = 0
    for (key, value) in young { bytes += size(key, value) }
    for (key, value) in old { bytes += size(key, value) }
    return CacheSize(entries: young.count + old.count, bytes: bytes)
  }

  /// How many entries are kept, and their size as `weigh` counts it.
  public var size: CacheSize { measure { key, value in weigh?(key, value) ?? 0 } }

  @inlinable
  mutating func insert(_ value: Value, for key: Key) {
    let weight = weigh?(key, value) ?? 0
    if let replaced = young[key] {
      youngBytes -= weigh?(key, replaced) ?? 0
    } else if young.count >= capacity / 2 || youngBytes + weight > byteCapacity / 2 {
      old = young
      young = [:]
      young.reserveCapacity(capacity / 2)
      youngBytes = 0
    }
    young[key] = value
    youngBytes += weight
  }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}

/// One value per game, for one version of it, shared under a lock: the game in play is asked
/// about at its latest version, and a new version's value replaces the one before, which will
/// not be asked for again. A value is given only for the version it was kept for. By game id
/// alone: a key of id and version cost a move twice the hashing, to forget the version before
/// and remember the new one (perf). At most `capacity` games and about `byteCapacity` bytes as
/// `weigh` counts them, the ones in use kept (``RecentlyUsed``).
public final class LatestVersions<Value: Sendable>: Sendable {
  @usableFromInline let entries: Mutex<RecentlyUsed<String, (version: Int, value: Value)>>

  @inlinable
  public init(
    capacity: Int, byteCapacity: Int, weigh: @escaping @Sendable (String, Value) -> Int
  ) {
    entries = Mutex(
      RecentlyUsed(
        capacity: capacity, byteCapacity: byteCapacity,
        weigh: { gameID, entry in weigh(gameID, entry.value) }))
  }

  /// The value kept for version `version` of game `gameID`, if that is the version kept;
  /// setting one replaces whatever the game had, setting `nil` forgets it.
  @inlinable
  public subscript(gameID: String, version: Int) -> Value? {
    get {
      guard let kept = entries.withLock({ $0[gameID] }), kept.version == version else {
        return nil
      }
      return kept.value
    }
    set {
      entries.withLock { $0[gameID] = newValue.map { (version, $0) } }
    }
  }

  /// Entries, and their bytes as `weigh` counts them.
  public var size: CacheSize {
    entries.withLock { $0.size }
  }
}

/// What a cache holds, for the metrics: entries and their approximate size in bytes (the
/// texts they keep, plus a fixed amount per entry for the rest).
public struct CacheSize: Sendable, Equatable {
  public var entries: Int
  public var bytes: Int

  public init(entries: Int, bytes: Int) {
    self.entries = entries
    self.bytes = bytes
  }
}

extension GameRecord {
  /// About how many bytes a game kept in memory takes.
  var approximateBytes: Int {
    128 + id.utf8.count + playerID.utf8.count + kind.utf8.count + (variant?.utf8.count ?? 0)
      + settings.utf8.count + state.utf8.count
  }
}
