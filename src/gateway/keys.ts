// API keys, two forms; both are accepted and stored only as sha256(key) plus a short display prefix.
// The plaintext is shown once, at creation.
//  - current (issue 12 §4): `dis_live_` + 32 base62 characters (~190 random bits) + a 6-character
//    base62 CRC32 checksum of those 32 characters (the GitHub token habit). A secret scanner can
//    match `dis_live_[0-9A-Za-z]{38}` and confirm the checksum offline, without calling us; the
//    gateway also rejects a mistyped key by its checksum before any store look-up.
//  - legacy: `dis_live_` + 32 base64url characters (192 random bits), issued before the checksum.
import crypto from 'node:crypto';
import zlib from 'node:zlib';

export const KEY_PREFIX = 'dis_live_';
const LEGACY_KEY_RE = /^dis_live_[A-Za-z0-9_-]{32}$/;
const KEY_RE = /^dis_live_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;
/** What a secret scanner can search for (documented in the README). */
export const KEY_SCAN_PATTERN = /\bdis_live_[0-9A-Za-z]{38}\b/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(n: number): string {
  let s = '';
  while (s.length < n) {
    for (const b of crypto.randomBytes(n * 2)) {
      if (b < 248 && s.length < n) s += BASE62[b % 62]; // 248 = 4 * 62: no modulo bias
    }
  }
  return s;
}

/** CRC32 of the secret, in base62, left-padded to 6 characters. */
export function keyChecksum(secret: string): string {
  let v = zlib.crc32(secret);
  let s = '';
  do {
    s = BASE62[v % 62] + s;
    v = Math.floor(v / 62);
  } while (v > 0);
  return s.padStart(6, '0');
}

export function generateKey(): { key: string; hash: string; displayPrefix: string } {
  const secret = randomBase62(32);
  const key = KEY_PREFIX + secret + keyChecksum(secret);
  return { key, hash: hashKey(key), displayPrefix: key.slice(0, KEY_PREFIX.length + 4) };
}

/** One-shot SHA-256 (Node 20.12+), else a Hash object: the same hex digest either way. */
const sha256Hex: (s: string) => string =
  typeof crypto.hash === 'function' ? (s) => crypto.hash('sha256', s, 'hex') : (s) => crypto.createHash('sha256').update(s).digest('hex');

export function hashKey(key: string): string {
  return sha256Hex(key);
}

/** A key of the current form with a correct checksum, or a legacy key. */
export function looksLikeKey(s: string): boolean {
  const m = KEY_RE.exec(s);
  if (m) return keyChecksum(m[1]!) === m[2];
  return LEGACY_KEY_RE.test(s);
}

export function newKeyId(): string {
  return 'key_' + crypto.randomBytes(8).toString('hex');
}
