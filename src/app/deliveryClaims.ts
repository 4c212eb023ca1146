import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { writeTransaction } from '../db/client.js';
import { claimants, releaseClaims } from '../db/outboxRepo.js';
import type { App } from './app.js';

/** A claim owner unique to this worker: its host and process id, and random bits. */
export function newDeliveryOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
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

/**
 * Releases the claims of delivery workers on this host whose process has died (a crash, a kill),
 * so a restarted bot takes their items over at once instead of waiting for the leases to run out.
 * What they had half sent resumes from its recorded parts (and Discord drops a repeated nonce).
 */
export function releaseDeadClaims(app: App): number {
  const now = app.clock.now().toISOString();
  const dead = claimants(app.db, now).filter(deadHere);
  if (dead.length === 0) return 0;
  return writeTransaction(app.db, () => dead.reduce((n, owner) => n + releaseClaims(app.db, owner), 0));
}
