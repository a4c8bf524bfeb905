import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Prometheus
import Testing

@testable import GuessworkServer

/// ``RequestMetricsMiddleware`` records what Hummingbird's metrics middleware recorded, under the
/// same names and labels, at the moment an answer is ready.
@Suite("Requests counted and timed")
struct RequestMetricsTests {
  @Test("By route, method and status, before the answer reaches the client; a thrown error too")
  func countedByRouteMethodAndStatus() async throws {
    let registry = MetricsEndpoint.registry
    let router = Router()
    router.add(middleware: RequestMetricsMiddleware())
    router.get("/metrics-tests/{name}") { _, context in
      "hello \(try context.parameters.require("name"))"
    }
    router.post("/metrics-tests/refused") { _, _ -> String in throw HTTPError(.conflict) }
    let app = Application(router: router)
    try await app.test(.live) { client in
      for name in ["a", "b", "c"] {
        try await client.execute(uri: "/metrics-tests/\(name)", method: .get) { response in
          #expect(response.status == .ok)
          #expect(String(buffer: response.body) == "hello \(name)")
        }
      }
      try await client.execute(uri: "/metrics-tests/refused", method: .post) { response in
        #expect(response.status == .conflict)
      }
      // Counted when answered, so the first scrape after the answers has them all.
      let samples = Scrape(registry)
      let read = [
        "http_route": "/metrics-tests/{name}", "http_request_method": "GET",
        "http_response_status_code": "200",
      ]
      #expect(samples["guesswork_http_requests_total", read] == 3)
      #expect(samples["guesswork_http_request_duration_seconds_count", read] == 3)
      #expect((samples["guesswork_http_request_duration_seconds_sum", read] ?? 0) > 0)
      let refused = [
        "http_route": "/metrics-tests/refused", "http_request_method": "POST",
        "http_response_status_code": "409",
      ]
      #expect(samples["guesswork_http_requests_total", refused] == 1)
      #expect(
        samples[
          "guesswork_http_request_errors_total",
          [
            "http_route": "/metrics-tests/refused", "http_request_method": "POST",
            "error_type": "409",
          ]] == 1)
      // A thrown error is not timed, as before (its series is made, and stays empty).
      #expect(samples["guesswork_http_request_duration_seconds_count", refused] == 0)
      // Nothing is being answered any more.
      #expect(samples["guesswork_http_active_requests", ["http_request_method": "GET"]] == 0)
      #expect(samples["guesswork_http_active_requests", ["http_request_method": "POST"]] == 0)
    }
  }
}

/// The samples of a scrape of the registry, by name and labels.
private struct Scrape {
  private var samples: [String: [[String: String]: Double]] = [:]

  init(_ registry: PrometheusCollectorRegistry) {
    var text: [UInt8] = []
    registry.emit(into: &text)
    for line in String(decoding: text, as: UTF8.self).split(separator: "\n")
    where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[space...].dropFirst())
      else { continue }
      let series = line[..<space]
      var labels: [String: String] = [:]
      let name: Substring
      if let open = series.firstIndex(of: "{"), series.last == "}" {
        name = series[..<open]
        let inside = series[series.index(after: open)..<series.index(before: series.endIndex)]
        for pair in inside.split(separator: ",") {
          let parts = pair.split(separator: "=", maxSplits: 1)
          guard parts.count == 2 else { continue }
          labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
        }
      } else {
        name = series
      }
      samples[String(name), default: [:]][labels] = value
    }
  }

  subscript(name: String, labels: [String: String]) -> Double? {
    samples[name]?[labels]
  }
}
