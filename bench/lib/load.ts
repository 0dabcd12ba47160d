// Shared benchmark plumbing: wrk (installed from Debian when missing), child servers, parsing.
import { execFileSync, execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export function ensureWrk() {
  if (spawnSync('which', ['wrk']).status === 0) return;
  console.log('installing wrk (Debian package)…');
  execSync('(apt-get install -y wrk || (apt-get update && apt-get install -y wrk)) >/dev/null 2>&1', { stdio: 'inherit', shell: '/bin/bash' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

export async function waitFor(url: string, timeoutMs = 20_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return performance.now() - t0;
    } catch {}
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function startNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

export interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /** Requests wrk completed in the run. */
  requests: number;
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** User + system CPU time of a process so far, in microseconds (all its threads), from /proc. */
export function cpuUs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_US; // fields 14 and 15 (utime, stime)
}

/** User-space CPU microseconds of a process so far (utime only). */
export function userUs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) * TICK_US;
}

/**
 * User-space instructions a process retires while `work` runs (`perf stat -e instructions:u -p`),
 * or the reason there is no figure: a machine without hardware counters (most VMs) has perf report
 * the event as not supported.
 */
export async function instructionsDuring<T>(pid: number, work: () => T): Promise<{ result: T; instructions: number | null; why?: string }> {
  const perf = spawn('perf', ['stat', '-x', ',', '-e', 'instructions:u', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  perf.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<void>((r) => perf.on('close', () => r()));
  perf.on('error', () => undefined);
  await new Promise((r) => setTimeout(r, 150)); // perf attached
  const result = work();
  perf.kill('SIGINT');
  await exited;
  const line = err.split('\n').find((l) => l.includes('instructions'));
  const n = line ? Number(line.split(',')[0]) : NaN;
  if (Number.isFinite(n) && n > 0) return { result, instructions: n };
  return { result, instructions: null, why: line?.startsWith('<not supported>') ? 'perf: instructions:u not supported (no hardware counters on this machine)' : `perf gave no count (${(line ?? err).trim().slice(0, 80) || 'perf not found'})` };
}

/** CPU microseconds summed over several processes; a process that ended in between counts 0. */
export function cpuUsOf(pids: number[]): number {
  let t = 0;
  for (const p of pids) {
    try {
      t += cpuUs(p);
    } catch {}
  }
  return t;
}

function toMs(s: string): number {
  const m = /([\d.]+)(us|ms|s|m)/.exec(s);
  if (!m) throw new Error(`cannot parse wrk time "${s}"`);
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

export function wrk(url: string, opts: { seconds?: number; connections?: number; header?: string; script?: string } = {}): WrkResult {
  const args = ['-t1', `-c${opts.connections ?? 32}`, `-d${opts.seconds ?? 8}s`, '--latency'];
  if (opts.header) args.push('-H', opts.header);
  if (opts.script) args.push('-s', opts.script);
  const out = execSync(`wrk ${args.map((a) => `'${a}'`).join(' ')} '${url}'`, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
  if (!/99%/.test(out)) throw new Error(`unexpected wrk output:\n${out}`);
  let p50: number;
  let p99: number;
  try {
    p50 = toMs(/ 50%\s+(\S+)/.exec(out)![1]!);
    p99 = toMs(/ 99%\s+(\S+)/.exec(out)![1]!);
  } catch (e) {
    throw new Error(`${(e as Error).message} in wrk output:\n${out}`);
  }
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { rps, p50ms: p50, p99ms: p99, non2xx, requests };
}

/**
 * A private redis-server on a free port (no persistence), answering PING before this returns, so a
 * benchmark can read its CPU apart from the shared Redis on 6379 that tests use. The caller kills it.
 */
export async function startPrivateRedis(): Promise<{ proc: ChildProcess; port: number; url: string }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      execSync(`redis-cli -p ${port} ping`, { stdio: 'ignore' });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { proc, port, url: `redis://127.0.0.1:${port}/0` };
}

/**
 * The benches' measuring loop: `rounds` rounds, each running every configuration once in an order
 * that rotates and alternates direction, so no configuration always runs first or after the same
 * neighbour. The first configuration is the baseline: each round's ratio is its CPU per request
 * divided by the configuration's. A line per round goes to stderr.
 */
export function alternatedRounds<C extends { name: string }, R>(
  configs: C[],
  rounds: number,
  run: (c: C) => R,
  cpuOf: (r: R) => number,
  label: (c: C) => string = (c) => c.name,
): { runs: Map<string, R[]>; ratios: Map<string, number[]> } {
  const runs = new Map<string, R[]>(configs.map((c) => [c.name, []]));
  const ratios = new Map<string, number[]>(configs.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
    if (round % 2) order.reverse();
    const got = new Map<string, R>();
    for (const c of order) got.set(c.name, run(c));
    const base = cpuOf(got.get(configs[0]!.name)!);
    for (const c of configs) {
      runs.get(c.name)!.push(got.get(c.name)!);
      ratios.get(c.name)!.push(base / cpuOf(got.get(c.name)!));
    }
    process.stderr.write(`round ${round + 1}/${rounds}: ${configs.map((c) => `${label(c)} ${cpuOf(got.get(c.name)!).toFixed(1)} µs`).join('; ')}\n`);
  }
  return { runs, ratios };
}

/** The 8 queries the keyed benches rotate through (wrk's Lua script), as request paths. */
export const KEYED_BENCH_PATHS = ['cabernet sauvignon', 'merlot', 'chardonnay', 'pinot noir', 'champagne', 'rioja', 'islay single malt', 'guinness'].map(
  (q) => `/v1/resolve-entity?q=${encodeURIComponent(q)}`,
);

/**
 * A key on an unlimited "bench" plan in the store `env` names, through the built admin CLI
 * (dist/cli/admin.mjs under `root`): migrates, sets the plan, creates the key, returns it.
 */
export function benchKey(root: string, env: Record<string, string>): string {
  const admin = (...a: string[]) => execFileSync(process.execPath, [path.join(root, 'dist/cli/admin.mjs'), ...a], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  admin('db', 'migrate');
  admin('plans', 'set', 'bench', '--monthly', '1000000000', '--per-minute', '1000000000');
  return JSON.parse(admin('keys', 'create', '--client', 'bench', '--plan', 'bench', '--json')).key;
}

/** wrk's Lua script that sends `paths` in turn, one per request. */
export function rotateScript(paths: string[]): string {
  return `local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`;
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
