// Shared helpers for the TypeScript-SDK end-to-end tests: start hamcp's conformance fixture
// server (hamcp's own protocol core + transports) or hamcp itself, on loopback, port 0.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const FIXTURE_BIN = process.env.FIXTURE_BIN;
export const HAMCP_BIN = process.env.HAMCP_BIN;
if (!FIXTURE_BIN) throw new Error('FIXTURE_BIN is not set (tests/e2e/run.sh sets it)');

// Arguments that make the fixture server offer the e2e tools and paginate tools/list.
export const EXTRA_TOOLS = 25;
export const PAGE_SIZE = 10;
export const FIXTURE_ARGS = ['--e2e', '--extra-tools', String(EXTRA_TOOLS), '--page-size', String(PAGE_SIZE)];
// 15 conformance fixtures (test_custom_header included), 13 for the 2026-07-28 scenarios
// (fixtures_modern.cpp), 7 for the tasks extension (fixtures_tasks.cpp), 2 e2e tools (slow_echo,
// log_burst), the page_tool_NNN tools.
export const EXPECTED_TOOL_COUNT = 15 + 13 + 7 + 2 + EXTRA_TOOLS;

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Starts an HTTP server process and resolves once it printed http://127.0.0.1:PORT/mcp (hamcp
// --demo prints its simulated HA's URL first, so the /mcp suffix matters).
export function startHttpServer(bin, args, { timeoutMs = 15000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${bin} did not report a port within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      const m = output.match(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
      if (m && m[1] !== '0') {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        // keep draining so the child never blocks on a full pipe
        child.stdout.resume();
        child.stderr.resume();
        resolve({ child, port: Number(m[1]), url: `http://127.0.0.1:${m[1]}/mcp`, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${bin} exited (${code ?? signal}) before reporting a port:\n${output}`));
    });
  });
}

export async function stopProcess(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export function newClient(name = 'hamcp-e2e-ts') {
  return new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
}

export async function connectStdio(bin, args, clientName) {
  const client = newClient(clientName);
  const stderrLines = [];
  const transport = new StdioClientTransport({ command: bin, args, stderr: 'pipe' });
  const connected = client.connect(transport);
  transport.stderr?.on('data', (d) => stderrLines.push(d.toString()));
  await connected;
  return { client, transport, stderr: () => stderrLines.join('') };
}

export async function connectHttp(url, { fetch: fetchImpl, clientName } = {}) {
  const client = newClient(clientName);
  const transport = new StreamableHTTPClientTransport(new URL(url), fetchImpl ? { fetch: fetchImpl } : {});
  await client.connect(transport);
  return { client, transport };
}

// Follows nextCursor until the end; returns { tools, pages }.
export async function listAllTools(client) {
  const tools = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages += 1;
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (pages > 100) throw new Error('tools/list did not end after 100 pages');
  } while (cursor);
  return { tools, pages };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
