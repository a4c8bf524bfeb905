import Foundation
import Testing

@testable import GuessworkServer

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
    #expect(try LocalCertificate.ensure(files, names: names, now: start).certificate)
    let ca = try contents(files.caCertificate)
    let first = try contents(files.certificate)
    // Again, or with fewer names: nothing to do.
    #expect(try LocalCertificate.ensure(files, names: names, now: start) == .init())
    #expect(
      try LocalCertificate.ensure(files, names: ["localhost"], now: start + 86_400) == .init())
    #expect(try contents(files.certificate) == first)
    // The machine got a new address: a new certificate, the same CA.
    #expect(
      try LocalCertificate.ensure(files, names: names + ["10.0.0.7"], now: start)
        == .init(certificate: true, authority: false))
    let second = try contents(files.certificate)
    #expect(second != first)
    #expect(try contents(files.caCertificate) == ca)
    // Thirty days before its end it is made again.
    #expect(try LocalCertificate.ensure(files, names: names, now: start + 366 * 86_400) == .init())
    #expect(try LocalCertificate.ensure(files, names: names, now: start + 368 * 86_400).certificate)
    #expect(try contents(files.certificate) != second)
    #expect(try contents(files.caCertificate) == ca)
  }

  @Test(
    "The authority signs only for this machine's names, .local and private or own addresses, for two years; a public address it cannot sign for makes a new one"
  )
  func constrainedAuthority() throws {
    let files = files()
    defer { try? FileManager.default.removeItem(at: files.folder) }
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let names = ["localhost", "127.0.0.1", "::1", "laptop", "laptop.local", "192.168.1.20"]
    #expect(try LocalCertificate.ensure(files, names: names, now: start).authority)
    let mode = try FileManager.default.attributesOfItem(atPath: files.folder.path)[
      .posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o700)
    let constraints = LocalCertificate.constraints(for: names)
    for allowed in names + ["10.1.2.3", "printer.local", "fd00::2", "172.31.0.1"] {
      #expect(LocalCertificate.permits(constraints, allowed), "\(allowed)")
    }
    for refused in ["example.com", "8.8.8.8", "2001:db8::1", "172.32.0.1", "notlaptop"] {
      #expect(!LocalCertificate.permits(constraints, refused), "\(refused)")
    }
    // A public address of this machine is added alone, not its network.
    let own = LocalCertificate.constraints(for: ["203.0.113.9"])
    #expect(LocalCertificate.permits(own, "203.0.113.9"))
    #expect(!LocalCertificate.permits(own, "203.0.113.10"))
    // The same names: the same authority. A name it cannot sign for: a new one.
    let ca = try contents(files.caCertificate)
    #expect(!(try LocalCertificate.ensure(files, names: names, now: start).authority))
    #expect(
      try LocalCertificate.ensure(files, names: names + ["203.0.113.9"], now: start).authority)
    #expect(try contents(files.caCertificate) != ca)
    // Thirty days before its two years end, it is made again.
    let second = try contents(files.caCertificate)
    let later = names + ["203.0.113.9"]
    #expect(
      !(try LocalCertificate.ensure(files, names: later, now: start + 690 * 86_400).authority))
    #expect(try LocalCertificate.ensure(files, names: later, now: start + 705 * 86_400).authority)
    #expect(try contents(files.caCertificate) != second)
  }

  @Test("This machine's names include localhost and its loopback addresses")
  func machineNames() {
    let names = LocalCertificate.machineNames(listeningOn: "0.0.0.0")
    #expect(names.starts(with: ["localhost", "127.0.0.1", "::1"]))
    #expect(!names.contains("0.0.0.0") && Set(names).count == names.count)
    #expect(LocalCertificate.machineNames(listeningOn: "10.9.8.7").contains("10.9.8.7"))
  }
}
