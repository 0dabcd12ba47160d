// Shared checks for the test files that pin grape varieties added from variety lists (issue 8):
// each pin is [key, canonical name, VIVC number, VIVC prime name, source of the name, berry colour the
// source states or '', and where the colour comes from another source, that source]. VIVC numbers are checked against the shared prime-name table when it is there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { referenceFile } from '../reference.ts';
import { ROOT, kbEntity, sharedEngine } from '../helper.ts';

export type GrapePin = [key: string, name: string, vivcId: string, prime: string, source: string, colour: string, colourSource?: string];

export const passport = (id: string) => `https://www.vivc.de/index.php?r=passport%2Fview&id=${id}`;

const PRIMES = referenceFile('vivc-prime-names.csv');
/** VIVC number → prime name from the shared reference table (undefined where the table is absent). */
export const primeById = PRIMES !== undefined
  ? new Map(
      fs
        .readFileSync(PRIMES, 'utf8')
        .split(/\r?\n/)
        .slice(1)
        .filter(Boolean)
        .map((l) => {
          const i = l.indexOf(',');
          return [l.slice(0, i), l.slice(i + 1).replace(/^"|"$/g, '').replace(/\s+/g, ' ')] as [string, string];
        }),
    )
  : undefined;

/** The three checks every pinned list gets: the record, one grape per VIVC number, colour only where stated. */
export function pinnedGrapeTests(pins: GrapePin[]) {
  const kb = () => sharedEngine().kb;
  test('pinned records: VIVC number and prime name cited to the passport, canonical name from the list', () => {
    for (const [key, name, id, prime, src] of pins) {
      const g = kbEntity(key);
      assert.equal(g.type, 'grape', key);
      assert.equal(g.review, 'reviewed', key);
      assert.equal(g.name, name, key);
      assert.equal(g.facts.vivc_id?.value, id, key);
      assert.equal(g.facts.vivc_id?.source, 'vivc', key);
      assert.equal(g.facts.vivc_id?.locator, passport(id), key);
      assert.equal(g.facts.vivc_prime_name?.value, prime, key);
      assert.match(g.notes ?? '', new RegExp(`source ${src} `), key);
      assert.ok(kb().sources.get(src), `${key}: source ${src} registered`);
      if (primeById) assert.equal(primeById.get(id), prime, `${key}: reference row for VIVC ${id}`);
    }
  });

  test('each VIVC number names one served grape only', () => {
    for (const [key, , id] of pins) {
      const holders = kb().entities.filter((x) => x.type === 'grape' && x.facts.vivc_id?.value === id).map((x) => x.key);
      assert.deepEqual(holders, [key], `VIVC ${id}`);
    }
  });

  test('berry colour only where the source states it, cited to that source', () => {
    for (const [key, , , , src, colour, colourSrc] of pins) {
      const c = kbEntity(key).facts.berry_colour;
      if (colour === '') {
        assert.equal(c, undefined, `${key}: the source gives no colour`);
      } else {
        assert.equal(c?.value, colour, key);
        assert.equal(c?.source, colourSrc ?? src, key);
      }
    }
  });
}
