// The official TypeScript client SDK against hamcp's protocol core, over stdio and over
// Streamable HTTP: initialize, paginated tools/list, tools/call, cancellation, progress, logging.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  EXPECTED_TOOL_COUNT, FIXTURE_ARGS, FIXTURE_BIN, PAGE_SIZE, connectHttp, connectStdio, listAllTools,
  sleep, startHttpServer, stopProcess,
} from './helpers.mjs';

function protocolSuite(transportName, connect) {
  describe(`fixture server over ${transportName}`, () => {
    let session;
    const logs = [];

    before(async () => {
      session = await connect();
      session.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
    });
    after(async () => {
      await session?.client.close();
    });

    test('initialize negotiates 2025-11-25 and declares what the server offers', () => {
      const caps = session.client.getServerCapabilities();
      assert.ok(caps.tools, 'tools capability');
      assert.ok(caps.resources, 'resources capability');
      assert.ok(caps.prompts, 'prompts capability');
      assert.ok(caps.logging, 'logging capability');
      const info = session.client.getServerVersion();
      assert.ok(info?.name, 'serverInfo.name');
      assert.equal(session.transport.protocolVersion ?? '2025-11-25', '2025-11-25');
    });

    test('tools/list is paginated and complete', async () => {
      const first = await session.client.listTools();
      assert.equal(first.tools.length, PAGE_SIZE, 'first page holds page_size tools');
      assert.ok(first.nextCursor, 'first page has a nextCursor');
      const { tools, pages } = await listAllTools(session.client);
      assert.ok(pages > 1, `expected several pages, got ${pages}`);
      assert.equal(tools.length, EXPECTED_TOOL_COUNT);
      const names = new Set(tools.map((t) => t.name));
      assert.equal(names.size, tools.length, 'no tool listed twice across pages');
      for (const t of tools) {
        assert.ok(t.description, `${t.name} has a description`);
        assert.equal(t.inputSchema?.type, 'object', `${t.name} has an object inputSchema`);
      }
    });

    test('a bad cursor is an invalid-params error, not a crash', async () => {
      await assert.rejects(session.client.listTools({ cursor: 'not-a-cursor' }), (e) => e.code === -32602);
      await session.client.ping();
    });

    test('tools/call returns content', async () => {
      const r = await session.client.callTool({ name: 'test_simple_text', arguments: {} });
      assert.deepEqual(r.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
      const echo = await session.client.callTool({ name: 'slow_echo', arguments: { text: 'hi', ms: 10 } });
      assert.equal(echo.content[0].text, 'echo: hi');
    });

    test('invalid arguments come back as a readable isError result', async () => {
      const r = await session.client.callTool({ name: 'slow_echo', arguments: { ms: 'soon' } });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /text|ms/);
    });

    test('an unknown tool is a JSON-RPC error', async () => {
      await assert.rejects(session.client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => typeof e.code === 'number');
    });

    test('progress notifications arrive, increasing, before the result', async () => {
      const seen = [];
      const r = await session.client.callTool(
        { name: 'slow_echo', arguments: { text: 'p', ms: 300, steps: 3 } }, undefined,
        { onprogress: (p) => seen.push(p) });
      assert.equal(r.content[0].text, 'echo: p');
      assert.equal(seen.length, 3, JSON.stringify(seen));
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
      assert.equal(seen[2].total, 3);
    });

    test('cancelling a call stops it and the session keeps serving', async () => {
      const controller = new AbortController();
      const started = Date.now();
      const call = session.client.callTool(
        { name: 'slow_echo', arguments: { text: 'never', ms: 20000, steps: 40 } }, undefined,
        { signal: controller.signal });
      await sleep(300);
      controller.abort('test cancels');
      await assert.rejects(call);
      assert.ok(Date.now() - started < 5000);
      // The server must not be stuck: other calls work at once.
      const r = await session.client.callTool({ name: 'slow_echo', arguments: { text: 'after', ms: 10 } });
      assert.equal(r.content[0].text, 'echo: after');
    });

    test('logging honours logging/setLevel', async () => {
      await session.client.setLoggingLevel('debug');
      logs.length = 0;
      await session.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await sleep(100);
      assert.ok(logs.length >= 3, `expected >= 3 log notifications, got ${logs.length}`);
      assert.deepEqual(logs.slice(0, 3).map((l) => l.data),
        ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
      assert.ok(logs.every((l) => l.level === 'info'));

      await session.client.setLoggingLevel('error');
      logs.length = 0;
      const r = await session.client.callTool({ name: 'log_burst', arguments: { count: 5 } });
      assert.equal(r.content[0].text, 'logged 5');
      await sleep(100);
      assert.equal(logs.length, 0, 'info messages are filtered at level error');
      await assert.rejects(session.client.setLoggingLevel('loud'), (e) => e.code === -32602);
    });

    test('20 concurrent calls all complete', async () => {
      const calls = Array.from({ length: 20 }, (_, i) =>
        session.client.callTool({ name: 'slow_echo', arguments: { text: `c${i}`, ms: 100 } }));
      const results = await Promise.all(calls);
      results.forEach((r, i) => assert.equal(r.content[0].text, `echo: c${i}`));
    });
  });
}

protocolSuite('stdio', () => connectStdio(FIXTURE_BIN, ['--stdio', ...FIXTURE_ARGS], 'e2e-stdio'));

let server;
protocolSuite('Streamable HTTP', async () => {
  server = await startHttpServer(FIXTURE_BIN, ['--host', '127.0.0.1', '--port', '0', ...FIXTURE_ARGS]);
  return connectHttp(server.url, { clientName: 'e2e-http' });
});
after(async () => {
  if (server) await stopProcess(server.child);
});
