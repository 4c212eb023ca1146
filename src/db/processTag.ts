import { randomBytes } from 'node:crypto';

/**
 * This process's mark on the store: random, made once per process. On PostgreSQL every connection
 * the process opens is named `valormr:<tag>` (application_name, src/db/pg/bridge.ts), and every
 * delivery claim it makes carries the tag (src/app/deliveryClaims.ts). So any process, on any
 * machine, can tell a claim whose holder is gone: no session with its name is connected
 * (`connectedProcessTags`, src/db/outboxRepo.ts). A process killed with -9 closes its sockets with
 * it and the server ends its session at once; a machine that vanishes from the network leaves its
 * sessions until TCP gives up on them, and its claims until their leases run out.
 */
export const PROCESS_TAG = randomBytes(6).toString('hex');

/** The prefix of every session name the bot gives its PostgreSQL connections. */
export const SESSION_PREFIX = 'valormr:';

/** The application_name of this process's PostgreSQL sessions. */
export const SESSION_NAME = `${SESSION_PREFIX}${PROCESS_TAG}`;

/** Whether `tag` is a process tag (what `PROCESS_TAG` looks like). */
export function isProcessTag(tag: string | undefined): tag is string {
  return tag !== undefined && /^[0-9a-f]{12}$/.test(tag);
}
