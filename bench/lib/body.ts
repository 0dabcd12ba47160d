// The body our keyed /v1/resolve-entity returns for a query, for the same-size bare baseline.
import path from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import { loadKnowledgeBaseOrThrow } from '../../src/engine/kb/load.ts';

export function resolveBody(root: string, q: string): string {
  const engine = new Engine(loadKnowledgeBaseOrThrow(path.join(root, 'data')));
  return JSON.stringify(engine.resolveEntity({ q, limit: 10 }).body);
}
