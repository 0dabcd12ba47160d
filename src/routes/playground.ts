// GET / (the playground page) and its two assets, /playground/app.js and /playground/app.css.
// Everything the page needs is served from here: no CDN, no web fonts, no trackers. The page's
// TypeScript (src/playground/app.ts) is bundled with esbuild on first request and kept in memory,
// so it works the same under tsx (tests, `npm run admin`) and from dist/server.mjs (`npm start`).
// The page talks only to the keyless /v1/demo/ twins; it never holds a key.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../gateway/context.ts';

/** The page may load only what this service serves and may call only this service. */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where the page's sources live: beside this file under tsx (src/routes → src/playground), or
 * under src/ from the bundled dist/server.mjs (dist → src/playground).
 */
export function playgroundDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../playground'), path.resolve(here, '../src/playground'), path.resolve(process.cwd(), 'src/playground')];
  const found = candidates.find((d) => fs.existsSync(path.join(d, 'index.html')));
  if (!found) throw new Error(`playground sources not found (looked in ${candidates.join(', ')})`);
  return found;
}

interface Asset {
  body: string;
  type: string;
  etag: string;
}

function asset(body: string, type: string): Asset {
  return { body, type, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

async function bundleScript(dir: string): Promise<string> {
  // esbuild is a runtime dependency already (scripts/build.mjs); imported lazily so a gateway that
  // never serves the page never loads it
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [path.join(dir, 'app.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export default async function playground(app: FastifyInstance, _ctx: GatewayContext) {
  let assets: Promise<Record<'html' | 'js' | 'css', Asset>> | undefined;
  const load = () =>
    (assets ??= (async () => {
      const dir = playgroundDir();
      const [html, css, js] = await Promise.all([
        fs.promises.readFile(path.join(dir, 'index.html'), 'utf8'),
        fs.promises.readFile(path.join(dir, 'app.css'), 'utf8'),
        bundleScript(dir),
      ]);
      return { html: asset(html, 'text/html; charset=utf-8'), css: asset(css, 'text/css; charset=utf-8'), js: asset(js, 'text/javascript; charset=utf-8') };
    })().catch((err) => {
      assets = undefined; // a failed build is retried on the next request, not cached
      throw err;
    }));

  const serve = (which: 'html' | 'js' | 'css') => async (request: FastifyRequest, reply: FastifyReply) => {
    const a = (await load())[which];
    reply.headers({
      'Content-Type': a.type,
      'Cache-Control': 'no-cache',
      ETag: a.etag,
      'Content-Security-Policy': PLAYGROUND_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    if (request.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.send(a.body);
  };

  app.get('/', { schema: { hide: true } }, serve('html'));
  app.get('/playground/app.js', { schema: { hide: true } }, serve('js'));
  app.get('/playground/app.css', { schema: { hide: true } }, serve('css'));
}
