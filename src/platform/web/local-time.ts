// A moment shown in the reader's time zone (their preference), with the exact UTC time in the
// markup for machines and screen readers that want it.
import { html, type Html } from './html.js';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    formats.set(zone, format);
  }
  return format;
}

export function localTime(ms: number, zone: string): Html {
  return html`<time datetime="${new Date(ms).toISOString()}">${formatOf(zone).format(ms)}</time>`;
}
