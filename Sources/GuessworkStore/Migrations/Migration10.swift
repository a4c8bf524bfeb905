import SQLKit

extension Migration {
  /// 10: PostgreSQL: room on each page of games for its rows' next versions.
  static let v10 = Migration(
    version: 10, name: "PostgreSQL: room on each page of games for its rows' next versions",
    statements: [],
    postgres: [
      // Every move updates its game's row, and PostgreSQL writes each update as a new version
      // of the row. When the new version fits on the row's own page and no indexed column
      // changed (a move that does not finish the game), the update is "HOT": none of the
      // table's three indexes gets a new entry, and the old version is cleared from the page
      // by whoever reads it next. Packed full (the default), a page had no room, and a third
      // of the move loop's updates wrote all three indexes. Filled to half, nine in ten
      // updates are HOT and PostgreSQL's CPU a move falls by 5-10% (BENCHMARKS.md,
      // "2026-11-27"). A game's row grows as it is played, into the room left, so the table
      // was no larger after a benchmark run. Only pages written from now on are filled so;
      // SQLite updates a row in place and has no such setting.
      "ALTER TABLE games SET (fillfactor = 50)"
    ]
  )
}
