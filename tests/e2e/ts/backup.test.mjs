// Backups and the edit journal (ha_manage_backup) through the official TypeScript SDK against
// `hamcp --demo` over stdio: a backup created while the client receives its progress
// notifications (the SDK's onprogress), listed newest first, its deletion previewed then refused
// while younger than older_than_days; an automation edit listed, diffed and restored through
// scope=edits. The SDK checks every structuredContent against the outputSchema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

async function ok(client, args, options) {
  const r = await client.callTool({ name: 'ha_manage_backup', arguments: args }, undefined, options);
  assert.ok(!r.isError, `ha_manage_backup ${JSON.stringify(args)} failed: ${r.content?.[0]?.text}`);
  return r.structuredContent;
}

describe('ha_manage_backup over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo'], 'backup-e2e-stdio'); });
  after(async () => { await conn?.client.close(); });

  test('a backup is created with progress notifications, listed, and too new to delete', async () => {
    const progress = [];
    const made = await ok(conn.client, { scope: 'snapshot', action: 'create', name: 'E2E backup' },
      { onprogress: (p) => progress.push(p) });
    assert.equal(made.created, true, JSON.stringify(made));
    assert.equal(made.backup.name, 'E2E backup');
    // The demo's backup takes a moment per stage, so the stages arrive before the result (the SDK
    // drops notifications that share a read with the response).
    assert.ok(progress.length >= 3, `progress notifications: ${JSON.stringify(progress)}`);
    assert.ok(progress.some((p) => p.message?.includes('upload_to_agents')), JSON.stringify(progress));
    assert.ok(progress.every((p, i) => i === 0 || p.progress >= progress[i - 1].progress), 'progress only grows');
    const listed = await ok(conn.client, { scope: 'snapshot', action: 'list' });
    assert.equal(listed.backups[0].backup_id, made.backup.backup_id, 'the new backup is the newest');
    const refused = await conn.client.callTool({ name: 'ha_manage_backup', arguments: {
      scope: 'snapshot', action: 'delete', backup_id: made.backup.backup_id, confirm: true } });
    assert.ok(refused.isError);
    assert.equal(refused.structuredContent.error.code, 'backup_too_new');
  });

  test('an automation edit is listed, diffed and restored', async () => {
    const id = 'automation.lock_front_door_at_night';
    const got = (await conn.client.callTool({ name: 'ha_config_get', arguments: { kind: 'automation', id } }))
      .structuredContent;
    const edit = (await conn.client.callTool({ name: 'ha_config_set', arguments: {
      kind: 'automation', id, config_hash: got.config_hash,
      patch: [{ op: 'replace', path: '/alias', value: 'E2E edited' }] } })).structuredContent;
    assert.ok(edit.edit_id, JSON.stringify(edit));
    const edits = await ok(conn.client, { scope: 'edits', action: 'list', entity_id: id });
    assert.equal(edits.edits[0].id, edit.edit_id);
    const diff = await ok(conn.client, { scope: 'edits', action: 'diff', backup_id: edit.edit_id });
    assert.deepEqual(diff.diff, [{ op: 'replace', path: '/alias', value: 'E2E edited' }]);
    const restored = await ok(conn.client, { scope: 'edits', action: 'restore', backup_id: edit.edit_id });
    assert.equal(restored.result, 'restored');
    const now = (await conn.client.callTool({ name: 'ha_config_get', arguments: { kind: 'automation', id } }))
      .structuredContent;
    assert.equal(now.config.alias, got.config.alias);
  });
});
