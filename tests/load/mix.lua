-- tests/load/mix.lua -- the request mix of the load test (wrk; see tests/load/run.sh).
--
-- Environment: LOAD_GAMES a file with one game a line, "ID MOVE MOVE ..." (a legal sequence of
-- moves from the game's current position); LOAD_THREADS the number of wrk threads. Every thread
-- has one connection (wrk -t N -c N), so its responses come in the order of its requests and
-- each can be checked against what its request expects. Thread t plays the games of lines
-- t, t+N, ...: nobody else moves in them, so a legal move of the sequence is legal when sent.
--
-- The mix: 40% legal moves (and, at the end of a sequence, an undo back to its start), 15%
-- illegal moves, 15% garbage bodies, 15% game reads, 5% the game list, 4% an unknown game,
-- 4% the variants, 2% hints (200, or 503 when the engine is busy).
-- A response whose status is not the expected one counts as unexpected; done() prints
-- "load: ..." lines that run.sh reads.

local threads = {}
local nthreads = 0

function setup(thread)
    nthreads = nthreads + 1
    thread:set("tid", nthreads)
    table.insert(threads, thread)
end

local games = {}
local expect = {} -- FIFO of expected statuses ("200", "400", "200|503", ...)
local head, tail = 1, 0
responses, unexpected, fivexx, samples = 0, 0, 0, ""

local illegal = { "99-98", "1-1", "x", "0-0", "77x66", "50-50", "-", "1x1x1", "" }
local garbage = {
    "{", "[]", "null", "{\"move\":32}", "{\"move\":null}", "{\"mov\":\"32-28\"}", "\"32-28\"",
    "{\"move\":[\"32-28\"]}", "{\"move\":\"32-28\"", "\255\254\253", "{\"move\":\"\\u0000\"}",
    "{}", "{\"move\":{\"a\":1}}", string.rep("[", 5000), "{\"move\":\"" .. string.rep("1", 3000) .. "\"}",
}

function init(args)
    local n = tonumber(os.getenv("LOAD_THREADS") or "1")
    local i = 0
    for line in io.lines(os.getenv("LOAD_GAMES")) do
        if (i % n) + 1 == tid then
            local g = { moves = {}, k = 0 }
            for w in line:gmatch("%S+") do
                if not g.id then g.id = w else table.insert(g.moves, w) end
            end
            table.insert(games, g)
        end
        i = i + 1
    end
    math.randomseed(tid * 7919 + os.time())
end

local json = { ["Content-Type"] = "application/json" }

local function push(e)
    tail = tail + 1
    expect[tail] = e
end

local calls = 0

function request()
    calls = calls + 1
    -- wrk calls request() once more in its first thread before the run, to check the script
    -- (script_verify_request); that request is never sent: answer it without expecting anything
    -- or moving a game forward
    if tid == 1 and calls == 1 then
        return wrk.format("GET", "/api/variants")
    end
    local g = games[math.random(#games)]
    local base = "/api/games/" .. g.id
    local r = math.random(100)
    if r <= 40 then
        if g.k >= #g.moves then
            push("200")
            local body = string.format("{\"plies\":%d}", g.k)
            g.k = 0
            return wrk.format("POST", base .. "/undo", json, body)
        end
        g.k = g.k + 1
        push("200")
        return wrk.format("POST", base .. "/move", json, "{\"move\":\"" .. g.moves[g.k] .. "\"}")
    elseif r <= 55 then
        push("400")
        return wrk.format("POST", base .. "/move", json,
            "{\"move\":\"" .. illegal[math.random(#illegal)] .. "\"}")
    elseif r <= 70 then
        push("400")
        return wrk.format("POST", base .. "/move", json, garbage[math.random(#garbage)])
    elseif r <= 85 then
        push("200")
        return wrk.format("GET", base)
    elseif r <= 90 then
        push("200")
        return wrk.format("GET", "/api/games")
    elseif r <= 94 then
        push("404")
        return wrk.format("GET", "/api/games/00000000")
    elseif r <= 98 then
        push("200")
        return wrk.format("GET", "/api/variants")
    else
        push("200|503")
        return wrk.format("POST", base .. "/hint", json, "{\"depth\":2}")
    end
end

function response(status, headers, body)
    responses = responses + 1
    local e = expect[head]
    expect[head] = nil
    head = head + 1
    if status >= 500 and status ~= 503 then fivexx = fivexx + 1 end
    local s = tostring(status)
    if not e or not (e == s or e:find(s, 1, true)) then
        unexpected = unexpected + 1
        if #samples < 600 then
            samples = samples .. string.format("  got %s, expected %s: %s\n", s, tostring(e),
                (body or ""):sub(1, 120))
        end
    end
end

function done(summary, latency, requests)
    local n, bad, f, text = 0, 0, 0, ""
    for _, t in ipairs(threads) do
        n = n + t:get("responses")
        bad = bad + t:get("unexpected")
        f = f + t:get("fivexx")
        text = text .. t:get("samples")
    end
    local secs = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format("load: requests %d in %.1f s, %.0f requests/s\n", summary.requests,
        secs, summary.requests / secs))
    io.write(string.format("load: checked %d, unexpected %d (%.3f%%), 5xx %d\n", n, bad,
        n > 0 and 100 * bad / n or 0, f))
    io.write(string.format("load: socket errors connect %d read %d write %d timeout %d\n",
        e.connect, e.read, e.write, e.timeout))
    io.write(string.format("load: latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
        latency:percentile(50) / 1000, latency:percentile(90) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000))
    if #text > 0 then io.write("load: unexpected responses (first of each thread):\n" .. text) end
end
