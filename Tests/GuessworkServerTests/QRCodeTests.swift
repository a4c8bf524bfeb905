import Foundation
import Testing

@testable import GuessworkServer

/// The QR codes of rooms, read back by a real decoder: Debian's zbarimg (zbar-tools).
@Suite("QR codes")
struct QRCodeTests {
  static let zbarimg = "/usr/bin/zbarimg"

  /// What zbarimg reads in the code, drawn as a PGM image in a temporary file.
  func decoded(_ code: QRCode) throws -> String {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.zbarimg),
      "\(Self.zbarimg) is missing: install zbar-tools (scripts/test does when it is missing)"
    )
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("guesswork-qr-\(UUID().uuidString).pgm")
    try Data(code.pgm()).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.zbarimg)
    // QR codes only: zbarimg may also see a Codabar code in the modules ("B5.B"), and print it.
    process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(
      process.terminationStatus == 0, "zbarimg found no code (status \(process.terminationStatus))")

    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  static let texts = [
    "http://192.168.1.20:8080/room.html?code=K7QM",
    "https://example.org/room.html?code=ABC234",
    "x",
    String(repeating: "0123456789abcdefghij", count: 6),
    "Комната K7QM ñ",
  ]

  @Test("zbarimg reads back exactly the text encoded", arguments: texts)
  func readBack(text: String) throws {
    let code = try QRCode(text)
    #expect(code.size == 17 + 4 * code.version)
    #expect(try decoded(code) == text)
  }

  @Test("Every mask pattern reads back, not only the one chosen", arguments: 0..<8)
  func everyMask(mask: Int) throws {
    let text = "http://192.168.1.20:8080/room.html?code=K7QM"
    let code = try QRCode(text, mask: mask)
    #expect(code.mask == mask)
    #expect(try decoded(code) == text)
  }

  @Test("The smallest version that holds the text: 1 for one letter, 7 from 107 bytes")
  func versions() throws {
    #expect(try QRCode("x").version == 1)
    #expect(try QRCode(String(repeating: "a", count: 14)).version == 1)
    #expect(try QRCode(String(repeating: "a", count: 15)).version == 2)
    #expect(try QRCode("http://192.168.1.20:8080/room.html?code=K7QM").version == 4)
    #expect(try QRCode(String(repeating: "a", count: 106)).version == 6)
    #expect(try QRCode(String(repeating: "a", count: 107)).version == 7)
    #expect(try QRCode(String(repeating: "a", count: 213)).version == 10)
  }

  @Test("A text longer than version 10 holds is refused")
  func tooLong() {
    #expect(throws: QRCode.TooLong(byteCount: 214, limit: 213)) {
      try QRCode(String(repeating: "a", count: 214))
    }
    // Text that is not all ASCII spends 12 bits saying it is UTF-8.
    #expect(throws: QRCode.TooLong(byteCount: 213, limit: 212)) {
      try QRCode("ñ" + String(repeating: "a", count: 211))
    }
  }

  @Test("The SVG is the symbol and its quiet zone, one unit a module, black on white")
  func svg() throws {
    let small = try QRCode("x").svg()
    #expect(small.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 29 29\""))
    #expect(small.contains("shape-rendering=\"crispEdges\""))
    #expect(small.contains("<rect width=\"29\" height=\"29\" fill=\"#fff\"/>"))
    // The first run is the top edge of the top left finder: seven dark modules.
    #expect(small.contains("<path fill=\"#000\" d=\"M4 4h7v1h-7z"))

    let large = try QRCode(String(repeating: "0123456789abcdefghij", count: 6))
    #expect(large.version == 7)
    #expect(large.svg().contains("viewBox=\"0 0 53 53\""))
    #expect(large.svg(quietZone: 0).contains("viewBox=\"0 0 45 45\""))
  }

  @Test("The PGM image is a P5 header and a byte a pixel")
  func pgm() throws {
    let code = try QRCode("x")
    let image = code.pgm(scale: 2, quietZone: 1)
    let header = Array("P5\n46 46\n255\n".utf8)
    #expect(Array(image.prefix(header.count)) == header)
    #expect(image.count == header.count + 46 * 46)
    // The quiet zone is white; the finder's corner, one module in, black.
    #expect(image[header.count] == 255)
    #expect(image[header.count + 2 * 46 + 2] == 0)
  }
}
