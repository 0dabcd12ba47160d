// API keys: `dis_live_<secret>` with 192 random bits in base64url. Only sha256(key) and a short
// display prefix are stored; the plaintext is shown once, at creation.
import crypto from 'node:crypto';

export const KEY_PREFIX = 'dis_live_';
const KEY_RE = /^dis_live_[A-Za-z0-9_-]{32}$/;

export function generateKey(): { key: string; hash: string; displayPrefix: string } {
  const key = KEY_PREFIX + crypto.randomBytes(24).toString('base64url');
  return { key, hash: hashKey(key), displayPrefix: key.slice(0, KEY_PREFIX.length + 4) };
}

export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

export function looksLikeKey(s: string): boolean {
  return KEY_RE.test(s);
}

export function newKeyId(): string {
  return 'key_' + crypto.randomBytes(8).toString('hex');
}
