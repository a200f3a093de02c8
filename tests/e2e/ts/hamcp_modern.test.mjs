// The TypeScript SDK 2.x (@modelcontextprotocol/client) against hamcp itself on its simulated home
// (`hamcp --demo`): versionNegotiation 'auto' (probes server/discover) and pinned to 2026-07-28, over
// stdio and Streamable HTTP: tools/list and a call, resources/read of an entity and of ha://home,
// completion of the ha://entity/{entity_id} template and of prompt arguments, prompts/get, and a
// subscriptions/listen stream that hears notifications/resources/updated when the home changes (a
// light toggled through hamcp's own ha_call_service). Also: a second client's toggle reaches the
// first client's listen stream (HTTP), and the SDK's 'legacy' mode (2025-11-25) with resources/subscribe.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { HAMCP_BIN, startHttpServer, stopProcess, sleep, tempDir } from './helpers.mjs';

const ENTITY = 'light.kitchen_ceiling_light';
const URI = `ha://entity/${ENTITY}`;
const WAIT_MS = 10000;

const httpData = HAMCP_BIN ? tempDir('hamcp-e2e-modern-') : null;
const server = HAMCP_BIN
  ? await startHttpServer(HAMCP_BIN, ['--http', '--demo', '--host', '127.0.0.1', '--port', '0', '--data-dir', httpData.dir])
  : null;
after(async () => {
  if (server) await stopProcess(server.child);
  httpData?.remove();
});

function transport(kind, dataDir) {
  return kind === 'http'
    ? new StreamableHTTPClientTransport(new URL(server.url))
    : new StdioClientTransport({ command: HAMCP_BIN, args: ['--demo', '--data-dir', dataDir], stderr: 'ignore' });
}

// A client on `kind` in `mode`; stdio clients get their own hamcp with its own data dir.
async function connect(kind, mode) {
  const data = kind === 'stdio' ? tempDir('hamcp-e2e-modern-stdio-') : null;
  const client = new Client({ name: 'hamcp-e2e-modern', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport(kind, data?.dir));
  return {
    client,
    close: async () => {
      await client.close();
      data?.remove();
    },
  };
}

const text = (result) => result.content?.[0]?.text ?? result.contents?.[0]?.text;
// Through the SDK's default response cache: hamcp's caching hint for an entity (ttlMs) must never
// let the client serve a stale state.
const readState = async (client) => JSON.parse(text(await client.readResource({ uri: URI }))).state;

async function toggle(client) {
  const r = await client.callTool({ name: 'ha_call_service',
                                    arguments: { domain: 'light', service: 'toggle', entity_id: ENTITY } });
  assert.ok(!r.isError, text(r));
  const answer = JSON.parse(text(r));
  assert.equal(answer.status, 'confirmed', text(r));
  return answer.entities[0].state;
}

for (const kind of ['http', 'stdio']) {
  for (const mode of ['auto', { pin: '2026-07-28' }]) {
    const label = typeof mode === 'string' ? mode : `pinned ${mode.pin}`;

    test(`hamcp, TS SDK 2.x ${label} over ${kind}: list, call, read, completion, prompt`, { skip: !HAMCP_BIN }, async () => {
      const { client, close } = await connect(kind, mode);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        const { tools } = await client.listTools();
        const names = new Set(tools.map((t) => t.name));
        assert.ok(names.has('ha_get_state') && names.has('ha_call_service'));

        const got = await client.callTool({ name: 'ha_get_state', arguments: { entity_id: ENTITY } });
        assert.ok(!got.isError, text(got));
        const state = JSON.parse(text(got));
        assert.equal(state.entity_id, ENTITY);
        assert.ok(['on', 'off'].includes(state.state), text(got));

        const entity = JSON.parse(text(await client.readResource({ uri: URI })));
        assert.equal(entity.entity_id, ENTITY);
        assert.equal(entity.state, state.state);
        const home = JSON.parse(text(await client.readResource({ uri: 'ha://home' })));
        assert.ok(home.location_name, JSON.stringify(home).slice(0, 200));

        const { resourceTemplates } = await client.listResourceTemplates();
        assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'ha://entity/{entity_id}'));
        const done = await client.complete({ ref: { type: 'ref/resource', uri: 'ha://entity/{entity_id}' },
                                             argument: { name: 'entity_id', value: 'light.kitchen' } });
        assert.ok(done.completion.values.includes(ENTITY), JSON.stringify(done.completion));
        assert.ok(done.completion.values.every((v) => v.startsWith('light.kitchen')), JSON.stringify(done.completion));

        const { prompts } = await client.listPrompts();
        const promptNames = new Set(prompts.map((p) => p.name));
        assert.ok(promptNames.has('troubleshoot_automation') && promptNames.has('tidy_areas_and_names'));
        const autos = await client.complete({ ref: { type: 'ref/prompt', name: 'troubleshoot_automation' },
                                              argument: { name: 'automation_id', value: 'automation.' } });
        assert.ok(autos.completion.values.length > 0);
        assert.ok(autos.completion.values.every((v) => v.startsWith('automation.')), JSON.stringify(autos.completion));
        const areas = await client.complete({ ref: { type: 'ref/prompt', name: 'tidy_areas_and_names' },
                                              argument: { name: 'area', value: 'kit' } });
        assert.ok(areas.completion.values.includes('kitchen'), JSON.stringify(areas.completion));
        const automation = autos.completion.values[0];
        const prompt = await client.getPrompt({ name: 'troubleshoot_automation', arguments: { automation_id: automation } });
        assert.ok(prompt.messages.length > 0);
        assert.ok(prompt.messages[0].content.text.includes(automation), prompt.messages[0].content.text.slice(0, 300));
      } finally {
        await close();
      }
    });

    test(`hamcp, TS SDK 2.x ${label} over ${kind}: subscriptions/listen hears a light toggled through hamcp`, { skip: !HAMCP_BIN }, async () => {
      const { client, close } = await connect(kind, mode);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        const updated = [];
        client.setNotificationHandler('notifications/resources/updated', (n) => { updated.push(n.params.uri); });
        // A tool call first: tools wait (bounded) for hamcp's first sync of the home; resources do
        // not fully yet (py2/test_hamcp_modern.py::test_resources_during_first_sync).
        const ready = await client.callTool({ name: 'ha_get_state', arguments: { entity_id: ENTITY } });
        assert.ok(!ready.isError, text(ready));
        const before = await readState(client);
        const sub = await client.listen({ resourceSubscriptions: [URI] });
        try {
          assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [URI]);
          await sleep(500); // the mirror's first resync (if any) may notify every subscribed uri first
          const seen = updated.length;
          const now = await toggle(client);
          assert.notEqual(now, before);
          for (let waited = 0; waited < WAIT_MS && !updated.slice(seen).includes(URI); waited += 20) await sleep(20);
          assert.ok(updated.slice(seen).includes(URI), `no notifications/resources/updated for ${URI} within ${WAIT_MS} ms: ${JSON.stringify(updated)}`);
          assert.equal(await readState(client), now);
        } finally {
          await sub.close();
        }
      } finally {
        await close();
      }
    });
  }
}

test('hamcp, TS SDK 2.x pinned 2026-07-28 over http: a second client\'s toggle reaches the first client\'s listen stream', { skip: !HAMCP_BIN }, async () => {
  const a = await connect('http', { pin: '2026-07-28' });
  const b = await connect('http', { pin: '2026-07-28' });
  try {
    const updated = [];
    a.client.setNotificationHandler('notifications/resources/updated', (n) => { updated.push(n.params.uri); });
    const before = await readState(a.client);
    const sub = await a.client.listen({ resourceSubscriptions: [URI] });
    try {
      await sleep(500);
      const seen = updated.length;
      const now = await toggle(b.client);
      assert.notEqual(now, before);
      for (let waited = 0; waited < WAIT_MS && !updated.slice(seen).includes(URI); waited += 20) await sleep(20);
      assert.ok(updated.slice(seen).includes(URI), `no notifications/resources/updated for ${URI} within ${WAIT_MS} ms`);
      assert.equal(await readState(a.client), now);
    } finally {
      await sub.close();
    }
  } finally {
    await b.close();
    await a.close();
  }
});

for (const kind of ['http', 'stdio']) {
  test(`hamcp, TS SDK 2.x legacy (2025-11-25) over ${kind}: resources/subscribe hears a light toggled through hamcp`, { skip: !HAMCP_BIN }, async () => {
    const { client, close } = await connect(kind, 'legacy');
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
      const updated = [];
      client.setNotificationHandler('notifications/resources/updated', (n) => { updated.push(n.params.uri); });
      const ready = await client.callTool({ name: 'ha_get_state', arguments: { entity_id: ENTITY } });
      assert.ok(!ready.isError, text(ready));
      const before = await readState(client);
      await client.subscribeResource({ uri: URI });
      await sleep(500);
      const seen = updated.length;
      const now = await toggle(client);
      assert.notEqual(now, before);
      for (let waited = 0; waited < WAIT_MS && !updated.slice(seen).includes(URI); waited += 20) await sleep(20);
      assert.ok(updated.slice(seen).includes(URI), `no notifications/resources/updated for ${URI} within ${WAIT_MS} ms`);
      assert.equal(await readState(client), now);
    } finally {
      await close();
    }
  });
}
