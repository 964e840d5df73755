// What an access decision depends on besides the data and who asks: the day, because memberships
// expire by the day (members.expires_at is a date; a membership ends at the end of it).
import { DAY_MS } from '../clock.js';

/** Today's date as members.expires_at compares it; a membership expires at the end of its date. */
export function today(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

// Asked on most requests (membership expiry): formatting a date each time showed in profiles. One
// pure value, the same for every app of the process.
let lastDay = { day: Number.NaN, text: '' };
