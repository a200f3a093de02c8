// The TypeScript SDK 2.x (@modelcontextprotocol/client) against hamcp's protocol core (the
// conformance fixture server): versionNegotiation 'auto' (probes server/discover) and pinned to
// 2026-07-28, over stdio and Streamable HTTP: list, call, a resource read, a prompt, and a
// subscriptions/listen stream that receives a change. 'legacy' (the SDK's default) still works.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURE_BIN, startHttpServer, stopProcess } from './helpers.mjs';

const server = await startHttpServer(FIXTURE_BIN, ['--host', '127.0.0.1', '--port', '0']);
after(() => stopProcess(server.child));

function transport(kind) {
  return kind === 'http'
    ? new StreamableHTTPClientTransport(new URL(server.url))
    : new StdioClientTransport({ command: FIXTURE_BIN, args: ['--stdio'] });
}

async function connect(kind, mode) {
  const client = new Client({ name: 'hamcp-e2e-modern', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport(kind));
  return client;
}

for (const kind of ['http', 'stdio']) {
  for (const mode of ['auto', { pin: '2026-07-28' }]) {
    const label = typeof mode === 'string' ? mode : `pinned ${mode.pin}`;
    test(`TS SDK 2.x ${label} over ${kind}: list, call, read, prompt`, async () => {
      const client = await connect(kind, mode);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        assert.equal(client.getDiscoverResult().supportedVersions[0], '2026-07-28');
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'test_simple_text'));
        const called = await client.callTool({ name: 'test_simple_text', arguments: {} });
        assert.equal(called.content[0].text, 'This is a simple text response for testing.');
        const read = await client.readResource({ uri: 'test://static-text' });
        assert.ok(read.contents[0].text);
        const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
        assert.ok(prompt.messages.length > 0);
      } finally {
        await client.close();
      }
    });

    test(`TS SDK 2.x ${label} over ${kind}: subscriptions/listen hears a tools list change`, async () => {
      const client = await connect(kind, mode);
      try {
        const heard = new Promise((resolve) => {
          client.setNotificationHandler('notifications/tools/list_changed', () => resolve(true));
        });
        const sub = await client.listen({ toolsListChanged: true });
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        const got = await Promise.race([heard, new Promise((r) => setTimeout(() => r(false), 10000))]);
        assert.equal(got, true);
        await sub.close?.();
      } finally {
        await client.close();
      }
    });
  }
}

test('TS SDK 2.x legacy (its default) still negotiates 2025-11-25', async () => {
  const client = new Client({ name: 'hamcp-e2e-legacy', version: '1.0.0' });
  await client.connect(transport('http'));
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const called = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.equal(called.content[0].text, 'This is a simple text response for testing.');
  } finally {
    await client.close();
  }
});
