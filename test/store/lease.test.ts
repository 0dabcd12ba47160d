// Usage leases (src/store/lease.ts) on both adapters: several LeasedAccountStore instances over
// their own adapter instances on one database stand for several processes. Headroom is forced
// (minRate 1, short rate windows) so blocks are actually reserved ahead.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { LeasedAccountStore, DEFAULT_LEASE_OPTIONS, type LeaseOptions } from '../../src/store/lease.ts';
import type { AccountStore, LeaseGrant, LeaseReservation } from '../../src/store/ports.ts';
import { leaseHarness, sleep, steady, type Inner } from './lease-harness.ts';

const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 40, idleMs: 300, retryMs: 400 };
const PERIOD = new Date().toISOString().slice(0, 7);
const TODAY = new Date().toISOString().slice(0, 10);

/** Records every grant of an adapter (the reservation sizes the rule produced). */
function recording(inner: Inner) {
  const grants: (LeaseGrant & LeaseReservation)[] = [];
  const reserve = inner.reserveMonthly.bind(inner);
  inner.reserveMonthly = async (r) => {
    const g = await reserve(r);
    grants.push({ ...r, ...g });
    return g;
  };
  return grants;
}

for (const name of ['sqlite', 'postgres'] as const) {
  describe(`usage leases (${name})`, { timeout: 120_000 }, () => {
    const { open, admin, newKey } = leaseHarness(name, { dirPrefix: 'dis-lease-', file: 'leases.db', client: 'lease', opts: OPTS });

    /** Steady load on one store: `perTick` concurrent calls every 5 ms until `stop()`. */
    function drive(store: AccountStore, keyId: string, limit: number, perTick = 4) {
      let admitted = 0;
      let refused = 0;
      const stop = steady(async () => {
        const rs = await Promise.all(Array.from({ length: perTick }, () => store.consumeMonthly(keyId, PERIOD, limit)));
        for (const r of rs) r.admitted ? admitted++ : refused++;
      }, 5);
      return {
        get admitted() {
          return admitted;
        },
        get refused() {
          return refused;
        },
        stop,
      };
    }

    test('two holders under steady load: exactly the allowance admitted, blocks shrink to the waiting requests at the end, hand-back leaves usage = admitted', async () => {
      const limit = 600;
      const keyId = await newKey(limit);
      const innerA = open();
      const innerB = open();
      const grants = recording(innerA);
      const grantsB = recording(innerB);
      const A = new LeasedAccountStore(innerA, { ...OPTS, holder: 'A' });
      const B = new LeasedAccountStore(innerB, { ...OPTS, holder: 'B' });
      const a = drive(A as unknown as AccountStore, keyId, limit);
      const b = drive(B as unknown as AccountStore, keyId, limit);
      for (const deadline = Date.now() + 30_000; a.refused + b.refused < 40 && Date.now() < deadline; ) await sleep(20);
      await a.stop();
      await b.stop();
      // a retry on refusal waits for the other's idle hand-back: let both settle, then count
      await sleep(OPTS.retryMs + OPTS.idleMs);
      const all = [...grants, ...grantsB];
      assert.ok(all.some((g) => g.granted > g.need), 'headroom was reserved ahead');
      assert.equal(a.admitted + b.admitted, limit, `admitted ${a.admitted} + ${b.admitted}`);
      for (const g of all) {
        const left = Math.max(0, limit - g.before);
        const need = Math.min(g.need, left);
        assert.ok(g.granted - need <= Math.floor((left - need) / (OPTS.share * g.holders)), `headroom ${g.granted - need} with ${left} left, ${g.holders} holders`);
        assert.ok(g.granted - need <= OPTS.maxBlock);
      }
      // at the end (fewer left beyond the waiting requests than k × holders) nothing is reserved ahead
      const late = all.filter((g) => g.before < limit && limit - g.before - Math.min(g.need, limit - g.before) < OPTS.share * g.holders);
      assert.ok(late.length > 0, 'reservations near the end');
      for (const g of late) assert.equal(g.granted, Math.min(g.need, limit - g.before), `exact near the end: ${JSON.stringify(g)}`);
      await A.close();
      await B.close();
      assert.equal(await admin().getMonthly(keyId, PERIOD), limit);
      assert.deepEqual(await admin().dailyUsage(keyId, TODAY, TODAY), [{ day: TODAY, used: limit }]);
    });

    test('close() hands the unserved block back: stored usage equals the requests admitted', async () => {
      const keyId = await newKey(100_000);
      const inner = open();
      const L = new LeasedAccountStore(inner, { ...OPTS, idleMs: 60_000, maxAgeMs: 60_000 });
      const d = drive(L as unknown as AccountStore, keyId, 100_000);
      for (const deadline = Date.now() + 20_000; L.held().length === 0 && Date.now() < deadline; ) await sleep(5);
      await d.stop();
      const held = L.held().reduce((n, h) => n + h.free, 0);
      assert.ok(held > 0, 'a block is held');
      assert.equal(await admin().getMonthly(keyId, PERIOD), d.admitted + held, 'the stored count includes the unserved block');
      assert.equal(await L.getMonthly(keyId, PERIOD), d.admitted, 'this process reports its own block unserved');
      await L.close();
      assert.equal(await admin().getMonthly(keyId, PERIOD), d.admitted);
      assert.deepEqual(await admin().dailyUsage(keyId, TODAY, TODAY), [{ day: TODAY, used: d.admitted }]);
    });

    test('an idle block is handed back by itself', async () => {
      const keyId = await newKey(100_000);
      const L = new LeasedAccountStore(open(), { ...OPTS, idleMs: 200 });
      const d = drive(L as unknown as AccountStore, keyId, 100_000);
      await sleep(300);
      await d.stop();
      await sleep(600);
      assert.equal(L.held().length, 0);
      assert.equal(await admin().getMonthly(keyId, PERIOD), d.admitted);
      await L.close();
    });

    test('a crash strands at most one block: under-admits by it, never over-admits', async () => {
      const limit = 2000;
      const keyId = await newKey(limit);
      const crashed = new LeasedAccountStore(open(), { ...OPTS, idleMs: 60_000, maxAgeMs: 60_000 });
      const d = drive(crashed as unknown as AccountStore, keyId, limit);
      for (const deadline = Date.now() + 20_000; crashed.held().length === 0 && Date.now() < deadline; ) await sleep(5);
      await d.stop();
      const stranded = crashed.held().reduce((n, h) => n + h.free, 0);
      assert.ok(stranded > 0 && stranded <= OPTS.maxBlock, `stranded ${stranded}`);
      // "crash": never closed, never handed back; a second process takes over the key
      const next = new LeasedAccountStore(open(), { ...OPTS, holder: 'next' });
      const e = drive(next as unknown as AccountStore, keyId, limit, 8);
      for (const deadline = Date.now() + 30_000; e.refused < 20 && Date.now() < deadline; ) await sleep(20);
      await e.stop();
      await sleep(OPTS.retryMs + OPTS.idleMs);
      assert.equal(d.admitted + e.admitted, limit - stranded, 'admitted = allowance less the stranded block');
      await next.close();
      assert.equal(await admin().getMonthly(keyId, PERIOD), limit, 'the stranded block stays counted');
    });

    test('refunds go back to the local block; a plan change hands the old block back and takes effect at once', async () => {
      const keyId = await newKey(1000);
      const L = new LeasedAccountStore(open(), { ...OPTS, idleMs: 60_000, maxAgeMs: 60_000 });
      const d = drive(L as unknown as AccountStore, keyId, 1000);
      for (const deadline = Date.now() + 20_000; L.held().length === 0 && Date.now() < deadline; ) await sleep(5);
      await d.stop();
      const before = await admin().getMonthly(keyId, PERIOD);
      await L.refundMonthly(keyId, PERIOD);
      await L.refundMonthly(keyId, PERIOD);
      assert.equal(await admin().getMonthly(keyId, PERIOD), before, 'no store write for a refund into the block');
      assert.equal(await L.getMonthly(keyId, PERIOD), d.admitted - 2);
      // the plan now allows fewer than already served: refused, and the old block goes back
      const r = await L.consumeMonthly(keyId, PERIOD, 5);
      assert.equal(r.admitted, false);
      await sleep(100);
      assert.equal(L.held().length, 0);
      assert.equal(await admin().getMonthly(keyId, PERIOD), d.admitted - 2);
      // and a higher limit admits again, counted against the same month
      assert.equal((await L.consumeMonthly(keyId, PERIOD, 5000)).admitted, true);
      await L.close();
      assert.equal(await admin().getMonthly(keyId, PERIOD), d.admitted - 1);
    });

    test('below minRate nothing is reserved ahead: each request counted as it comes', async () => {
      const keyId = await newKey(1000);
      const inner = open();
      const grants = recording(inner);
      const L = new LeasedAccountStore(inner, { ...DEFAULT_LEASE_OPTIONS, minRate: 1_000_000 });
      for (let i = 0; i < 20; i++) await L.consumeMonthly(keyId, PERIOD, 1000);
      assert.equal(await admin().getMonthly(keyId, PERIOD), 20);
      assert.ok(grants.every((g) => g.granted === g.need));
      await L.close();
    });
  });
}
