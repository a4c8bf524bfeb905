import Crypto
public import Foundation
import NIOCore
import NIOPosix
import SwiftASN1
import X509

/// The certificates of `guesswork serve --https`, made once and kept in the data directory, so
/// that phones on a home network can reach the server over HTTPS (iPhones give motion events,
/// and browsers the clipboard and Web Share, only to secure pages).
///
/// Like a small private certificate authority: a CA certificate that a phone is told to trust
/// once (served at ``caPath``), and the server's own certificate signed by it for every name
/// and address of this machine. The server's certificate is made again when the machine has a
/// new address or it nears its end; the CA stays, so phones need not trust anything again.
///
/// A phone that trusts the CA trusts what it signs, so the CA is kept small: it may sign only
/// for this machine's names, `.local` names and private, loopback and this machine's own
/// addresses (X.509 name constraints), and it lasts two years. A CA that lacks those
/// constraints, nears its end or cannot sign for a name the machine now has is made again (and
/// ``ensure(_:names:now:)`` says so: phones must trust the new one).
public enum LocalCertificate {
  /// Where a browser downloads the CA certificate (DER, which phones install as a profile).
  public static let caPath = "/guesswork-ca.crt"

  /// The files of one data directory's certificates.
  public struct Files: Sendable {
    public var folder: URL
    public var caCertificate: URL { folder.appendingPathComponent("ca.pem") }
    public var caKey: URL { folder.appendingPathComponent("ca-key.pem") }
    public var certificate: URL { folder.appendingPathComponent("server.pem") }
    public var key: URL { folder.appendingPathComponent("server-key.pem") }

    public init(dataDirectory: String) {
      folder = URL(fileURLWithPath: dataDirectory).appendingPathComponent("tls")
    }
  }

  /// The server's certificate is made for 397 days (no device refuses that), and again once
  /// fewer than 30 remain.
  static let serverDays = 397.0
  static let renewalDays = 30.0
  /// The CA's life: two years.
  static let authorityDays = 730.0

  /// What ``ensure(_:names:now:)`` made anew.
  public struct Made: Sendable, Equatable {
    /// The server's certificate.
    public var certificate = false
    /// The authority: phones that trusted the old one must trust this one.
    public var authority = false
  }

  /// Makes what is missing or outdated among `files`, for `names` (host names and IP
  /// addresses), and tells what was made anew. The folder is its owner's alone (0700).
  @discardableResult
  public static func ensure(_ files: Files, names: [String], now: Date = Date()) throws -> Made {
    try FileManager.default.createDirectory(
      at: files.folder, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o700], ofItemAtPath: files.folder.path)
    var made = Made()
    let (ca, caKey) = try authority(files, names: names, now: now, made: &made)
    if !made.authority,
      let current = try? Certificate(
        pemEncoded: String(contentsOf: files.certificate, encoding: .utf8)),
      FileManager.default.fileExists(atPath: files.key.path),
      current.issuer == ca.subject,
      current.notValidAfter > now.addingTimeInterval(renewalDays * 86_400),
      Set(names).isSubset(of: Set(subjectNames(of: current)))
    {
      return made
    }
    let key = P256.Signing.PrivateKey()
    let certificate = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: min(now.addingTimeInterval(serverDays * 86_400), ca.notValidAfter),
      issuer: ca.subject,
      subject: try DistinguishedName {
        OrganizationName("Guesswork")
        CommonName(names.first ?? "localhost")
      },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames(names.map(generalName))
        SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
        AuthorityKeyIdentifier(
          keyIdentifier: SubjectKeyIdentifier(hash: ca.publicKey).keyIdentifier)
      },
      issuerPrivateKey: .init(caKey))
    try write(key.pemRepresentation, to: files.key, secret: true)
    try write(try certificate.serializeAsPEM().pemString, to: files.certificate, secret: false)
    made.certificate = true
    return made
  }

  /// The CA certificate as DER, for ``caPath``.
  public static func caDER(_ files: Files) throws -> [UInt8] {
    let ca = try Certificate(pemEncoded: String(contentsOf: files.caCertificate, encoding: .utf8))
    var serializer = DER.Serializer()
    try serializer.serialize(ca)
    return serializer.serializedBytes
  }

  /// Every name this machine answers to on its networks: `localhost`, its host name (and
  /// `.local`, as phones find it by mDNS), and the address of every interface.
  public static func machineNames(listeningOn host: String) -> [String] {
    var names = ["localhost", "127.0.0.1", "::1"]
    let hostName = ProcessInfo.processInfo.hostName
    if !hostName.isEmpty, hostName != "localhost" {
      names += [hostName, hostName.hasSuffix(".local") ? hostName : hostName + ".local"]
    }
    for device in (try? System.enumerateDevices()) ?? [] {
      if let address = device.address?.ipAddress, !address.hasPrefix("fe80") {
        names.append(address)
      }
    }
    if !["0.0.0.0", "::"].contains(host) { names.append(host) }
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// The ranges of addresses the CA may sign for whatever the machine's addresses: loopback,
  /// the private IPv4 ranges, link-local, carrier-grade NAT, and IPv6's loopback, unique local
  /// and link-local. As address and mask.
  static let privateRanges: [(address: String, bits: Int)] = [
    ("127.0.0.0", 8), ("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16),
    ("169.254.0.0", 16), ("100.64.0.0", 10), ("::1", 128), ("fc00::", 7), ("fe80::", 10),
  ]

  /// The CA kept in `files` if it still serves `names`, else a new one.
  private static func authority(_ files: Files, names: [String], now: Date, made: inout Made)
    throws -> (Certificate, P256.Signing.PrivateKey)
  {
    if let pem = try? String(contentsOf: files.caCertificate, encoding: .utf8),
      let keyPEM = try? String(contentsOf: files.caKey, encoding: .utf8),
      let ca = try? Certificate(pemEncoded: pem),
      let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM),
      ca.notValidAfter > now.addingTimeInterval(renewalDays * 86_400),
      let constraints = try? ca.extensions.nameConstraints,
      names.allSatisfy({ permits(constraints, $0) })
    {
      return (ca, key)
    }
    made.authority = true
    let key = P256.Signing.PrivateKey()
    let name = try DistinguishedName {
      OrganizationName("Guesswork")
      CommonName("Guesswork on \(ProcessInfo.processInfo.hostName)")
    }
    let ca = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: now.addingTimeInterval(authorityDays * 86_400),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        Critical(constraints(for: names))
        SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
      },
      issuerPrivateKey: .init(key))
    try write(key.pemRepresentation, to: files.caKey, secret: true)
    try write(try ca.serializeAsPEM().pemString, to: files.caCertificate, secret: false)
    return (ca, key)
  }

  /// What the CA may sign for: `names`' host names and `.local`; the private ranges and
  /// `names`' addresses outside them.
  static func constraints(for names: [String]) -> NameConstraints {
    var hosts = ["local"]
    var ranges = privateRanges.compactMap { range(address: $0.address, bits: $0.bits) }
    for name in names {
      if let address = try? SocketAddress(ipAddress: name, port: 0) {
        let bytes = bytes(of: address)
        let single = ASN1OctetString(contentBytes: ArraySlice(bytes + bytes.map { _ in 0xFF }))
        if !ranges.contains(where: { contains($0, bytes) }) { ranges.append(single) }
      } else if !hosts.contains(where: { name == $0 || name.hasSuffix(".\($0)") }) {
        hosts.append(name)
      }
    }
    return NameConstraints(permittedDNSDomains: hosts, permittedIPRanges: ranges)
  }

  /// A range as name constraints write it: the address, then the mask.
  static func range(address: String, bits: Int) -> ASN1OctetString? {
    guard let parsed = try? SocketAddress(ipAddress: address, port: 0) else { return nil }
    let bytes = bytes(of: parsed)
    let mask = (0..<bytes.count).map { index -> UInt8 in
      let left = max(0, min(8, bits - index * 8))
      return left == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - left))
    }
    return ASN1OctetString(contentBytes: ArraySlice(bytes + mask))
  }

  /// Whether the range (address and mask) holds `address`.
  static func contains(_ range: ASN1OctetString, _ address: [UInt8]) -> Bool {
    let raw = Array(range.bytes)
    guard raw.count == address.count * 2 else { return false }
    let (base, mask) = (raw.prefix(address.count), raw.suffix(address.count))
    return zip(zip(base, mask), address).allSatisfy { pair, byte in
      pair.0 & pair.1 == byte & pair.1
    }
  }

  /// Whether `constraints` let the CA sign for `name`.
  static func permits(_ constraints: NameConstraints, _ name: String) -> Bool {
    if let address = try? SocketAddress(ipAddress: name, port: 0) {
      let bytes = bytes(of: address)
      return constraints.permittedSubtrees.contains {
        if case .ipAddress(let range) = $0 { contains(range, bytes) } else { false }
      }
    }
    return constraints.permittedSubtrees.contains {
      if case .dnsName(let domain) = $0 {
        name.lowercased() == domain.lowercased()
          || name.lowercased().hasSuffix(".\(domain.lowercased())")
      } else {
        false
      }
    }
  }

  private static func generalName(_ name: String) -> GeneralName {
    if let address = try? SocketAddress(ipAddress: name, port: 0) {
      return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes(of: address))))
    }
    return .dnsName(name)
  }

  /// An address's bytes in network order (4 for IPv4, 16 for IPv6).
  private static func bytes(of address: SocketAddress) -> [UInt8] {
    switch address {
    case .v4(let v4):
      withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
    case .v6(let v6):
      withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
    default:
      []
    }
  }

  private static func subjectNames(of certificate: Certificate) -> [String] {
    guard let names = try? certificate.extensions.subjectAlternativeNames else { return [] }
    return names.compactMap { name in
      switch name {
      case .dnsName(let dns):
        return dns
      case .ipAddress(let octets):
        let raw = Array(octets.bytes)
        return raw.count == 4
          ? raw.map(String.init).joined(separator: ".")
          : (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: raw), port: 0))?.ipAddress
      default:
        return nil
      }
    }
  }

  private static func write(_ text: String, to url: URL, secret: Bool) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
    if secret {
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
  }
}
