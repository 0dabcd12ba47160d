// Usage leases at UTC midnight (issue 24, item 7.9; src/store/lease.ts). A block is counted in the
// monthly row and in the day's row when it is reserved; README "Prefetch" and "Hand-back": a block
// never spans two day rows, it is handed back "at the end of the UTC day", and no prefetch is made in
// the day's last 5 s. The lease reads the clock itself (Date.now()), with no hook, and the SQLite
// adapter dates its day rows with new Date(): so the test moves the process's Date with node:test's
// MockTimers (Date only; timers, SQLite and the sweep run for real). PostgreSQL is not covered here:
// it dates day rows by the database server's clock (now() AT TIME ZONE 'UTC'), which a test cannot move.
import { test, describe, mock, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LEASE_OPTIONS, type LeasedAccountStore, type LeaseOptions } from '../../src/store/lease.ts';
import { leaseHarness } from './lease-harness.ts';
import { until } from '../services.ts';

// headroom forced (minRate 1 over 50 ms windows); idle and age hand-backs out of the way (60 s), so
// the day's end is the only reason a block goes back in these tests
const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 40, idleMs: 60_000, maxAgeMs: 60_000, retryMs: 400, prefetchAt: 0 };
const LIMIT = 100_000;

const setClock = (iso: string) => mock.timers.setTime(Date.parse(iso));

/** Sequential requests, the clock moved 10 ms after each, until `stop` says so (at most `max`). */
async function serve(L: LeasedAccountStore, keyId: string, period: string, max: number, stop: () => boolean = () => false) {
  let admitted = 0;
  for (let i = 0; i < max && !stop(); i++) {
    const r = await L.consumeMonthly(keyId, period, LIMIT);
    assert.equal(r.admitted, true);
    admitted++;
    mock.timers.tick(10);
  }
  return admitted;
}

const heldFor = (L: LeasedAccountStore, period: string) => L.held().filter((h) => h.period === period).reduce((n, h) => n + h.free, 0);

describe('usage leases at UTC midnight (sqlite)', { timeout: 60_000 }, () => {
  const { lease, admin, newKey } = leaseHarness('sqlite', { dirPrefix: 'dis-lease-cal-', file: 'leases.db', client: 'lease-calendar', opts: OPTS });
  afterEach(() => mock.timers.reset());

  test('a block reserved before midnight serves until 23:59:59.999 and not after: its remainder goes back to its own day row', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.parse('2027-05-12T23:59:50.000Z') });
    const keyId = await newKey(LIMIT);
    const L = lease();
    // until a block is held (the rate is measured first), then a few more from it
    let servedD = await serve(L, keyId, '2027-05', 200, () => heldFor(L, '2027-05') > 0);
    const block = heldFor(L, '2027-05');
    assert.ok(block > 5, `a block of headroom is held (${block})`);
    servedD += await serve(L, keyId, '2027-05', 3);
    // stored now: what was served plus the block's unserved remainder, all on 12 May
    const before = block - 3;
    assert.equal(heldFor(L, '2027-05'), before);
    assert.deepEqual(await admin().dailyUsage(keyId, '2027-05-12', '2027-05-13'), [{ day: '2027-05-12', used: servedD + before }]);

    // the last millisecond of the day is still served from the block, with no store call
    setClock('2027-05-12T23:59:59.999Z');
    const reservations = L.stats.reservations;
    assert.equal((await L.consumeMonthly(keyId, '2027-05', LIMIT)).admitted, true);
    servedD++;
    assert.equal(L.stats.reservations, reservations, 'served from the block');
    assert.equal(heldFor(L, '2027-05'), before - 1);

    // midnight: the block serves nothing more; its remainder goes back to 12 May, the request is counted on 13 May
    setClock('2027-05-13T00:00:00.000Z');
    assert.equal((await L.consumeMonthly(keyId, '2027-05', LIMIT)).admitted, true);
    assert.ok(L.stats.reservations > reservations, 'a new reservation, not the old block');
    const rows = await admin().dailyUsage(keyId, '2027-05-12', '2027-05-13');
    assert.deepEqual(rows, [{ day: '2027-05-12', used: servedD }, { day: '2027-05-13', used: 1 + heldFor(L, '2027-05') }]);
    await L.close();
    assert.deepEqual(await admin().dailyUsage(keyId, '2027-05-12', '2027-05-13'), [{ day: '2027-05-12', used: servedD }, { day: '2027-05-13', used: 1 }]);
    assert.equal(await admin().getMonthly(keyId, '2027-05'), servedD + 1, 'the day rows add up to the month');
  });

  test('with no request after midnight, the last block of the month is handed back by itself; the new month starts on its own rows', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.parse('2027-05-31T23:59:58.000Z') });
    const keyId = await newKey(LIMIT);
    const L = lease();
    const servedMay = await serve(L, keyId, '2027-05', 200, () => heldFor(L, '2027-05') > 0);
    assert.ok(heldFor(L, '2027-05') > 0, 'a block is held at 23:59:58');
    assert.equal(await admin().getMonthly(keyId, '2027-05'), servedMay + heldFor(L, '2027-05'));

    setClock('2027-06-01T00:00:00.000Z');
    // the sweep (a real timer) finds the block past its day's end and hands it back
    await until('the May block handed back', 5000, () => heldFor(L, '2027-05') === 0);
    await until('the hand-back applied', 5000, async () => (await admin().getMonthly(keyId, '2027-05')) === servedMay);
    assert.deepEqual(await admin().dailyUsage(keyId, '2027-05-31', '2027-06-01'), [{ day: '2027-05-31', used: servedMay }]);

    // the gateway asks for June from now on: counted in June's month and day rows only
    assert.equal((await L.consumeMonthly(keyId, '2027-06', LIMIT)).admitted, true);
    await L.close();
    assert.equal(await admin().getMonthly(keyId, '2027-06'), 1);
    assert.equal(await admin().getMonthly(keyId, '2027-05'), servedMay);
    assert.deepEqual(await admin().dailyUsage(keyId, '2027-05-31', '2027-06-01'), [{ day: '2027-05-31', used: servedMay }, { day: '2027-06-01', used: 1 }]);
  });

  test('no prefetch in the day\'s last 5 s: at 23:59:50 a block at its low-water mark prefetches, at 23:59:55.5 it does not', async () => {
    const prefetches = async (startIso: string) => {
      mock.timers.enable({ apis: ['Date'], now: Date.parse(startIso) });
      try {
        const keyId = await newKey(LIMIT);
        const L = lease({ prefetchAt: 0.25 });
        await serve(L, keyId, startIso.slice(0, 7), 200, () => heldFor(L, startIso.slice(0, 7)) > 0);
        const granted = heldFor(L, startIso.slice(0, 7));
        assert.ok(granted >= 8, `a block held (${granted})`);
        // serve it down past its low-water mark (a quarter of the grant), staying within 1 s of the start
        await serve(L, keyId, startIso.slice(0, 7), granted - 1);
        // a prefetch started on the way returns in the background
        await new Promise((r) => setTimeout(r, 300));
        const n = L.stats.prefetches;
        await L.close();
        return { n, end: new Date().toISOString() };
      } finally {
        mock.timers.reset();
      }
    };
    const early = await prefetches('2027-08-20T23:59:50.000Z');
    assert.ok(early.n >= 1, `a prefetch at ${early.end}`);
    const late = await prefetches('2027-08-20T23:59:55.500Z');
    assert.ok(late.end < '2027-08-21', `still the same day (${late.end})`);
    assert.equal(late.n, 0, 'no prefetch within 5 s of midnight');
  });
});
