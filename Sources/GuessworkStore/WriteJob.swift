import CoreMetrics

/// A write on the hot path: a new game or a move. Each database's writer (``SQLiteWriter``,
/// ``PostgresGames``) commits the jobs waiting at one moment in one transaction.
enum WriteJob: Sendable {
  case insertGame(GameRecord)
  case saveMove(Move, expectedVersion: Int)

  var gameID: String {
    switch self {
    case .insertGame(let game): game.id
    case .saveMove(let move, _): move.gameID
    }
  }

  /// How many jobs each transaction committed, for the metrics.
  static func batchSizes(database: String) -> Recorder {
    Recorder(label: "guesswork_write_batch_size", dimensions: [("database", database)])
  }
}

extension RecentlyUsed<String, GameRecord> {
  /// Brings the live games up to date with `committed`, in commit order: a new game and a
  /// move of a known game are kept, a finished game or a refused or failed write forgotten.
  mutating func remember(_ committed: some Sequence<(WriteJob, Result<Bool, any Error>)>) {
    for (job, result) in committed {
      switch (job, result) {
      case (.insertGame(let game), .success) where game.finished == nil:
        self[game.id] = game
      case (.saveMove(let move, _), .success(true)):
        guard var game = self[move.gameID], move.finished == nil else {
          self[move.gameID] = nil
          continue
        }
        game.state = move.state
        game.version = move.version
        game.updatedAt = move.at
        self[move.gameID] = game
      case (.saveMove(let move, _), _):
        self[move.gameID] = nil
      case (.insertGame, _):
        continue
      }
    }
  }
}
