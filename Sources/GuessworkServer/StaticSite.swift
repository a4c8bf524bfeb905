import CompressNIO
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The browser UI's files, read once when the server starts, each kept with its type, its
/// ETag and a gzip copy, so that serving one is a dictionary lookup.
///
/// Pages name their style sheets and scripts relatively (`css/app.css`, `js/api.js`); each page
/// is served with those references moved under `v/<version>/`, where `version` is a digest of
/// every file. Files under `v/<version>/` never change, so browsers keep them for a year
/// without asking again; a new version of any file gives every page new addresses. Relative
/// imports between scripts stay inside the same versioned folder. Everything else (pages,
/// icons, the manifest, the service worker) is asked for again each time and answered
/// `304 Not Modified` while unchanged.
struct StaticSite: Sendable {
  struct File: Sendable {
    var body: ByteBuffer
    /// The same bytes gzipped, when that is smaller.
    var gzipped: ByteBuffer?
    var contentType: String
    var etag: String
  }

  /// A digest of every file, naming the versioned folder.
  let version: String
  /// By path, without a leading slash (`index.html`, `js/api.js`).
  let files: [String: File]
  /// `GET /assets.json`: what a service worker caches to open pages offline.
  let assetList: File

  static let versionedFolders = ["css/", "js/"]
  static let immutable = "public, max-age=31536000, immutable"
  static let revalidate = "no-cache"

  /// Serves the files of `directory` and, beside them, `generated` files made at start (the
  /// languages' catalogs), by path. Each of `games` is played at `<id>.html`: the folder's
  /// `game.html` (not served itself) with every `{{game}}` replaced by the id, unless the
  /// folder has a page of that name.
  init(directory: String, generated: [String: Data] = [:], games: [String] = []) throws {
    let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
    var contents = generated
    let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
    for path in paths ?? [] where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") })
    {
      let url = root.appendingPathComponent(path)
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else {
        continue
      }
      contents[path] = try Data(contentsOf: url)
    }
    if let template = contents.removeValue(forKey: "game.html").map({
      String(decoding: $0, as: UTF8.self)
    }) {
      for id in games where contents["\(id).html"] == nil {
        contents["\(id).html"] = Data(template.replacingOccurrences(of: "{{game}}", with: id).utf8)
      }
    }
    var digest = SHA256()
    for path in contents.keys.sorted() {
      digest.update(data: Data(path.utf8))
      digest.update(data: contents[path]!)
    }
    let version = Self.hex(digest.finalize()).prefix(12)
    self.version = String(version)
    var files: [String: File] = [:]
    for (path, data) in contents {
      let served =
        path.hasSuffix(".html") ? Self.versioned(page: data, version: self.version) : data
      files[path] = Self.file(served, type: Self.contentType(of: path))
    }
    self.files = files
    let pages = contents.keys.filter { $0.hasSuffix(".html") }.sorted()
    let assets = contents.keys.filter { !$0.hasSuffix(".html") }.sorted().map { path in
      Self.versionedFolders.contains { path.hasPrefix($0) } ? "v/\(version)/\(path)" : path
    }
    let list = try JSONSerialization.data(
      withJSONObject: ["version": self.version, "pages": pages, "assets": assets],
      options: [.sortedKeys, .withoutEscapingSlashes])
    assetList = Self.file(list, type: "application/json")
  }

  /// The file a request path names, with the `Cache-Control` it is served with; `nil` when
  /// there is none (the request goes on to the API's routes).
  func file(at requestPath: String) -> (File, cacheControl: String)? {
    var path = requestPath.removingPercentEncoding ?? requestPath
    if path == "/assets.json" { return (assetList, Self.revalidate) }
    if path.hasSuffix("/") { path += "index.html" }
    path.removeFirst()  // the leading slash
    if path.hasPrefix("v/"), let slash = path.dropFirst(2).firstIndex(of: "/") {
      let named = path[path.index(path.startIndex, offsetBy: 2)..<slash]
      guard let file = files[String(path[path.index(after: slash)...])] else { return nil }
      // An older version's address gets today's file, which must not be kept as the old one.
      return (file, named == version ? Self.immutable : Self.revalidate)
    }
    return files[path].map { ($0, Self.revalidate) }
  }

  /// A page with its style sheets and scripts named by their versioned addresses.
  static func versioned(page: Data, version: String) -> Data {
    var text = String(decoding: page, as: UTF8.self)
    for folder in versionedFolders {
      for attribute in ["href=\"", "src=\""] {
        text = text.replacingOccurrences(
          of: attribute + folder, with: attribute + "v/\(version)/" + folder)
      }
    }
    return Data(text.utf8)
  }

  private static func file(_ data: Data, type: String) -> File {
    var body = ByteBuffer(data: data)
    var gzipped: ByteBuffer?
    if compressible(type), let packed = try? body.compress(with: .gzip()),
      packed.readableBytes < data.count
    {
      gzipped = packed
    }
    body.moveReaderIndex(to: 0)
    return File(
      body: body, gzipped: gzipped, contentType: type,
      etag: "\"\(hex(SHA256.hash(data: data)).prefix(16))\"")
  }

  private static func hex(_ digest: some Sequence<UInt8>) -> String {
    digest.map { String(format: "%02x", $0) }.joined()
  }

  private static func compressible(_ type: String) -> Bool {
    type.hasPrefix("text/") || type.hasPrefix("application/json")
      || type.hasPrefix("application/manifest+json") || type.hasPrefix("image/svg+xml")
  }

  static func contentType(of path: String) -> String {
    switch path.split(separator: ".").last?.lowercased() ?? "" {
    case "html": "text/html; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "js", "mjs": "text/javascript; charset=utf-8"
    case "json": "application/json"
    case "webmanifest": "application/manifest+json"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "jpg", "jpeg": "image/jpeg"
    case "webp": "image/webp"
    case "ico": "image/x-icon"
    case "txt": "text/plain; charset=utf-8"
    case "woff2": "font/woff2"
    default: "application/octet-stream"
    }
  }
}

/// Serves ``StaticSite``'s files to `GET` and `HEAD`: gzipped when the client accepts it,
/// `304 Not Modified` when the client's copy is current.
struct StaticSiteMiddleware<Context: RequestContext>: RouterMiddleware {
  let site: StaticSite

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if request.uri.path.removingPercentEncoding?.contains("\0") ?? true {
      throw APIError(.badRequest, "bad-path", "error.badPath")
    }
    guard request.method == .get || request.method == .head,
      let (file, cacheControl) = site.file(at: request.uri.path)
    else { return try await next(request, context) }
    let gzip = file.gzipped != nil && Self.acceptsGzip(request.headers[.acceptEncoding])
    // The two encodings are different bytes, so they need different ETags.
    let etag = gzip ? String(file.etag.dropLast()) + "-gz\"" : file.etag
    var headers: HTTPFields = [
      .contentType: file.contentType, .cacheControl: cacheControl, .eTag: etag,
    ]
    if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
    if let known = request.headers[.ifNoneMatch],
      known.split(separator: ",").contains(where: {
        let tag = $0.trimmingCharacters(in: .whitespaces)
        return tag == etag || tag == "W/" + etag || tag == "*"
      })
    {
      return Response(status: .notModified, headers: headers)
    }
    if let range = request.headers[.range] {
      return Self.partial(file.body, range: range, headers: headers, head: request.method == .head)
    }
    let body = gzip ? file.gzipped! : file.body
    if gzip { headers[.contentEncoding] = "gzip" }
    headers[.contentLength] = String(body.readableBytes)
    return Response(
      status: .ok, headers: headers,
      body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body))
  }

  /// A `Range` request (one range of bytes, of the file as it is): `206` with that part, or
  /// `416` when the range lies outside the file; a range this cannot read gets the whole file.
  static func partial(_ body: ByteBuffer, range: String, headers: HTTPFields, head: Bool)
    -> Response
  {
    var headers = headers
    headers[.acceptRanges] = "bytes"
    let length = body.readableBytes
    guard let (first, last) = byteRange(range, length: length) else {
      headers[.contentLength] = String(length)
      return Response(
        status: .ok, headers: headers, body: head ? ResponseBody() : .init(byteBuffer: body))
    }
    guard first <= last, first < length else {
      headers[.contentRange] = "bytes */\(length)"
      headers[.contentLength] = "0"
      return Response(status: .rangeNotSatisfiable, headers: headers)
    }
    let end = min(last, length - 1)
    headers[.contentRange] = "bytes \(first)-\(end)/\(length)"
    headers[.contentLength] = String(end - first + 1)
    let part = body.getSlice(at: body.readerIndex + first, length: end - first + 1)!
    return Response(
      status: .partialContent, headers: headers,
      body: head ? ResponseBody() : .init(byteBuffer: part))
  }

  /// The first and last byte of `bytes=a-b`, `bytes=a-` or `bytes=-n`; `nil` for anything else
  /// (several ranges, other units), which is answered with the whole file.
  static func byteRange(_ header: String, length: Int) -> (Int, Int)? {
    guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
    let spec = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
    guard spec.count == 2 else { return nil }
    switch (Int(spec[0]), Int(spec[1])) {
    case (let first?, let last?): return (first, last)
    case (let first?, nil) where spec[1].isEmpty: return (first, max(first, length - 1))
    case (nil, let suffix?) where spec[0].isEmpty:
      return suffix > 0 ? (max(0, length - suffix), length - 1) : (length, length)
    default: return nil
    }
  }

  /// Whether `Accept-Encoding` lists gzip with a weight above 0.
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { part in
      let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard pieces.first?.lowercased() == "gzip" || pieces.first == "*" else { return false }
      let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap {
        Double($0.dropFirst(2))
      }
      return (weight ?? 1) > 0
    }
  }
}
