import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A person's way into a campaign's web page: who, which campaign, until when (milliseconds), and a one-use nonce. */
export interface WebPass {
  readonly campaignId: string;
  readonly userId: string;
  readonly expires: number;
  readonly nonce: string;
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

function mac(secret: Buffer, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

/** A pass as a signed string: `body.mac` (base64url JSON, HMAC-SHA256). */
export function signPass(secret: Buffer, pass: WebPass): string {
  const body = b64(JSON.stringify([pass.campaignId, pass.userId, pass.expires, pass.nonce]));
  return `${body}.${mac(secret, body)}`;
}

/** A fresh pass that lasts `ttlMs`. */
export function newPass(campaignId: string, userId: string, now: Date, ttlMs: number): WebPass {
  return { campaignId, userId, expires: now.getTime() + ttlMs, nonce: randomBytes(12).toString('base64url') };
}

/** The pass a signed string carries, if its signature is ours, its shape right and it has not expired. */
export function verifyPass(secret: Buffer, token: string, now: Date): WebPass | undefined {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return undefined;
  const want = Buffer.from(mac(secret, body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 4) return undefined;
  const [campaignId, userId, expires, nonce] = parts as unknown[];
  if (typeof campaignId !== 'string' || typeof userId !== 'string' || typeof expires !== 'number' || typeof nonce !== 'string') return undefined;
  if (expires <= now.getTime()) return undefined;
  return { campaignId, userId, expires, nonce };
}
