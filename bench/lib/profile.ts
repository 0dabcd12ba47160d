// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function, top N, as text.
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export function summariseProfile(file: string, top = 20): string {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const dt = prof.timeDeltas[i] ?? 0;
    const f = n.callFrame;
    const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
}
