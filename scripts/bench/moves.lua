-- The move loop: every connection (one per wrk thread) is a player who creates Number
-- games and plays each to the end by halving, then starts the next. Counts accepted actions.
-- Run with as many threads as connections (wrk -t N -c N), so that each thread's state
-- belongs to exactly one connection.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  cookie = nil
  game = nil
  version = 0
  low, high = 0, 0
  actions = 0
  games = 0
  errors = 0
  pending = nil
end

local function post(path, body)
  local headers = { ["Content-Type"] = "application/json" }
  if cookie then headers["Cookie"] = cookie end
  return wrk.format("POST", path, headers, body)
end

function request()
  if not cookie then
    pending = "player"
    return post("/api/players", '{"name":"Bench"}')
  end
  if not game then
    pending = "game"
    return post("/api/games", '{"game":"number","settings":{"low":0,"high":9999,"attempts":20}}')
  end
  pending = "action"
  local guess = math.floor((low + high) / 2)
  return post("/api/games/" .. game .. "/actions",
    '{"action":{"type":"guess","number":' .. guess .. '},"version":' .. version .. '}')
end

local function number(body, key)
  return tonumber(string.match(body, '"' .. key .. '":(%-?%d+)'))
end

-- The statuses of unexpected answers, as text (at most a few hundred characters).
function note(seen, status)
  seen = seen or ""
  if #seen < 200 then seen = seen .. status .. " " end
  return seen
end

function response(status, headers, body)
  if pending == "player" then
    local set = headers["Set-Cookie"] or headers["set-cookie"]
    if status == 201 and set then
      cookie = string.match(set, "^([^;]+)")
    else
      errors = errors + 1
      unexpected = note(unexpected, status)
    end
  elseif status == 200 or status == 201 then
    if pending == "game" then
      game = string.match(body, '"id":"([^"]+)"')
      games = games + 1
    else
      actions = actions + 1
    end
    version = number(body, "version")
    low, high = number(body, "knownLow"), number(body, "knownHigh")
    if string.find(body, '"isOver":true', 1, true) then game = nil end
  else
    errors = errors + 1
    unexpected = note(unexpected, status)
    game = nil
  end
end

function done(summary, latency, requests)
  local actions, games, errors = 0, 0, 0
  for _, thread in ipairs(threads) do
    actions = actions + thread:get("actions")
    games = games + thread:get("games")
    errors = errors + thread:get("errors")
    statuses = (statuses or "") .. (thread:get("unexpected") or "")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("MOVES actions=%d games=%d errors=%d actions_per_s=%.1f\n",
    actions, games, errors, actions / seconds))
  if statuses and #statuses > 0 then io.write("UNEXPECTED " .. statuses .. "\n") end
end
