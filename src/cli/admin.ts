// Admin CLI: `npm run --silent admin -- <command>` against the same DATABASE_URL as the server.
//   keys create --client NAME --plan PLAN [--json] | keys list [--json]
//   keys revoke ID | keys deactivate ID | keys activate ID
//   plans list [--json] | plans set NAME --monthly N --per-minute M
//   usage KEY_ID [--json]
//   db migrate | kb validate | kb stats [--json]
// Keys are printed once at creation and stored only as SHA-256 hashes.
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { openAccountStore } from '../bootstrap.ts';
import { generateKey, newKeyId } from '../gateway/keys.ts';
import { monthBounds, monthPeriod, type AccountStore, type ApiKeyRecord } from '../store/ports.ts';
import { validateKnowledgeBase } from '../engine/kb/validate.ts';
import { kbStats } from '../engine/kb/stats.ts';

class UsageError extends Error {}

const HELP = `Usage: npm run --silent admin -- <command>
  keys create --client NAME --plan PLAN [--json]
  keys list [--json]
  keys revoke ID | keys deactivate ID | keys activate ID
  plans list [--json]
  plans set NAME --monthly N --per-minute M
  usage KEY_ID [--json]
  db migrate
  kb validate
  kb stats [--json]`;

function out(json: boolean, value: unknown, text: () => string) {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : text() + '\n');
}

function keyView(k: ApiKeyRecord) {
  return { id: k.id, display_prefix: k.display_prefix, client: k.client, plan: k.plan, status: k.status, created_at: k.created_at, last_used_at: k.last_used_at };
}

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, action, arg] = positionals;
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
        await store.setKeyStatus(arg, target);
        out(json, { id: arg, status: target }, () => `Key ${arg} is now ${target}.`);
        return 0;
      });
    }
    case 'plans list':
      return withStore(config, async (store) => {
        const plans = await store.listPlans();
        out(json, plans, () => plans.map((p) => `${p.name.padEnd(12)} monthly ${String(p.monthly_limit).padStart(10)}  per minute ${p.per_minute_limit}`).join('\n'));
        return 0;
      });
    case 'plans set': {
      if (!arg || !/^[a-z0-9][a-z0-9_-]{0,39}$/.test(arg)) throw new UsageError('plans set needs a NAME of lowercase letters, digits, - or _');
      const monthly = wholeNumber('--monthly', values.monthly);
      const perMinute = wholeNumber('--per-minute', values['per-minute']);
      return withStore(config, async (store) => {
        await store.upsertPlan({ name: arg, monthly_limit: monthly, per_minute_limit: perMinute });
        out(json, { name: arg, monthly_limit: monthly, per_minute_limit: perMinute }, () => `Plan ${arg}: monthly ${monthly}, per minute ${perMinute}.`);
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
          out(json, body, () => `${k.id} (${k.client}, ${k.status}) plan ${k.plan}: ${used} used of ${plan?.monthly_limit ?? '?'} in ${monthPeriod(now)}`);
          return 0;
        });
      }
      throw new UsageError(`unknown command "${positionals.join(' ')}"\n${HELP}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  (async () => {
    try {
      process.exitCode = await runAdmin(process.argv.slice(2), loadConfig());
    } catch (e) {
      if (e instanceof UsageError || e instanceof ConfigError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        console.error(`error: ${(e as Error).message}`);
        process.exitCode = 2;
      } else {
        console.error(`error: ${(e as Error).message}`);
        process.exitCode = 1;
      }
    }
  })();
}
