-- A player's statistics read for the first time: connection i (one per wrk thread) asks
-- GET /api/me/stats as players first+i, first+i+connections, ... each once, so every answer
-- folds that player's finished games into the stored tally. Once a connection has used up its
-- share of the range it starts again from the beginning (those reads are no longer first
-- reads): it counts them, and done() writes "rereads=N" to RESULT for scripts/bench/daily.py.
--
--   wrk -t N -c N -s daily_stats_first.lua URL -- FIRST COUNT N RESULT
local threads = {}
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
  table.insert(threads, thread)
end

function init(args)
  first, players, connections, result =
    tonumber(args[1]), tonumber(args[2]), tonumber(args[3]), args[4]
  if not (first and players and connections and result) then
    error("daily_stats_first.lua needs FIRST COUNT CONNECTIONS RESULT")
  end
  player = first + index
  rereads = 0
  wrapped = false
end

function request()
  if player >= first + players then
    player = first + index
    wrapped = true
  end
  if wrapped then rereads = rereads + 1 end
  local cookie = string.format("guesswork_player=benchplayer%032d", player)
  player = player + connections
  return wrk.format("GET", "/api/me/stats", { Cookie = cookie })
end

function done(summary, latency, requests)
  local rereads = 0
  for _, thread in ipairs(threads) do rereads = rereads + thread:get("rereads") end
  local file = assert(io.open(threads[1]:get("result"), "w"))
  file:write(string.format("rereads=%d\n", rereads))
  file:close()
end
