// Confirmations through MCP elicitation (issue 14 item 5, issue 15 item 1) with the official
// TypeScript SDK against `hamcp --demo` over stdio: a destructive call without confirm asks the
// user (elicitation/create); the client's handler accepts (the item is removed) or declines (the
// one preview shape, nothing removed). A client without an elicitation handler gets the preview.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

const TODO = 'todo.shopping_list';

async function items(client) {
  const r = await client.callTool({ name: 'ha_get_todo', arguments: { entity_id: TODO } });
  return JSON.stringify(r.structuredContent);
}

describe('confirmation by elicitation over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  let answer = { action: 'decline' };
  const asked = [];
  before(async () => {
    conn = await connectStdio(HAMCP_BIN, ['--demo'], 'confirm-e2e-stdio');
    conn.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer;
    });
  });
  after(async () => { await conn?.client.close(); });

  test('declined: the preview in the one shape, nothing removed', async () => {
    answer = { action: 'decline' };
    const r = await conn.client.callTool({ name: 'ha_remove_todo_item', arguments: { entity_id: TODO, item: 'Milk' } });
    assert.ok(!r.isError, r.content?.[0]?.text);
    const s = r.structuredContent;
    assert.equal(s.result, 'preview');
    assert.equal(s.confirm_required, true);
    assert.equal(s.declined, true);
    assert.equal(s.next, 'call again with confirm=true');
    assert.ok(s.would_change && s.target, JSON.stringify(s));
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /^Remove todo\.shopping_list\?/);
    assert.equal(asked[0].requestedSchema.properties.confirm.type, 'boolean');
    assert.ok((await items(conn.client)).includes('"Milk"'), 'a declined removal removed the item');
  });

  test('accepted: the removal runs', async () => {
    answer = { action: 'accept', content: { confirm: true } };
    const r = await conn.client.callTool({ name: 'ha_remove_todo_item', arguments: { entity_id: TODO, item: 'Milk' } });
    assert.ok(!r.isError, r.content?.[0]?.text);
    assert.equal(r.structuredContent.removed, true, JSON.stringify(r.structuredContent));
    assert.equal(asked.length, 2);
    assert.ok(!(await items(conn.client)).includes('"Milk"'), 'an accepted removal left the item');
  });
});

describe('confirmation without an elicitation handler', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo', '--no-elicit-confirm'], 'confirm-e2e-off'); });
  after(async () => { await conn?.client.close(); });

  test('--no-elicit-confirm: a preview only', async () => {
    const r = await conn.client.callTool({ name: 'ha_remove_todo_item', arguments: { entity_id: TODO, item: 'Milk' } });
    const s = r.structuredContent;
    assert.equal(s.result, 'preview');
    assert.equal(s.asked, undefined);
    assert.ok((await items(conn.client)).includes('"Milk"'));
  });
});
