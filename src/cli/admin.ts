// Admin CLI: `npm run --silent admin -- <command>` against the same DATABASE_URL as the server.
//   keys create --client NAME --plan PLAN [--json] | keys list [--json]
//   keys revoke ID | keys deactivate ID | keys activate ID
//   keys set-plan ID PLAN | keys roll ID [--overlap 24h] [--json]
//   plans list [--json] | plans set NAME --monthly N --per-minute M [--private|--public] | plans delete NAME
//   usage KEY_ID [--days N] [--json]
//   db migrate | kb validate | kb stats [--json]
// Keys are printed once at creation and stored only as SHA-256 hashes.
import path from 'node:path';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { openAccountStore } from '../bootstrap.ts';
import { generateKey, newKeyId } from '../gateway/keys.ts';
import { dayOf, monthBounds, monthPeriod, type AccountStore, type ApiKeyRecord, type Plan } from '../store/ports.ts';
import { validateKnowledgeBase } from '../engine/kb/validate.ts';
import { kbStats } from '../engine/kb/stats.ts';

class UsageError extends Error {}

const HELP = `Usage: npm run --silent admin -- <command>
  keys create --client NAME --plan PLAN [--json]
  keys list [--json]
  keys revoke ID | keys deactivate ID | keys activate ID
  keys set-plan ID PLAN
  keys roll ID [--overlap 24h] [--json]
  plans list [--json]
  plans set NAME --monthly N --per-minute M [--private | --public]
  plans delete NAME
  usage KEY_ID [--days N] [--json]
  db migrate
  kb validate
  kb stats [--json]`;

function out(json: boolean, value: unknown, text: () => string) {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : text() + '\n');
}

function keyView(k: ApiKeyRecord) {
  return {
    id: k.id, display_prefix: k.display_prefix, client: k.client, plan: k.plan, status: k.status, created_at: k.created_at, last_used_at: k.last_used_at,
    expires_at: k.expires_at ?? null, usage_key_id: k.usage_key_id ?? null,
  };
}

/** `--overlap`: a whole number of s, m, h or d (no unit: hours); at most 90 days. */
function overlapMs(v: string | undefined): number {
  if (v === undefined) return 24 * 3_600_000;
  const m = /^(\d+)([smhd]?)$/.exec(v.trim());
  if (!m) throw new UsageError(`--overlap must be a duration such as 0, 30m, 24h or 7d, got "${v}"`);
  const ms = Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, '': 3_600_000 }[m[2] as 's' | 'm' | 'h' | 'd' | '']!;
  if (ms > 90 * 86_400_000) throw new UsageError(`--overlap must be at most 90d, got "${v}"`);
  return ms;
}

const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

async function withStore<T>(config: Config, fn: (s: AccountStore) => Promise<T>): Promise<T> {
  const store = await openAccountStore(config);
  try {
    if (store.kind === 'sqlite') await store.migrate();
    else {
      const pending = await store.pendingMigrations();
      if (pending.length) throw new UsageError(`The database is not migrated (pending: ${pending.join(', ')}). Run: npm run --silent admin -- db migrate`);
    }
    return await fn(store);
  } finally {
    await store.close();
  }
}

function wholeNumber(name: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v)) throw new UsageError(`${name} must be a whole number, got ${v === undefined ? 'nothing' : `"${v}"`}`);
  return Number(v);
}

export async function runAdmin(argv: string[], config: Config): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      client: { type: 'string' },
      plan: { type: 'string' },
      monthly: { type: 'string' },
      'per-minute': { type: 'string' },
      private: { type: 'boolean' },
      public: { type: 'boolean' },
      overlap: { type: 'string' },
      days: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, action, arg, arg2] = positionals;
  const json = values.json!;
  if (values.help || !group) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  const cmd = `${group} ${action ?? ''}`.trim();

  switch (cmd) {
    case 'keys create': {
      const client = values.client?.trim();
      const planName = values.plan?.trim();
      if (!client) throw new UsageError('--client NAME is required');
      if (!planName) throw new UsageError('--plan PLAN is required');
      return withStore(config, async (store) => {
        const plan = await store.getPlan(planName);
        if (!plan) throw new UsageError(`unknown plan "${planName}" (see: plans list)`);
        const { key, hash, displayPrefix } = generateKey();
        const rec: ApiKeyRecord = { id: newKeyId(), key_hash: hash, display_prefix: displayPrefix, client, plan: plan.name, status: 'active', created_at: new Date().toISOString(), last_used_at: null };
        await store.insertKey(rec);
        out(json, { id: rec.id, key, client, plan: plan.name, status: rec.status }, () =>
          `Created key ${rec.id} for ${client} on plan ${plan.name}.\n\n  ${key}\n\nThis is the only time the key is shown. Store it safely.`);
        return 0;
      });
    }
    case 'keys list':
      return withStore(config, async (store) => {
        const keys = (await store.listKeys()).map(keyView);
        out(json, keys, () =>
          keys.length === 0 ? 'No keys.' : keys.map((k) => `${k.id}  ${k.display_prefix}…  ${k.status.padEnd(8)}  ${k.plan.padEnd(10)}  ${k.client}`).join('\n'));
        return 0;
      });
    case 'keys revoke':
    case 'keys deactivate':
    case 'keys activate': {
      if (!arg) throw new UsageError(`${cmd} needs a key id`);
      const target = action === 'revoke' ? 'revoked' : action === 'deactivate' ? 'inactive' : 'active';
      return withStore(config, async (store) => {
        const k = await store.getKey(arg);
        if (!k) throw new UsageError(`no key with id "${arg}"`);
        if (k.status === 'revoked' && target !== 'revoked') throw new UsageError(`key ${arg} is revoked; a revoked key cannot be reactivated. Create a new key.`);
        if (target === 'active' && k.expires_at && k.expires_at <= new Date().toISOString()) {
          throw new UsageError(`key ${arg} was replaced by keys roll and stopped at ${k.expires_at}; it cannot be reactivated. Use the key that replaced it, or roll that one.`);
        }
        await store.setKeyStatus(arg, target);
        out(json, { id: arg, status: target }, () => `Key ${arg} is now ${target}.`);
        return 0;
      });
    }
    case 'keys set-plan': {
      if (!arg || !arg2) throw new UsageError('keys set-plan needs a key id and a plan: keys set-plan ID PLAN');
      return withStore(config, async (store) => {
        const k = await store.getKey(arg);
        if (!k) throw new UsageError(`no key with id "${arg}"`);
        const plan = await store.getPlan(arg2);
        if (!plan) throw new UsageError(`unknown plan "${arg2}" (see: plans list)`);
        await store.setKeyPlan(k.id, plan.name);
        out(json, { id: k.id, plan: plan.name, previous_plan: k.plan }, () =>
          `Key ${k.id} moved from plan ${k.plan} to ${plan.name} (and any key rolled with it); this month's usage carries over. A running server applies it within 2 s.`);
        return 0;
      });
    }
    case 'keys roll': {
      if (!arg) throw new UsageError('keys roll needs a key id: keys roll ID [--overlap 24h]');
      const overlap = overlapMs(values.overlap);
      return withStore(config, async (store) => {
        const old = await store.getKey(arg);
        if (!old) throw new UsageError(`no key with id "${arg}"`);
        if (old.status !== 'active') throw new UsageError(`key ${arg} is ${old.status}${old.expires_at ? ` (expired ${old.expires_at})` : ''}; only an active key can be rolled. Create a new key instead.`);
        const { key, hash, displayPrefix } = generateKey();
        const now = new Date();
        const expiresAt = new Date(now.getTime() + overlap).toISOString();
        const rec: ApiKeyRecord = {
          id: newKeyId(), key_hash: hash, display_prefix: displayPrefix, client: old.client, plan: old.plan, status: 'active',
          created_at: now.toISOString(), last_used_at: null, usage_key_id: old.usage_key_id ?? old.id, expires_at: null,
        };
        await store.rollKey(old.id, rec, expiresAt);
        const oldNow = await store.getKey(old.id);
        const oldEnds = oldNow?.expires_at ?? expiresAt;
        out(json, { id: rec.id, key, client: old.client, plan: old.plan, status: rec.status, replaces: old.id, old_key_expires_at: oldEnds }, () =>
          `Created key ${rec.id} for ${old.client} on plan ${old.plan}, replacing ${old.id}.\n\n  ${key}\n\n` +
          `This is the only time the key is shown. Store it safely.\nThe old key ${old.id} works until ${oldEnds}; both count toward one monthly usage.`);
        return 0;
      });
    }
    case 'plans list':
      return withStore(config, async (store) => {
        const plans = await store.listPlans();
        out(json, plans.map((p) => ({ ...p, private: p.private ?? false })), () =>
          plans.map((p) => `${p.name.padEnd(12)} monthly ${String(p.monthly_limit).padStart(10)}  per minute ${p.per_minute_limit}${p.private ? '  (private: not on /plans)' : ''}`).join('\n'));
        return 0;
      });
    case 'plans set': {
      if (!arg || !PLAN_NAME.test(arg)) throw new UsageError('plans set needs a NAME of lowercase letters, digits, - or _');
      if (values.private && values.public) throw new UsageError('give --private or --public, not both');
      const visibility = values.private ? true : values.public ? false : undefined;
      return withStore(config, async (store) => {
        const existing = await store.getPlan(arg);
        // an existing plan keeps the limits not given; a new plan needs both
        const monthly = values.monthly === undefined && existing ? existing.monthly_limit : wholeNumber('--monthly', values.monthly);
        const perMinute = values['per-minute'] === undefined && existing ? existing.per_minute_limit : wholeNumber('--per-minute', values['per-minute']);
        const plan: Plan = { name: arg, monthly_limit: monthly, per_minute_limit: perMinute };
        if (visibility !== undefined) plan.private = visibility;
        await store.upsertPlan(plan);
        const isPrivate = visibility ?? existing?.private ?? false;
        out(json, { name: arg, monthly_limit: monthly, per_minute_limit: perMinute, private: isPrivate }, () =>
          `Plan ${arg}: monthly ${monthly}, per minute ${perMinute}${isPrivate ? ', private (not on /plans)' : ''}.`);
        return 0;
      });
    }
    case 'plans delete': {
      if (!arg) throw new UsageError('plans delete needs a plan NAME');
      return withStore(config, async (store) => {
        const r = await store.deletePlan(arg);
        if (!r.deleted && r.reason === 'not_found') throw new UsageError(`unknown plan "${arg}" (see: plans list)`);
        if (!r.deleted && r.reason === 'in_use') {
          throw new UsageError(`plan "${arg}" is used by ${r.keys} key(s) (any status); move them first with: keys set-plan ID PLAN (see: keys list)`);
        }
        out(json, { name: arg, deleted: true }, () => `Plan ${arg} deleted.`);
        return 0;
      });
    }
    case 'db migrate': {
      const store = await openAccountStore(config);
      try {
        const applied = await store.migrate();
        out(json, { applied }, () => (applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.'));
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'kb validate': {
      // under CI the cross-checks against the shared reference tables must run: a missing folder fails
      const refMissing = ['vivc-prime-names-full.csv', 'us-avas.csv', 'bjcp-2021-beer-styles.csv'].filter((f) => !fs.existsSync(path.join(config.referenceDir, f)));
      if (refMissing.length && process.env.CI === 'true') {
        console.error(`kb validate: CI=true but the reference tables ${refMissing.join(', ')} are not in ${config.referenceDir}: set REFERENCE_DIR`);
        return 1;
      }
      const report = validateKnowledgeBase(config.dataDir, config.referenceDir);
      for (const n of report.notices) console.log(`notice: ${n}`);
      for (const p of report.problems) console.log(`${p.file} [${p.record}] ${p.field}: ${p.message}`);
      console.log(report.problems.length ? `kb validate: ${report.problems.length} problem(s)` : `kb validate: ok (${report.entities} entities, version ${report.version})`);
      return report.problems.length ? 1 : 0;
    }
    case 'kb stats': {
      const stats = kbStats(config.dataDir);
      out(json, stats, () => JSON.stringify(stats, null, 2));
      return 0;
    }
    default:
      if (group === 'usage' && action) {
        if (arg) throw new UsageError(`usage takes one key id, got "${positionals.slice(1).join(' ')}"`);
        const days = values.days === undefined ? undefined : wholeNumber('--days', values.days);
        if (days !== undefined && (days < 1 || days > 366)) throw new UsageError(`--days must be between 1 and 366, got ${days}`);
        return withStore(config, async (store) => {
          const k = await store.getKey(action);
          if (!k) throw new UsageError(`no key with id "${action}"`);
          const plan = await store.getPlan(k.plan);
          const now = new Date();
          const used = await store.getMonthly(k.id, monthPeriod(now));
          const { start, end } = monthBounds(now);
          const body = {
            key_id: k.id, client: k.client, status: k.status,
            plan: plan, usage: { period_start: start.toISOString(), period_end: end.toISOString(), used },
            remaining: plan ? Math.max(0, plan.monthly_limit - used) : 0,
          };
          const summary = `${k.id} (${k.client}, ${k.status}) plan ${k.plan}: ${used} used of ${plan?.monthly_limit ?? '?'} in ${monthPeriod(now)}`;
          if (days === undefined) {
            out(json, body, () => summary);
            return 0;
          }
          // every UTC day of the window, oldest first, days without requests as 0
          const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
          const window = Array.from({ length: days }, (_, i) => dayOf(new Date(today - (days - 1 - i) * 86_400_000)));
          const counts = new Map((await store.dailyUsage(k.id, window[0]!, window[window.length - 1]!)).map((d) => [d.day, d.used]));
          const daily = window.map((day) => ({ day, used: counts.get(day) ?? 0 }));
          const total = daily.reduce((n, d) => n + d.used, 0);
          out(json, { ...body, days, daily, total }, () =>
            [summary, '', 'day (UTC)        requests', ...daily.map((d) => `${d.day}  ${String(d.used).padStart(10)}`), `${'total'.padEnd(10)}  ${String(total).padStart(10)}`].join('\n'));
          return 0;
        });
      }
      throw new UsageError(`unknown command "${positionals.join(' ')}"\n${HELP}`);
  }
}

/** The command line's behaviour: runs the command, prints errors, returns the exit code (2: bad usage). */
export async function adminMain(argv: string[], loadConf: () => Config = () => loadConfig()): Promise<number> {
  try {
    return await runAdmin(argv, loadConf());
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return e instanceof UsageError || e instanceof ConfigError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  (async () => {
    process.exitCode = await adminMain(process.argv.slice(2));
  })();
}
