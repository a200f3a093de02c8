// Tasks (MCP 2025-11-25) through the official TypeScript SDK 1.x's experimental client API
// (client.experimental.tasks) against the fixture server over Streamable HTTP: a task-supporting
// tool called as a task (params.task, CreateTaskResult, tasks/get polling, tasks/result), tasks/list,
// tasks/cancel, a task that asks the user (input_required, the elicitation on the tasks/result
// stream with related-task metadata), and a sync-only tool that stays an ordinary call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { FIXTURE_ARGS, FIXTURE_BIN, connectHttp, listAllTools, startHttpServer, stopProcess } from './helpers.mjs';

describe('tasks through the TypeScript SDK (fixture server, Streamable HTTP)', () => {
  let server;
  let session;

  before(async () => {
    server = await startHttpServer(FIXTURE_BIN, ['--host', '127.0.0.1', '--port', '0', ...FIXTURE_ARGS]);
    session = await connectHttp(server.url, { clientName: 'e2e-tasks' });
    await listAllTools(session.client);  // the SDK learns execution.taskSupport from tools/list
  });
  after(async () => {
    await session?.client.close();
    if (server) await stopProcess(server.child);
  });

  test('the server declares tasks for tools/call and the tools say which support them', async () => {
    const caps = session.client.getServerCapabilities();
    assert.ok(caps.tasks?.requests?.tools?.call, 'capabilities.tasks.requests.tools.call');
    assert.ok(caps.tasks?.list && caps.tasks?.cancel, 'tasks/list and tasks/cancel declared');
    const { tools } = await listAllTools(session.client);
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.equal(byName.get('slow_compute').execution?.taskSupport, 'optional');
    assert.equal(byName.get('failing_job').execution?.taskSupport, 'required');
    assert.equal(byName.get('greet').execution, undefined);
  });

  test('callToolStream runs a task to its result', async () => {
    const seen = [];
    let result;
    for await (const message of session.client.experimental.tasks.callToolStream(
      { name: 'slow_compute', arguments: { seconds: 0.3, label: 'e2e' } }, undefined, { task: { ttl: 60000 } })) {
      seen.push(message.type);
      if (message.type === 'taskCreated') assert.equal(message.task.status, 'working');
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    assert.equal(seen[0], 'taskCreated');
    assert.ok(seen.includes('taskStatus'), `status polled: ${seen.join(',')}`);
    assert.deepEqual(result.content, [{ type: 'text', text: 'Computed e2e after 0s' }]);
  });

  test('a tool error fails the task (2025-11-25); tasks/result still has the isError result', async () => {
    let failed;
    let taskId;
    // (task given explicitly: the SDK remembers task tools of the last tools/list page only)
    for await (const message of session.client.experimental.tasks.callToolStream(
      { name: 'failing_job', arguments: {} }, undefined, { task: {} })) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'error') failed = message.error;
      if (message.type === 'result') assert.fail('a tool error must not complete the task');
    }
    assert.match(String(failed?.message), /failed/);
    const task = await session.client.experimental.tasks.getTask(taskId);
    assert.equal(task.status, 'failed');
    const result = await session.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.equal(result.isError, true);
    const { tasks } = await session.client.experimental.tasks.listTasks();
    assert.ok(tasks.length >= 2, `listed ${tasks.length}`);
    assert.deepEqual([...new Set(tasks.map((t) => t.status))].sort(), ['completed', 'failed']);
  });

  test('tasks/cancel stops a running task; other clients cannot see it', async () => {
    const stream = session.client.experimental.tasks.callToolStream(
      { name: 'slow_compute', arguments: { seconds: 60, label: 'cancel' } }, undefined, { task: {} });
    const first = await stream.next();
    assert.equal(first.value.type, 'taskCreated');
    const taskId = first.value.task.taskId;
    const cancelled = await session.client.experimental.tasks.cancelTask(taskId);
    assert.equal(cancelled.status, 'cancelled');
    const got = await session.client.experimental.tasks.getTask(taskId);
    assert.equal(got.status, 'cancelled');
    await stream.return(undefined);

    const other = await connectHttp(server.url, { clientName: 'e2e-tasks-other' });
    try {
      await assert.rejects(other.client.experimental.tasks.getTask(taskId), (e) => e.code === -32602);
    } finally {
      await other.client.close();
    }
  });

  test('a task that asks the user is input_required; the question comes on tasks/result', async () => {
    const asked = [];
    session.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });
    const statuses = [];
    let taskId;
    let result;
    for await (const message of session.client.experimental.tasks.callToolStream(
      { name: 'confirm_delete', arguments: { filename: 'notes.txt' } }, undefined, { task: { ttl: 60000 } })) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'taskStatus') statuses.push(message.task.status);
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    assert.ok(statuses.includes('input_required'), `statuses seen: ${statuses.join(',')}`);
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0].message, 'Delete notes.txt?');
    assert.equal(asked[0]._meta?.['io.modelcontextprotocol/related-task']?.taskId, taskId);
    assert.deepEqual(result.content, [{ type: 'text', text: 'Deleted notes.txt' }]);
    assert.equal((await session.client.experimental.tasks.getTask(taskId)).status, 'completed');
  });

  test('a sync-only tool stays an ordinary call', async () => {
    const r = await session.client.callTool({ name: 'greet', arguments: { name: 'e2e' } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'Hello, e2e!' }]);
  });
});
