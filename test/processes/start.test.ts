import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findFreePort } from '../../local/services/free-port.ts';
import { secantusDbUrl } from '../../local/services/secantusdb.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { startNodeProcess, stopWaitingIfExited } from '../support/child-processes.ts';
import { eventually } from '../support/eventually.ts';
import { pastSameInterrupt } from '../support/interrupts.ts';
import { connectionRefused } from '../support/connection-refused.ts';
import { sendStalledRequest } from '../support/stalled-request.ts';

/** Every process started with this state directory: the servers name it in their arguments, the rest inherit it. */
function processesOf(stateDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const seen = readFileSync(`/proc/${entry}/cmdline`, 'utf8') + readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (seen.includes(stateDir)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Fields of /proc/<pid>/stat after the parenthesised command name: [state, ppid, pgrp, ...]. */
function statOf(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The storage servers a process started (redis-server rewrites its environment, so it is found by its parent). */
function serversStartedBy(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return (
          Number(statOf(pid)[1]) === parent &&
          /redis-server|secantus/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
        );
      } catch {
        return false;
      }
    });
}

/**
 * `npm start` on a fresh state directory and ports of its own, once it answers: beside a developer's `npm start` on the
 * default ports, it neither borrows that one's servers nor finds its ports taken.
 */
async function startAnswering() {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-start-'));
  const port = await findFreePort();
  const ports = { redis: await findFreePort(), mongodb: await findFreePort() };
  const start = startNodeProcess(
    'local/start.ts',
    {
      PATH: process.env.PATH,
      STATE_DIR: stateDir,
      PORT: String(port),
      SANDBOX_PORT: String(await findFreePort()),
      REDIS_PORT: String(ports.redis),
      MONGODB_PORT: String(ports.mongodb),
      LOG_LEVEL: 'warn',
    },
    { ownGroup: true },
  );
  const stop = async () => {
    await start.stop();
    await rm(stateDir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        stopWaitingIfExited(start, 'answered');
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => response.status,
          (error: Error) => error.message,
        );
        expect(ready, start.output()).toBe(200);
      },
      90_000,
      250,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { start, port, ports, stateDir, stop };
}

it('npm start brings up Redis, SecantusDB and every process, answers, and on Ctrl-C stops the servers after the workers, leaving no process behind', async () => {
  const { start, port, ports, stateDir, stop } = await startAnswering();
  try {
    expect(start.output()).toMatch(new RegExp(`redis: local redis-server \\S+ on 127\\.0\\.0\\.1:${ports.redis},`));
    expect(start.output()).toMatch(
      new RegExp(`mongodb: local SecantusDB 0\\.7\\.0b3 on 127\\.0\\.0\\.1:${ports.mongodb},`),
    );
    // Where the console is, and what signs in to it.
    expect(start.output()).toContain(`the console is at http://127.0.0.1:${port}/console: sign in with a project's`);
    // The ingress, five workers and the sandbox, plus the servers it started itself.
    expect(processesOf(stateDir).length).toBeGreaterThanOrEqual(7);

    // Ctrl-C in a terminal signals the whole foreground group: the storage servers started here are outside it, so
    // they stop only after the workers have finished their jobs, when npm start stops them.
    const servers = serversStartedBy(start.pid);
    expect(servers).toHaveLength(2);
    for (const pid of servers) expect(Number(statOf(pid)[2])).not.toBe(start.pid);
    process.kill(-start.pid, 'SIGINT');
    // npm passes the same Ctrl-C on to its script as well (with bash as its script shell): one press, not two.
    process.kill(start.pid, 'SIGINT');
    expect((await start.exited).code, start.output()).toBe(0);
    expect(start.output()).not.toMatch(/ECONNREFUSED|did not finish in time|interrupted again/);
    expect(servers.filter((pid) => existsSync(`/proc/${pid}`))).toEqual([]);
    expect(processesOf(stateDir)).toEqual([]);
    expect(await connectionRefused(port)).toBe(true);
  } finally {
    await stop();
  }
}, 150_000);

it('npm start interrupted again while a request holds the ingress: everything stops at once, not after the grace period', async () => {
  const { start, port, ports, stateDir, stop } = await startAnswering();
  const stalled = new Socket();
  stalled.on('error', () => undefined);
  try {
    const created = execFileSync(
      process.execPath,
      ['bin/project/create.ts', '--name', 'Interrupted', '--plan', 'team', '--json'],
      {
        env: {
          PATH: process.env.PATH,
          STATE_DIR: stateDir,
          REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
          MONGODB_URL: withDatabase(secantusDbUrl(`127.0.0.1:${ports.mongodb}`), 'pushengine'),
        },
        encoding: 'utf8',
      },
    );
    const project = JSON.parse(created) as { projectId: string; clientKey: string };
    // An authenticated request whose body never arrives keeps the ingress draining for INGRESS_SHUTDOWN_GRACE_MS (10 s).
    await sendStalledRequest(stalled, port, `/v1/sdk/projects/${project.projectId}/devices/d`, project.clientKey);
    process.kill(-start.pid, 'SIGINT');
    // Each process measures the same-press window from when it handled the first SIGINT, which on a busy machine can be
    // well after it was sent: the second one goes once npm start has said it did and the ingress, which stops listening
    // as it does, has closed its port, and the window has passed since.
    await eventually(() => expect(start.output()).toContain('interrupted; stopping'));
    await eventually(async () => expect(await connectionRefused(port)).toBe(true), 5000);
    await pastSameInterrupt(Date.now());
    // Signalled alone, as by `kill -INT`: npm start must pass it on.
    const interruptedAgainAt = Date.now();
    process.kill(start.pid, 'SIGINT');
    expect((await start.exited).code).toBe(130);
    expect(Date.now() - interruptedAgainAt, start.output()).toBeLessThan(5000);
    expect(processesOf(stateDir)).toEqual([]);
  } finally {
    stalled.destroy();
    await stop();
  }
}, 150_000);
