-- One batch of 16 moves through guesswork_write_batch (migration 11), for pgbench, on a
-- database a move-loop run has filled (scripts/bench/run.py --database-url URL --moves-only):
--   psql URL -c "CREATE TABLE bench_ids AS SELECT id FROM games WHERE finished_at IS NULL LIMIT 16"
--   psql URL -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"   # with track = all
--   pgbench -n -f scripts/bench/write_batch.sql -t 500 -c 1 URL
-- Each call moves the 16 games on by one version, with a 700-byte state and an action each;
-- pg_stat_statements then has the moves' statement inside the function on a line of its own.
SELECT * FROM guesswork_write_batch('{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
  '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
  (SELECT array_agg(id ORDER BY id) FROM bench_ids),
  (SELECT array_agg(g.version ORDER BY g.id) FROM games g JOIN bench_ids USING (id)),
  array_fill(repeat('s', 700), ARRAY[16]),
  (SELECT array_agg(g.version + 1 ORDER BY g.id) FROM games g JOIN bench_ids USING (id)),
  array_fill(9::int8, ARRAY[16]), array_fill(false, ARRAY[16]), array_fill(0::int8, ARRAY[16]),
  array_fill(0::int8, ARRAY[16]), array_fill(''::text, ARRAY[16]), array_fill(true, ARRAY[16]),
  array_fill('{"a":1}'::text, ARRAY[16]));
