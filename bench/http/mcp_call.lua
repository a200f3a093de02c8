-- wrk script: one MCP tools/call per request on a session opened beforehand.
-- Env: MCP_SESSION (the Mcp-Session-Id), MCP_BODY_TOOL, MCP_BODY_ARGS (JSON).
-- Each thread numbers its requests "<thread>-<n>": ids must differ while in
-- flight on one session.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  wrk.method = "POST"
  wrk.path = "/mcp"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION")
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  prefix = '{"jsonrpc":"2.0","id":"' .. tid .. '-'
  suffix = '","method":"tools/call","params":{"name":"' .. os.getenv("MCP_BODY_TOOL") ..
           '","arguments":' .. os.getenv("MCP_BODY_ARGS") .. '}}'
end

function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, prefix .. counter .. suffix)
end

-- MCP_VERIFY=1: count answers that are not a successful tool result (a
-- JSON-RPC error or isError); printed at the end. Costs time: verification
-- runs are not the measured ones.
if os.getenv("MCP_VERIFY") == "1" then
  bad = 0
  function response(status, headers, body)
    if status ~= 200 or not body:find('"result"', 1, true) or body:find('"isError":true', 1, true) then
      bad = bad + 1
    end
  end
  function done(summary, latency, requests)
    local total = 0
    for _, t in ipairs(threads) do total = total + t:get("bad") end
    io.write(string.format("verify: %d answers, %d not a successful result\n", summary.requests, total))
  end
end
