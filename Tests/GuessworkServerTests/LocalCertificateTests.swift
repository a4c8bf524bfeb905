import Foundation
import GuessworkServer
import Testing

@Suite("The certificates of serve --https")
struct LocalCertificateTests {
  func files() -> LocalCertificate.Files {
    LocalCertificate.Files(
      dataDirectory: FileManager.default.temporaryDirectory
        .appendingPathComponent("guesswork-tls-\(UUID().uuidString)").path)
  }

  func contents(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

  @Test(
    "Made once, kept while the names and dates fit; a new address or a near end makes a new one by the same CA"
  )
  func renewal() throws {
    let files = files()
    defer { try? FileManager.default.removeItem(at: files.folder) }
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let names = ["localhost", "127.0.0.1", "::1", "192.168.1.20"]
    #expect(try LocalCertificate.ensure(files, names: names, now: start))
    let ca = try contents(files.caCertificate)
    let first = try contents(files.certificate)
    // Again, or with fewer names: nothing to do.
    #expect(try !LocalCertificate.ensure(files, names: names, now: start))
    #expect(try !LocalCertificate.ensure(files, names: ["localhost"], now: start + 86_400))
    #expect(try contents(files.certificate) == first)
    // The machine got a new address: a new certificate, the same CA.
    #expect(try LocalCertificate.ensure(files, names: names + ["10.0.0.7"], now: start))
    let second = try contents(files.certificate)
    #expect(second != first)
    #expect(try contents(files.caCertificate) == ca)
    // Thirty days before its end it is made again.
    #expect(try !LocalCertificate.ensure(files, names: names, now: start + 366 * 86_400))
    #expect(try LocalCertificate.ensure(files, names: names, now: start + 368 * 86_400))
    #expect(try contents(files.certificate) != second)
    #expect(try contents(files.caCertificate) == ca)
  }

  @Test("This machine's names include localhost and its loopback addresses")
  func machineNames() {
    let names = LocalCertificate.machineNames(listeningOn: "0.0.0.0")
    #expect(names.starts(with: ["localhost", "127.0.0.1", "::1"]))
    #expect(!names.contains("0.0.0.0") && Set(names).count == names.count)
    #expect(LocalCertificate.machineNames(listeningOn: "10.9.8.7").contains("10.9.8.7"))
  }
}
