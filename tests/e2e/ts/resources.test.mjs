// The home as MCP resources (src/resources/) through the official TypeScript SDK against
// `hamcp --demo` over stdio: read an entity, complete its id, subscribe, change it (a service
// call through hamcp, into the simulated home) and receive notifications/resources/updated.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { HAMCP_BIN, connectStdio, sleep } from './helpers.mjs';

const ENTITY = 'light.kitchen_ceiling_light';
const URI = `ha://entity/${ENTITY}`;

test('resources over stdio: read, complete, subscribe, updated', { skip: !HAMCP_BIN }, async () => {
  const { client } = await connectStdio(HAMCP_BIN, ['--demo']);
  try {
    const updated = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { updated.push(n.params.uri); });
    const read = async (uri) => JSON.parse((await client.readResource({ uri })).contents[0].text);
    const before = await read(URI);
    assert.equal(before.entity_id, ENTITY);
    assert.equal(before.area_id, 'kitchen');
    const done = await client.complete({ ref: { type: 'ref/resource', uri: 'ha://entity/{entity_id}' },
                                         argument: { name: 'entity_id', value: 'light.kitch' } });
    assert.ok(done.completion.values.includes(ENTITY), JSON.stringify(done));
    await assert.rejects(client.readResource({ uri: 'ha://entity/light.nowhere' }), /light\.nowhere/);
    await client.subscribeResource({ uri: URI });
    const r = await client.callTool({ name: 'ha_call_service',
                                      arguments: { domain: 'light', service: 'toggle', entity_id: ENTITY } });
    assert.ok(!r.isError, r.content?.[0]?.text);
    for (let i = 0; i < 500 && !updated.includes(URI); i += 1) await sleep(20);
    assert.ok(updated.includes(URI), `no update for ${URI}: ${JSON.stringify(updated)}`);
    assert.notEqual((await read(URI)).state, before.state);
  } finally {
    await client.close();
  }
});
