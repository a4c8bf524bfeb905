-- One page read as many filled players: connection i (one per wrk thread) sends, in turn, the
-- request of players first+i, first+i+connections, ... with each player's cookie. The players
-- are the ones scripts/bench/daily.py filled the database with, whose tokens are
-- "benchplayer" and the player's number in 32 digits. Each request is formatted once, at start,
-- so wrk's Lua costs one call per request and none per answer; wrk counts answers other than 2xx.
--
--   wrk -t N -c N -s daily_players.lua URL -- PATH FIRST COUNT N
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
end

function init(args)
  local path, first, players, connections =
    args[1], tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  if not (path and first and players and connections) then
    error("daily_players.lua needs PATH FIRST COUNT CONNECTIONS")
  end
  requests = {}
  for player = first + index, first + players - 1, connections do
    local cookie = string.format("guesswork_player=benchplayer%032d", player)
    table.insert(requests, wrk.format("GET", path, { Cookie = cookie }))
  end
  if #requests == 0 then error("daily_players.lua: fewer players than connections") end
  turn = 0
end

function request()
  turn = turn % #requests + 1
  return requests[turn]
end
