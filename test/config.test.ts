import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { checkNodeVersion, ConfigError, loadConfig } from '../src/config.ts';
import { ROOT, tempDir } from './helper.ts';

test('defaults: port 8080 on 127.0.0.1, SQLite at ./var/drinks.db, proxy untrusted, demo on with the spec limits', () => {
  const c = loadConfig({}, '/srv/app');
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.deepEqual(c.database, { kind: 'sqlite', path: '/srv/app/var/drinks.db' });
  assert.equal(c.trustProxy, false);
  assert.equal(c.redisUrl, null);
  assert.equal(c.engineUrl, null);
  assert.equal(c.publicBaseUrl, 'http://127.0.0.1:8080');
  assert.deepEqual(
    { ...c.demo },
    { enabled: true, perIpPerMinute: 8, perIpPerHour: 20, perSubnetPerHour: 200, perSitePerHour: 400, networkDailySharePercent: 10, dailyCap: 5000, cacheTtlSeconds: 300, maxQueryLength: 80, resolveResultLimit: 5 },
  );
});

test('DATABASE_URL selects sqlite:<path> or postgres://', () => {
  assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:data.db' }, '/x').database, { kind: 'sqlite', path: '/x/data.db' });
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }, '/x').database, { kind: 'postgres', url: 'postgres://u@h/db' });
});

test('TRUST_PROXY takes true/false or a list of proxy addresses and CIDRs', () => {
  assert.equal(loadConfig({ TRUST_PROXY: 'on' }, '/x').trustProxy, true);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1' }, '/x').trustProxy, ['10.0.0.5', '192.168.0.0/16', '::1']);
});

test('a bad value fails with a message naming the variable', () => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true, false or a comma-separated list/],
    [{ TRUST_PROXY: '10.0.0.1/40' }, /TRUST_PROXY must be true, false or a comma-separated list/],
    [{ DEMO_PER_IP_PER_MINUTE: '-1' }, /DEMO_PER_IP_PER_MINUTE must be a whole number/],
    [{ DEMO_MAX_QUERY_LENGTH: '500' }, /DEMO_MAX_QUERY_LENGTH must be between 1 and 200/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with sqlite: or postgres:\/\//],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /PUBLIC_BASE_URL must use http: or https:/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
  ];
  for (const [env, msg] of bad) assert.throws(() => loadConfig(env, '/x'), msg);
});

test('the server refuses to start on bad configuration or invalid data, naming the variable or the file and record', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });
  const badPort = run({ PORT: 'x' });
  assert.equal(badPort.status, 1);
  assert.match(badPort.stderr, /Invalid configuration: PORT/);

  const dir = tempDir();
  fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
  const file = path.join(dir, 'grapes', 'vivc.json');
  const grapes = JSON.parse(fs.readFileSync(file, 'utf8'));
  grapes[0].facts.vivc_id.source = 'no-such-source';
  fs.writeFileSync(file, JSON.stringify(grapes));
  const badData = run({ DATA_DIR: dir, DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`, PORT: '0' });
  assert.equal(badData.status, 1);
  assert.match(badData.stderr, new RegExp(`grapes/vivc.json \\[${grapes[0].key}\\] facts.vivc_id.source: unknown source "no-such-source"`));
});

describe('Node version (issue 24, security review 8.1)', () => {
  test('Node older than 20.15 is refused with a message naming the version; 20.15 and newer pass', () => {
    assert.throws(() => checkNodeVersion('20.14.0'), (e: unknown) => e instanceof ConfigError && /20\.14\.0 is too old: this service needs Node 20\.15 or newer/.test((e as Error).message));
    assert.throws(() => checkNodeVersion('18.19.1'), ConfigError);
    for (const v of ['20.15.0', '20.20.2', '22.1.0']) assert.doesNotThrow(() => checkNodeVersion(v));
    assert.doesNotThrow(() => checkNodeVersion());
  });
});
