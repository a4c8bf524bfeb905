public import Foundation

/// A picture read from a deck folder, checked by its bytes.
public struct Picture: Sendable, Equatable {
  /// The SHA-256 of the bytes, in hex: the picture's id and URL, which say nothing of its
  /// answer.
  public let id: String
  public let contentType: String
  public let data: Data

  public init(id: String, contentType: String, data: Data) {
    self.id = id
    self.contentType = contentType
    self.data = data
  }

  /// The picture type of `data` judged by its first bytes (JPEG, PNG or WebP), never by a
  /// file's name.
  public static func type(of data: Data) -> String? {
    let bytes = [UInt8](data.prefix(12))
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      return "image/webp"
    }
    return nil
  }
}

/// A deck read from a folder and checked, ready to be stored in one go.
public struct DeckImport: Sendable {
  public let deck: Deck
  public let pictures: [Picture]
}

/// Everything wrong with a deck folder, each problem naming its file: nothing is imported
/// unless there are none.
public struct DeckImportError: Error, Equatable, CustomStringConvertible {
  public let problems: [String]

  public var description: String {
    "The deck was not imported:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
  }
}

/// Reads a deck folder: pictures named after their answers (`Reggie White.jpg`, as the
/// original app's assets were) and an optional `deck.json` manifest with the deck's id,
/// title, question (`"Tap the Hall of Famer who is {answer}"`), noun, theme (two to four
/// colours), credit, and per-item overrides (`{"name", "file"}` or `{"name", "emoji"}`).
public enum DeckFolder {
  public static let maxPictureBytes = 1024 * 1024
  static let pictureExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

  /// The manifest; every key optional.
  struct Manifest: Decodable {
    struct Item: Decodable {
      var name: String
      var file: String?
      var emoji: String?
    }
    var id: String?
    var title: String?
    var question: String?
    var noun: String?
    var theme: [String]?
    var credit: String?
    var items: [Item]?
  }

  /// Reads and checks `folder`. A deck whose id is one of `builtIn` (the Hall of Fame roster,
  /// say) takes that deck's title, wording, theme and credit unless the manifest says
  /// otherwise. `sha256` names pictures by their content.
  public static func read(
    _ folder: URL, id requestedID: String? = nil, builtIn: [Deck],
    sha256: (Data) -> String
  ) throws(DeckImportError) -> DeckImport {
    var problems: [String] = []
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { !$0.hasPrefix(".") }.sorted()
    } catch {
      throw DeckImportError(problems: ["\(folder.path): not a readable folder"])
    }

    var manifest = Manifest()
    if names.contains("deck.json") {
      do {
        let data = try Data(contentsOf: folder.appendingPathComponent("deck.json"))
        manifest = try JSONDecoder().decode(Manifest.self, from: data)
      } catch let error as DecodingError {
        problems.append("deck.json: not a valid manifest (\(Self.explain(error)))")
      } catch {
        problems.append("deck.json: cannot be read")
      }
    }

    // Pictures, by the answer each stands for.
    var pictureByFile: [String: Picture] = [:]
    for name in names where name != "deck.json" {
      let ext = (name as NSString).pathExtension.lowercased()
      guard pictureExtensions.contains(ext) else {
        problems.append("\(name): not a picture file (use .jpg, .png or .webp)")
        continue
      }
      let url = folder.appendingPathComponent(name)
      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      guard size <= maxPictureBytes else {
        problems.append(
          "\(name): \(String(format: "%.1f", Double(size) / 1_048_576)) MB; a picture may be at most 1 MB"
        )
        continue
      }
      guard let data = try? Data(contentsOf: url) else {
        problems.append("\(name): cannot be read")
        continue
      }
      guard let type = Picture.type(of: data) else {
        problems.append("\(name): not a JPEG, PNG or WebP picture (judged by its bytes)")
        continue
      }
      pictureByFile[name] = Picture(id: sha256(data), contentType: type, data: data)
    }

    let id = requestedID ?? manifest.id ?? Self.slug(folder.lastPathComponent)
    if !Self.isValidID(id) {
      problems.append("deck id \"\(id)\": use 1 to 40 lowercase letters, digits and hyphens")
    }
    let base = builtIn.first { $0.id == id }

    // Items: from the manifest first, then one per picture file not named by it.
    var items: [Deck.Item] = []
    var answerFiles: [String: [String]] = [:]
    var claimedFiles = Set<String>()
    for item in manifest.items ?? [] {
      let name = item.name.trimmingCharacters(in: .whitespaces)
      if let file = item.file {
        claimedFiles.insert(file)
        guard names.contains(file) else {
          problems.append("deck.json: the picture \"\(file)\" of \(name) is not in the folder")
          continue
        }
        answerFiles[name.lowercased(), default: []].append(file)
        if let picture = pictureByFile[file] {
          items.append(.init(name: name, picture: picture.id))
        }
      } else if let emoji = item.emoji {
        answerFiles[name.lowercased(), default: []].append(emoji)
        items.append(.init(name: name, emoji: emoji))
      }
    }
    for (file, picture) in pictureByFile.sorted(by: { $0.key < $1.key })
    where !claimedFiles.contains(file) {
      let name = (file as NSString).deletingPathExtension.trimmingCharacters(in: .whitespaces)
      answerFiles[name.lowercased(), default: []].append(file)
      items.append(.init(name: name, picture: picture.id))
    }
    for (_, files) in answerFiles.sorted(by: { $0.key < $1.key }) where files.count > 1 {
      problems.append(
        "\(files.joined(separator: " and ")): two pictures for one answer; keep one")
    }
    if items.count < Deck.minimumPictures, problems.isEmpty {
      problems.append(
        "the folder has \(items.count) picture\(items.count == 1 ? "" : "s"); a deck needs at least \(Deck.minimumPictures)"
      )
    }

    let theme = manifest.theme ?? base?.theme ?? ["#1e3a8a", "#7c3aed"]
    if !(2...4).contains(theme.count) || !theme.allSatisfy(Self.isHexColour) {
      problems.append("deck.json: theme must be 2 to 4 colours like \"#004C54\"")
    }
    let question = manifest.question ?? base?.question ?? "Tap the {answer}"
    if !question.contains("{answer}") {
      problems.append("deck.json: question must contain {answer}")
    }
    guard problems.isEmpty else { throw DeckImportError(problems: problems) }

    // Items of a built-in roster that have no picture yet stay listed, so the deck shows
    // who is still missing.
    let named = Set(items.map { $0.name.lowercased() })
    let missing = (base?.items ?? []).filter { !named.contains($0.name.lowercased()) }
      .map { Deck.Item(name: $0.name, emoji: $0.emoji) }
    let deck = Deck(
      id: id, title: manifest.title ?? base?.title ?? folder.lastPathComponent,
      question: question, noun: manifest.noun ?? base?.noun ?? "",
      theme: theme, credit: manifest.credit ?? base?.credit ?? "", items: items + missing)
    let used = Set(items.compactMap(\.picture))
    var seen = Set<String>()
    let pictures = pictureByFile.values.sorted { $0.id < $1.id }.filter {
      used.contains($0.id) && seen.insert($0.id).inserted
    }
    return DeckImport(deck: deck, pictures: pictures)
  }

  static func slug(_ name: String) -> String {
    let lowered = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
    return String(lowered).split(separator: "-").joined(separator: "-")
  }

  static func isValidID(_ id: String) -> Bool {
    (1...40).contains(id.count)
      && id.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
      }
  }

  static func isHexColour(_ text: String) -> Bool {
    text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
  }

  static func explain(_ error: DecodingError) -> String {
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty: "not valid JSON"
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      "at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
    case .keyNotFound(let key, _): "\(key.stringValue) is missing"
    @unknown default: "unexpected shape"
    }
  }
}
