# The opening the loopback MCP benches share (tool_latency.py, overview_latency.py):
# one HTTP connection to `hamcp --http`, an initialized session, timed tools/call.
import http.client, json, time


class Session:
    HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def __init__(self, port, client_name):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.sid = None
        r, _ = self.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": client_name, "version": "1"}}})
        self.sid = r.getheader("Mcp-Session-Id")
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, body):
        h = dict(self.HEADERS)
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
        self.conn.request("POST", "/mcp", json.dumps(body), h)
        r = self.conn.getresponse()
        return r, r.read()

    # (milliseconds, response body) of one tools/call, round trip incl. this client.
    def call(self, name, args):
        t = time.perf_counter()
        _, d = self.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": {"name": name, "arguments": args}})
        return (time.perf_counter() - t) * 1000, d
