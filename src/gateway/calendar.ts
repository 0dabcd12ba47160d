// Calendar months in UTC, kept until the clock leaves them, so a request builds no dates (a leaf
// module of the gateway: it imports only the store's ports).
import { monthBounds, monthPeriod } from '../store/ports.ts';

/** The calendar month (UTC) holding `t` (epoch ms): its start, its end (exclusive) and its period label. */
let month = { start: 0, end: -1, period: '' };
export function monthOf(t: number) {
  if (!(t >= month.start && t < month.end)) {
    const now = new Date(t);
    const b = monthBounds(now);
    month = { start: b.start.getTime(), end: b.end.getTime(), period: monthPeriod(now) };
  }
  return month;
}

/** Seconds in the calendar month (UTC) of `d`, kept until the clock leaves that month. */
let seconds = { start: 0, end: -1, seconds: 0 };
export function secondsOfMonth(d: Date): number {
  const t = d.getTime();
  if (!(t >= seconds.start && t < seconds.end)) {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    seconds = { start, end, seconds: Math.round((end - start) / 1000) };
  }
  return seconds.seconds;
}
