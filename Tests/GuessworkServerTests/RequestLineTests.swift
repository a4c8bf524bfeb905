import Foundation
import Testing

@testable import GuessworkServer

/// The duration each request's log line ends with (``EdgeMiddleware``).
@Suite("The request line's duration")
struct RequestLineTests {
  static func milliseconds(_ duration: Duration) -> String {
    EdgeMiddleware<GuessworkContext>.milliseconds(duration)
  }

  @Test(
    "Milliseconds with two decimals, rounded half to even",
    arguments: [
      (Duration.zero, "0.00"),
      (.nanoseconds(4_999), "0.00"),
      (.nanoseconds(5_000), "0.00"),  // half of a hundredth: to the even 0
      (.nanoseconds(5_001), "0.01"),
      (.nanoseconds(15_000), "0.02"),  // half: to the even 2
      (.microseconds(125), "0.12"),
      (.microseconds(135), "0.14"),
      (.microseconds(999_994), "999.99"),
      (.microseconds(999_996), "1000.00"),
      (.milliseconds(1_234), "1234.00"),
      (.seconds(3) + .nanoseconds(999_995_000), "4000.00"),
      (.seconds(86_400) + .microseconds(70), "86400000.07"),
      (.zero - .milliseconds(1), "0.00"),  // never negative
    ])
  func examples(duration: Duration, expected: String) {
    #expect(Self.milliseconds(duration) == expected)
  }

  @Test("The same text as String(format: \"%.2f\") of the milliseconds, away from ties")
  func likeFoundation() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let nanoseconds = Int64.random(in: 0..<100_000_000_000, using: &random)
      // A tie in nanoseconds (a 5 in the fourth decimal, then zeros) is exact here, and
      // rounded to even; printf rounds the nearest double, on either side of it.
      if nanoseconds % 10_000 == 5_000 { continue }
      let duration = Duration.nanoseconds(nanoseconds)
      let milliseconds =
        Double(duration.components.attoseconds) / 1e15
        + Double(duration.components.seconds) * 1000
      #expect(
        Self.milliseconds(duration) == String(format: "%.2f", milliseconds), "\(nanoseconds) ns")
    }
  }
}
