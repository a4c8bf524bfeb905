-- Starting: every connection (one per wrk thread) is a player who starts Number games and
-- never plays them, then a new player, and so on. The argument (`-- N`) is how many games each
-- player starts: 0 makes it a loop of new players alone. A player may have 100 unfinished
-- games, and each start counts them, so keep N small. Counts the new games (or players) made.
-- Run with as many threads as connections (wrk -t N -c N).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  per_player = tonumber(args[1] or "5")
  cookie = nil
  started = 0
  made = 0
  errors = 0
  pending = nil
end

local function post(path, body)
  local headers = { ["Content-Type"] = "application/json" }
  if cookie then headers["Cookie"] = cookie end
  return wrk.format("POST", path, headers, body)
end

function request()
  if not cookie or started >= per_player then
    pending = "player"
    cookie = nil
    started = 0
    return post("/api/players", '{"name":"Bench"}')
  end
  pending = "game"
  return post("/api/games", '{"game":"number","settings":{"low":0,"high":9999,"attempts":20}}')
end

function response(status, headers, body)
  if pending == "player" then
    local set = headers["Set-Cookie"] or headers["set-cookie"]
    if status == 201 and set then
      cookie = string.match(set, "^([^;]+)")
      if per_player == 0 then made = made + 1 end
    else
      errors = errors + 1
    end
  elseif status == 201 then
    started = started + 1
    made = made + 1
  else
    errors = errors + 1
  end
end

function done(summary, latency, requests)
  local made, errors = 0, 0
  for _, thread in ipairs(threads) do
    made = made + thread:get("made")
    errors = errors + thread:get("errors")
  end
  io.write(string.format("COUNTED made=%d errors=%d per_s=%.1f\n",
    made, errors, made / (summary.duration / 1e6)))
end
