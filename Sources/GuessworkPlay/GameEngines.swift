import Foundation
public import GuessworkContent
public import GuessworkCore
import GuessworkJSON
import GuessworkStore
import Synchronization

/// A game as the catalog lists it: what a client needs to offer it, set it up and show its
/// statistics.
public struct CatalogEntry: Codable, Sendable, Equatable {
  public var id: String
  /// The texts (title, blurb, the settings' and figures' labels) are catalog keys until
  /// ``rendered(_:)`` puts them in a language's words.
  public var title: String
  public var emoji: String
  public var blurb: String
  /// The page that plays it.
  public var page: String
  /// Whether a room can play it (the host menu offers only these).
  public var rooms: Bool
  public var content: ContentNeed
  public var settings: [SettingInfo]
  public var figures: [FigureInfo]
}

extension CatalogEntry {
  /// The entry in the words of `catalog`.
  public func rendered(_ catalog: Catalog) -> CatalogEntry {
    var entry = self
    entry.title = catalog(title)
    entry.blurb = catalog(blurb)
    entry.settings = settings.map { setting in
      var setting = setting
      setting.label = catalog(setting.label)
      setting.about = catalog(setting.about)
      setting.choices = setting.choices?.map {
        SettingInfo.Choice(value: $0.value, label: catalog($0.label))
      }
      return setting
    }
    entry.figures = figures.map { figure in
      var figure = figure
      figure.label = catalog(figure.label)
      return figure
    }
    return entry
  }
}

/// The engines of a list of games, by kind.
public struct GameEngines: Sendable {
  /// In the list's order.
  public let all: [any GameEngine]
  private let byKind: [GameKind: any GameEngine]

  /// The engines of `games` (by default every game Guesswork plays).
  public init(_ games: [any Game.Type] = Games.all) {
    all = games.map { Self.engine(for: $0) }
    byKind = Dictionary(uniqueKeysWithValues: all.map { ($0.kind, $0) })
  }

  private static func engine<G: Game>(for type: G.Type) -> any GameEngine { Engine<G>() }

  public subscript(kind: GameKind) -> (any GameEngine)? { byKind[kind] }
  public subscript(id: String) -> (any GameEngine)? { byKind[GameKind(rawValue: id)] }

  /// The identifiers, in order, for messages ("game must be one of ...").
  public var ids: [String] { all.map(\.kind.rawValue) }
}

/// The names of an object's members, whatever their values.
struct GivenNames: Decodable {
  var names: [String]

  private struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    names = try decoder.container(keyedBy: Name.self).allKeys.map { $0.stringValue }
  }
}
