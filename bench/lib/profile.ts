// Summarises a V8 .cpuprofile (from `node --cpu-prof` or the profiler probe): self time per
// function, top N, as a share of the busy time (samples outside "(idle)"), then the busy time by
// where the code lives: our bundle, Fastify, Node's own modules, other packages, native frames
// (the socket write `writev`, GC, the libsql addon) and V8's own. The V8 profiler samples wall time
// on the main thread, so a frame waiting in a system call (writev when the scheduler switches to
// the load generator) counts its wait too; CPU per request from /proc is the figure of merit.
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { wrk } from './load.ts';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function placeOf(f: Node['callFrame']): string {
  const u = f.url;
  if (!u) return f.functionName.startsWith('(') ? `V8 ${f.functionName}` : `native (${f.functionName || 'anonymous'})`;
  if (u.startsWith('node:')) return 'Node core (http, streams, timers)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
  if (pkg) return pkg === 'fastify' || pkg === 'find-my-way' || pkg === 'light-my-request' || pkg === 'fast-querystring' ? 'Fastify and its router' : `package ${pkg}`;
  return 'ours (the bundle)';
}

export function summariseProfile(file: string, top = 20): string {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  // samples taken while the probe stops the profiler (the inspector's dispatch) are not the server's
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inProbe = new Map<number, boolean>();
  const probeOf = (id: number): boolean => {
    let v = inProbe.get(id);
    if (v === undefined) {
      const n = byId.get(id)!;
      const p = parent.get(id);
      v = n.callFrame.url.endsWith('cpu-profile-probe.mjs') || (p !== undefined && probeOf(p));
      inProbe.set(id, v);
    }
    return v;
  };
  const self = new Map<string, number>();
  const places = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  prof.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const dt = prof.timeDeltas[i] ?? 0;
    const f = n.callFrame;
    if (f.functionName === '(idle)' || probeOf(id)) {
      idle += dt;
      return;
    }
    const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(name, (self.get(name) ?? 0) + dt);
    places.set(placeOf(f), (places.get(placeOf(f)) ?? 0) + dt);
    busy += dt;
  });
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
  const lines = [`busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s; shares of the busy time`];
  lines.push(...[...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, t]) => `${pct(t)}  ${name}`));
  lines.push('by place (self time):');
  lines.push(...[...places].sort((a, b) => b[1] - a[1]).filter(([, t]) => t >= busy / 200).map(([name, t]) => `${pct(t)}  ${name}`));
  return lines.join('\n');
}

/**
 * Profiles a server started with bench/lib/cpu-profile-probe.mjs (CPU_PROFILE_FILE=`file`): a 2 s
 * warm-up under wrk, then the profiler runs for one `seconds` wrk run (SIGUSR2 starts and stops
 * it); returns the summary, or null when no profile was written.
 */
export async function profileUnderLoad(
  s: { port: number; p: ChildProcess },
  file: string,
  seconds: number,
  load: { header?: string; script?: string },
  top = 25,
): Promise<string | null> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  wrk(`http://127.0.0.1:${s.port}/`, { seconds: 2, ...load });
  s.p.kill('SIGUSR2');
  await sleep(200);
  wrk(`http://127.0.0.1:${s.port}/`, { seconds, ...load });
  s.p.kill('SIGUSR2');
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await sleep(100);
  return fs.existsSync(file) ? summariseProfile(file, top) : null;
}
