// Updates and HACS (issue 13 items 4 and 7) through the official TypeScript SDK against
// `hamcp --demo` over stdio: an update installed with confirm=true sends progress notifications
// the client receives before the result, which reports the new version; HACS's store answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

const GARAGE = 'update.garage_door_controller_firmware';

describe('updates over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo'], 'updates-e2e-stdio'); });
  after(async () => { await conn?.client.close(); });

  test('install reports progress, then the installed version', async () => {
    const list = await conn.client.callTool({ name: 'ha_manage_updates', arguments: { action: 'list' } });
    assert.ok(!list.isError, list.content?.[0]?.text);
    assert.ok(list.structuredContent.updates.devices.some((u) => u.entity_id === GARAGE));
    const seen = [];
    const r = await conn.client.callTool(
      { name: 'ha_manage_updates', arguments: { action: 'install', entity_ids: [GARAGE], confirm: true } },
      undefined, { onprogress: (p) => seen.push(p), timeout: 60000 });
    assert.ok(!r.isError, r.content?.[0]?.text);
    const done = r.structuredContent.results[0];
    assert.equal(done.installed, true, JSON.stringify(done));
    assert.equal(done.installed_version, '2025.12.0');
    assert.ok(seen.length >= 2, JSON.stringify(seen));
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen));
  });

  test('HACS search by its ha-mcp name', async () => {
    const r = await conn.client.callTool({ name: 'ha_get_hacs_info', arguments: { action: 'search', query: 'mushroom' } });
    assert.ok(!r.isError, r.content?.[0]?.text);
    assert.equal(r.structuredContent.repositories[0].full_name, 'piitaya/lovelace-mushroom');
  });
});
