import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { writeTransaction } from '../db/client.js';
import { claimants, connectedProcessTags, releaseClaims } from '../db/outboxRepo.js';
import { isProcessTag, PROCESS_TAG } from '../db/processTag.js';
import type { App } from './app.js';

/**
 * A claim owner unique to this worker: its host, process id and process tag (the name of its
 * PostgreSQL sessions, src/db/processTag.ts), and random bits.
 */
export function newDeliveryOwner(): string {
  return `${hostname()}:${process.pid}:${PROCESS_TAG}:${randomBytes(4).toString('hex')}`;
}

/** Whether a claim owner is a process on this host that no longer runs. */
function deadHere(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether a claim owner is a process, on any machine, with no session on the store (PostgreSQL). */
function goneFromStore(owner: string, connected: ReadonlySet<string> | undefined): boolean {
  const tag = owner.split(':')[2];
  return connected !== undefined && isProcessTag(tag) && tag !== PROCESS_TAG && !connected.has(tag);
}

/**
 * Releases the claims of delivery workers whose process has died (a crash, a kill), so the items
 * are taken over at once instead of when their leases run out: a process on this host that no
 * longer runs, or, on PostgreSQL, a process on any machine that has no session on the server any
 * more (the server ends a killed process's session when its socket closes). What they had half
 * sent resumes from its recorded parts (and Discord drops a repeated nonce).
 */
export function releaseDeadClaims(app: App): number {
  const now = app.clock.now().toISOString();
  const held = claimants(app.db, now);
  if (held.length === 0) return 0;
  const connected = connectedProcessTags(app.db);
  const dead = held.filter((owner) => deadHere(owner) || goneFromStore(owner, connected));
  if (dead.length === 0) return 0;
  return writeTransaction(app.db, () => dead.reduce((n, owner) => n + releaseClaims(app.db, owner), 0));
}
