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

  /// Makes what is missing or outdated among `files`, for `names` (host names and IP
  /// addresses), and tells whether the server's certificate was made anew.
  @discardableResult
  public static func ensure(_ files: Files, names: [String], now: Date = Date()) throws -> Bool {
    try FileManager.default.createDirectory(at: files.folder, withIntermediateDirectories: true)
    let (ca, caKey) = try authority(files, now: now)
    if let current = try? Certificate(
      pemEncoded: String(contentsOf: files.certificate, encoding: .utf8)),
      FileManager.default.fileExists(atPath: files.key.path),
      current.issuer == ca.subject,
      current.notValidAfter > now.addingTimeInterval(renewalDays * 86_400),
      Set(names).isSubset(of: Set(subjectNames(of: current)))
    {
      return false
    }
    let key = P256.Signing.PrivateKey()
    let certificate = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: now.addingTimeInterval(serverDays * 86_400),
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
    return true
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

  private static func authority(_ files: Files, now: Date) throws -> (
    Certificate, P256.Signing.PrivateKey
  ) {
    if let pem = try? String(contentsOf: files.caCertificate, encoding: .utf8),
      let keyPEM = try? String(contentsOf: files.caKey, encoding: .utf8)
    {
      return (
        try Certificate(pemEncoded: pem), try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
      )
    }
    let key = P256.Signing.PrivateKey()
    let name = try DistinguishedName {
      OrganizationName("Guesswork")
      CommonName("Guesswork on \(ProcessInfo.processInfo.hostName)")
    }
    let ca = try Certificate(
      version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
      },
      issuerPrivateKey: .init(key))
    try write(key.pemRepresentation, to: files.caKey, secret: true)
    try write(try ca.serializeAsPEM().pemString, to: files.caCertificate, secret: false)
    return (ca, key)
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
