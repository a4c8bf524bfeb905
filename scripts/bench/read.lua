-- Reading a live game: every connection (one per wrk thread) reads its own player's Number
-- game over and over. The players and their games are made beforehand by scripts/bench/run.py,
-- which passes one "cookie|game-id" argument per connection. Each connection's request is then
-- fixed, so wrk formats it once and sends it with no Lua call per request or per answer, as
-- for the ceiling: the load client costs the same in both, and only the server differs.
-- wrk itself counts answers other than 2xx.
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
end

function init(args)
  local cookie, game = string.match(args[index + 1] or "", "^([^|]+)|(.+)$")
  if not game then error("read.lua needs one cookie|game-id argument per connection") end
  wrk.path = "/api/games/" .. game
  wrk.headers["Cookie"] = cookie
end
