-- Reading a live game: every connection (one per thread) creates a player and a Number game
-- with its first requests, then reads that game over and over.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  cookie, game, pending, reads, errors = nil, nil, nil, 0, 0
end

function request()
  local headers = { ["Content-Type"] = "application/json" }
  if cookie then headers["Cookie"] = cookie end
  if not cookie then
    pending = "player"
    return wrk.format("POST", "/api/players", headers, '{"name":"Reader"}')
  end
  if not game then
    pending = "game"
    return wrk.format("POST", "/api/games", headers, '{"game":"number"}')
  end
  pending = "read"
  return wrk.format("GET", "/api/games/" .. game, headers)
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
    if set then cookie = string.match(set, "^([^;]+)") end
  elseif pending == "game" then
    game = string.match(body, '"id":"([^"]+)"')
  elseif status == 200 then
    reads = reads + 1
  else
    errors = errors + 1
    unexpected = note(unexpected, status)
  end
end

function done(summary, latency, requests)
  local reads, errors = 0, 0
  for _, thread in ipairs(threads) do
    reads = reads + thread:get("reads")
    errors = errors + thread:get("errors")
    statuses = (statuses or "") .. (thread:get("unexpected") or "")
  end
  io.write(string.format("READS reads=%d errors=%d reads_per_s=%.1f\n", reads, errors,
    reads / (summary.duration / 1e6)))
  if statuses and #statuses > 0 then io.write("UNEXPECTED " .. statuses .. "\n") end
end
