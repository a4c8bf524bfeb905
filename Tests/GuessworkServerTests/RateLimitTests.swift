import Foundation
import HTTPTypes
import Testing

@testable import GuessworkServer

@Suite("Rate limits")
struct RateLimitTests {
  @Test("A bucket lets its count through at once, then one per share of its seconds")
  func buckets() throws {
    let limiter = RateLimiter(RateLimits(moves: .init(count: 3, seconds: 6)))
    let start = ContinuousClock.now
    for _ in 0..<3 { try limiter.admit(.moves, key: "p", now: start) }
    let error = try #require(throws: APIError.self) {
      try limiter.admit(.moves, key: "p", now: start)
    }
    #expect(error.status == .tooManyRequests && error.retryAfter == 2)
    // Another key has a bucket of its own; the kinds without a limit are not limited.
    try limiter.admit(.moves, key: "q", now: start)
    for _ in 0..<100 { try limiter.admit(.players, key: "p", now: start) }
    // Two seconds refill one.
    #expect(throws: APIError.self) { try limiter.admit(.moves, key: "p", now: start + .seconds(1)) }
    try limiter.admit(.moves, key: "p", now: start + .seconds(2.1))
    #expect(throws: APIError.self) {
      try limiter.admit(.moves, key: "p", now: start + .seconds(2.2))
    }
    // A long rest refills the bucket to its count, no more.
    for _ in 0..<3 { try limiter.admit(.moves, key: "p", now: start + .seconds(600)) }
    #expect(throws: APIError.self) {
      try limiter.admit(.moves, key: "p", now: start + .seconds(600))
    }
  }

  @Test("Settings: off, the standard ones, or some changed")
  func parsing() throws {
    #expect(try RateLimits.parse("off") == .off)
    #expect(try RateLimits.parse("") == .standard)
    let some = try RateLimits.parse("moves=5/1, players=off")
    #expect(some.moves == .init(count: 5, seconds: 1) && some.players == nil)
    #expect(some.games == RateLimits.standard.games)
    for bad in ["moves=5", "moves=0/1", "moves=a/b", "jumps=1/1", "moves=-1/10"] {
      #expect(throws: RateLimitsError.self, "\(bad)") { try RateLimits.parse(bad) }
    }
  }
}
