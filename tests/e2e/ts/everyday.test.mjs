// Calendars, to-do lists and camera images (issue 11) through the official TypeScript SDK against
// `hamcp --demo` over stdio: the SDK checks structuredContent against each outputSchema; the camera
// image arrives as an image content block whose base64 decodes to a PNG, never as text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

const call = (client, name, args = {}) => client.callTool({ name, arguments: args });

async function ok(client, name, args) {
  const r = await call(client, name, args);
  assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
  return r;
}

describe('everyday tools over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo'], 'everyday-e2e-stdio'); });
  after(async () => { await conn?.client.close(); });

  test('camera snapshot is a decodable image block', async () => {
    const { tools } = await conn.client.listTools();
    assert.ok(tools.some((t) => t.name === 'ha_get_camera_image'));
    const cams = (await ok(conn.client, 'ha_search', { query: 'camera', domain_filter: 'camera' })).structuredContent;
    const cam = JSON.stringify(cams).match(/camera\.[a-z0-9_]+/)[0];
    const r = await ok(conn.client, 'ha_get_camera_image', { entity_id: cam, width: 64 });
    const image = r.content.find((b) => b.type === 'image');
    assert.ok(image, JSON.stringify(r.content).slice(0, 300));
    assert.equal(image.mimeType, 'image/png');
    const bytes = Buffer.from(image.data, 'base64');
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    for (const b of r.content) if (b.type === 'text') assert.ok(!b.text.includes(image.data), 'base64 in text');
  });

  test('a to-do item is added, completed and removed; a calendar range is read', async () => {
    const added = (await ok(conn.client, 'ha_set_todo_item', { entity_id: 'todo.shopping_list', summary: 'E2E tea' }))
      .structuredContent;
    assert.equal(added.item.summary, 'E2E tea');
    const done = (await ok(conn.client, 'ha_set_todo_item', {
      entity_id: 'todo.shopping_list', item: added.item.uid, status: 'completed',
    })).structuredContent;
    assert.equal(done.item.status, 'completed');
    const gone = (await ok(conn.client, 'ha_remove_todo_item', {
      entity_id: 'todo.shopping_list', item: added.item.uid, confirm: true,
    })).structuredContent;
    assert.equal(gone.removed, true);
    const events = (await ok(conn.client, 'ha_config_get_calendar_events', {
      entity_id: 'calendar.family', start: '2026-01-05', end: '2026-01-12',
    })).structuredContent;
    assert.ok(events.events.some((e) => e.summary === 'Bins out'), JSON.stringify(events).slice(0, 300));
  });
});
