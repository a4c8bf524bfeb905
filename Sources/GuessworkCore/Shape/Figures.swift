/// One figure a game's statistics show, computed from the summaries of finished games.
public struct Figure: Sendable, Equatable {
  /// The key in the statistics' `figures` object ("winRate").
  public var id: String
  public var value: Value

  public init(_ id: String, _ value: Value) {
    self.id = id
    self.value = value
  }

  /// A figure's value, with how it reads.
  public enum Value: Sendable, Equatable {
    /// A whole number of things.
    case count(Int)
    /// A ratio from 0 to 1, read as a percentage; none before there is anything to count.
    case percent(Double?)
    /// Milliseconds.
    case milliseconds(Double?)
    /// A number read with one decimal.
    case decimal(Double?)
    /// A score.
    case score(Int?)
    /// Bars of a small chart: each an object with the two keys named.
    case bars([Bar], labelKey: String, valueKey: String)
    /// The best score per category or deck.
    case byVariant([String: Int])

    /// How a client reads it: count, percent, ms, decimal, score, bars or byVariant.
    public var format: String {
      switch self {
      case .count: "count"
      case .percent: "percent"
      case .milliseconds: "ms"
      case .decimal: "decimal"
      case .score: "score"
      case .bars: "bars"
      case .byVariant: "byVariant"
      }
    }
  }

  public struct Bar: Sendable, Equatable {
    public var label: Int
    public var value: Int

    public init(label: Int, value: Int) {
      self.label = label
      self.value = value
    }
  }

  /// The figure described for clients (`GET /api/catalog`); its label is the catalog key
  /// `<prefix>.figure.<id>`.
  public func info(keyPrefix prefix: String) -> FigureInfo {
    var info = FigureInfo(id: id, label: "\(prefix).figure.\(id)", format: value.format)
    if case .bars(_, let labelKey, let valueKey) = value {
      info.barLabel = labelKey
      info.barValue = valueKey
    }
    return info
  }

  /// The mean of `values`, none when there are none.
  public static func mean(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
  }

  /// The best score overall and per variant: what games played on categories or decks show.
  public static func bests(_ tally: Bests) -> [Figure] {
    [
      Figure("bestOverall", .score(tally.overall)),
      Figure("bestByVariant", .byVariant(tally.byVariant)),
    ]
  }

  /// The tally behind ``bests(_:)``.
  public struct Bests: GameTally {
    public var overall: Int?
    public var byVariant: [String: Int] = [:]

    public init() {}

    public mutating func add<S>(_ game: FinishedRecord<S>) {
      overall = max(overall ?? game.score, game.score)
      if let variant = game.variant {
        byVariant[variant] = max(byVariant[variant] ?? game.score, game.score)
      }
    }
  }
}

/// A figure as clients see it before any value: its key, label and format.
public struct FigureInfo: Codable, Sendable, Equatable {
  public var id: String
  public var label: String
  public var format: String
  public var barLabel: String?
  public var barValue: String?
}

/// A game's figures as the statistics send them: one object, a key per figure (absent when
/// the figure has no value yet).
public struct Figures: Encodable, Sendable, Equatable {
  public var list: [Figure]

  public init(_ list: [Figure]) {
    self.list = list
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FieldKey.self)
    for figure in list {
      let key = FieldKey(figure.id)
      switch figure.value {
      case .count(let value): try container.encode(value, forKey: key)
      case .percent(let value), .milliseconds(let value), .decimal(let value):
        try container.encodeIfPresent(value, forKey: key)
      case .score(let value): try container.encodeIfPresent(value, forKey: key)
      case .bars(let bars, let labelKey, let valueKey):
        var list = container.nestedUnkeyedContainer(forKey: key)
        for bar in bars {
          var object = list.nestedContainer(keyedBy: FieldKey.self)
          try object.encode(bar.label, forKey: FieldKey(labelKey))
          try object.encode(bar.value, forKey: FieldKey(valueKey))
        }
      case .byVariant(let best): try container.encode(best, forKey: key)
      }
    }
  }
}
