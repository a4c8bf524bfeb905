/// A map bounded to `capacity` entries that keeps the ones in use.
///
/// Two generations: new entries go into the young one, and an entry found in the old one moves
/// back to the young. When the young one holds half the capacity, the old one is forgotten and
/// the young one becomes old. So an entry used again within half the capacity's worth of new
/// ones stays, and one left alone falls out within two generations. (Forgetting one arbitrary
/// entry when full forgot the entries in use as often as any: BENCHMARKS.md.)
///
/// A value type: the caller shares it under its own lock.
public struct RecentlyUsed<Key: Hashable, Value> {
  public let capacity: Int
  private var young: [Key: Value] = [:]
  private var old: [Key: Value] = [:]

  public init(capacity: Int) {
    precondition(capacity >= 2, "RecentlyUsed needs room for two generations.")
    self.capacity = capacity
  }

  /// The entry for `key`, kept for longer since it was asked for; setting `nil` forgets it.
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
      } else {
        young[key] = nil
      }
    }
  }

  private mutating func insert(_ value: Value, for key: Key) {
    if young.count >= capacity / 2, young[key] == nil {
      old = young
      young = [:]
      young.reserveCapacity(capacity / 2)
    }
    young[key] = value
  }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}
