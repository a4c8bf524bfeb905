-- Finishing today's daily Number: scripts/bench/daily.py has started today's counted Number
-- for many new players and learnt the day's secret; it writes, for each connection i (one per
-- wrk thread), a file PAIRS.i of "cookie|game-id" lines. Each request takes the connection's
-- next unused game and guesses the secret, which wins on the first attempt, finishes the game
-- and records the result in the day's, week's and all-time leaderboards and the streaks.
-- Requests are formatted once, at start. A connection that runs out of games asks for
-- /bench/out-of-games, which answers 404: counted by wrk as an error and by done() apart.
-- done() writes "won=N exhausted=N notwon=N" to RESULT; unexpected statuses go to stdout as
-- "UNEXPECTED ...", as moves.lua does.
--
--   wrk -t N -c N -s daily_finish.lua URL -- PAIRS SECRET RESULT
local threads = {}
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
  table.insert(threads, thread)
end

function init(args)
  local pairs_file, secret = args[1], args[2]
  result = args[3]
  if not (pairs_file and secret and result) then
    error("daily_finish.lua needs PAIRS SECRET RESULT")
  end
  local body = '{"version":0,"action":{"type":"guess","number":' .. secret .. '}}'
  requests = {}
  for line in io.lines(pairs_file .. "." .. index) do
    local cookie, game = string.match(line, "^([^|]+)|(.+)$")
    table.insert(requests, wrk.format("POST", "/api/games/" .. game .. "/actions",
      { ["Content-Type"] = "application/json", Cookie = cookie }, body))
  end
  out = wrk.format("GET", "/bench/out-of-games")
  sent, won, exhausted, notwon = 0, 0, 0, 0
end

function request()
  sent = sent + 1
  if sent > #requests then
    exhausted = exhausted + 1
    return out
  end
  return requests[sent]
end

-- The statuses of unexpected answers, as text (at most a few hundred characters).
local function note(seen, status)
  seen = seen or ""
  if #seen < 200 then seen = seen .. status .. " " end
  return seen
end

function response(status, headers, body)
  if status == 200 then
    if string.find(body, '"phase":"won"', 1, true) then
      won = won + 1
    else
      notwon = notwon + 1
    end
  elseif status ~= 404 or exhausted == 0 then
    unexpected = note(unexpected, status)
  end
end

function done(summary, latency, requests)
  local won, exhausted, notwon, statuses = 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    won = won + thread:get("won")
    exhausted = exhausted + thread:get("exhausted")
    notwon = notwon + thread:get("notwon")
    statuses = statuses .. (thread:get("unexpected") or "")
  end
  local file = assert(io.open(threads[1]:get("result"), "w"))
  file:write(string.format("won=%d exhausted=%d notwon=%d\n", won, exhausted, notwon))
  file:close()
  if #statuses > 0 then io.write("UNEXPECTED " .. statuses .. "\n") end
end
