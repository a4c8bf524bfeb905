import SQLKit

extension Migration {
  /// 11: PostgreSQL: a batch of new games and moves written by a function planned once.
  static let v11 = Migration(
    version: 11,
    name: "PostgreSQL: a batch of new games and moves written by a function planned once",
    statements: [],
    postgres: [
      // Writes a batch of new games and moves (``WriteBatch``), answering the ids written:
      // the new games stored (`is_new`), the games moved. Sent as a statement of its own, the
      // batch was parsed and planned at every call, a fifth of PostgreSQL's CPU a move; a
      // function's statements are parsed once a connection and, with `force_generic_plan`,
      // planned once. That one plan must suit every size `games` will have, and one made
      // while the table held two games walked every row once it held thousands (the plan
      // test "reads only its own games"). Two things leave the update no way but finding
      // each game by its id: no sequential scans, and the condition on an unfinished game
      // written as `num_nulls` rather than `IS NULL`, which the partial index
      // `games_unfinished` cannot serve (else the plan walks all of it). Each of the two,
      // taken out, fails that test. `guesswork_unfinished_games`, called from here, plans as
      // it did before (the settings of a function reach the functions it calls).
      """
      CREATE OR REPLACE FUNCTION guesswork_write_batch(
        g_id TEXT[], g_player TEXT[], g_kind TEXT[], g_has_variant BOOL[], g_variant TEXT[],
        g_settings TEXT[], g_seed INT8[], g_state TEXT[], g_version INT8[], g_created_at INT8[],
        g_updated_at INT8[], g_finished BOOL[], g_finished_at INT8[], g_score INT8[],
        g_summary TEXT[], g_daily BOOL[], g_daily_day INT8[], g_daily_counted INT8[],
        g_limit INT8[], g_since INT8[], g_earlier INT8[],
        m_id TEXT[], m_expected INT8[], m_state TEXT[], m_version INT8[], m_at INT8[],
        m_finished BOOL[], m_finished_at INT8[], m_score INT8[], m_summary TEXT[], m_acted BOOL[],
        m_action TEXT[])
      RETURNS TABLE (is_new BOOL, written TEXT) LANGUAGE plpgsql VOLATILE
      SET plan_cache_mode = force_generic_plan SET enable_seqscan = off
      AS $$
      BEGIN
        IF cardinality(g_id) > 0 THEN
          RETURN QUERY
          WITH limits AS MATERIALIZED (
            SELECT l.player, l.since, guesswork_unfinished_games(l.player, l.since) AS unfinished
            FROM (SELECT DISTINCT u.player, u.since FROM unnest(g_player, g_since, g_limit)
              AS u(player, since, limit_count) WHERE u.limit_count >= 0 ORDER BY 1, 2) AS l
          ), started AS (
            INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
              created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
            SELECT n.id, n.player, n.kind, CASE WHEN n.has_variant THEN n.variant END, n.settings,
              n.seed, n.state, n.version, n.created_at, n.updated_at,
              CASE WHEN n.finished THEN n.finished_at END, CASE WHEN n.finished THEN n.score END,
              CASE WHEN n.finished THEN n.summary END, CASE WHEN n.daily THEN n.daily_day END,
              CASE WHEN n.daily THEN n.daily_counted END
            FROM unnest(g_id, g_player, g_kind, g_has_variant, g_variant, g_settings, g_seed,
              g_state, g_version, g_created_at, g_updated_at, g_finished, g_finished_at, g_score,
              g_summary, g_daily, g_daily_day, g_daily_counted, g_limit, g_since, g_earlier)
              AS n(id, player, kind, has_variant, variant, settings, seed, state, version,
                created_at, updated_at, finished, finished_at, score, summary, daily, daily_day,
                daily_counted, limit_count, since, earlier)
            LEFT JOIN limits l ON l.player = n.player AND l.since = n.since
            WHERE n.limit_count < 0 OR l.unfinished + n.earlier < n.limit_count
            RETURNING games.id
          )
          SELECT true, s.id FROM started s;
        END IF;
        IF cardinality(m_id) > 0 THEN
          RETURN QUERY
          WITH moved AS (
            UPDATE games g SET state = i.state, version = i.version, updated_at = i.at,
              finished_at = CASE WHEN i.finished THEN i.finished_at END,
              score = CASE WHEN i.finished THEN i.score END,
              summary = CASE WHEN i.finished THEN i.summary END
            FROM unnest(m_id, m_expected, m_state, m_version, m_at, m_finished, m_finished_at,
              m_score, m_summary, m_acted, m_action)
              AS i(id, expected, state, version, at, finished, finished_at, score, summary,
                acted, action)
            WHERE g.id = i.id AND g.version = i.expected
              AND num_nulls(g.finished_at) = 1
            RETURNING g.id, i.version, i.at, i.acted, i.action
          ), acted AS (
            INSERT INTO actions (game_id, version, action, at)
            SELECT m.id, m.version, m.action, m.at FROM moved m WHERE m.acted
          )
          SELECT false, m.id FROM moved m;
        END IF;
      END
      $$
      """,
      "ALTER FUNCTION guesswork_unfinished_games(TEXT, BIGINT) SET plan_cache_mode = auto",
    ]
  )
}
