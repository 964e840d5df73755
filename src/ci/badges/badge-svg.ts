// The status badges' picture (GitLab's badge.svg and Gitlab::Ci::Badge templates): a grey key with
// the badge's name and a coloured value, 20 px high, the key 62 px wide unless the request asks for
// another width (1 to 512), the key text replaceable by up to 64 characters.
export const MAX_KEY_TEXT = 64;
export const MAX_KEY_WIDTH = 512;

export interface Badge {
  keyText: string;
  keyWidth: number;
  valueText: string;
  valueWidth: number;
  valueColor: string;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The key text and width asked for (`key_text`, `key_width`), or the defaults when out of range. */
export function keyOf(query: Record<string, unknown>, defaultText: string): { keyText: string; keyWidth: number } {
  const text = typeof query.key_text === 'string' && query.key_text.length <= MAX_KEY_TEXT ? query.key_text : defaultText;
  const width = typeof query.key_width === 'string' && /^\d+$/.test(query.key_width) ? Number(query.key_width) : 0;
  return { keyText: text, keyWidth: width >= 1 && width <= MAX_KEY_WIDTH ? width : 62 };
}

export function badgeSvg(badge: Badge): string {
  const width = badge.keyWidth + badge.valueWidth;
  const keyAnchor = badge.keyWidth / 2;
  const valueAnchor = badge.keyWidth + badge.valueWidth / 2;
  const key = escapeXml(badge.keyText);
  const value = escapeXml(badge.valueText);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20">`,
    '<linearGradient id="shade" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<mask id="round"><rect width="${width}" height="20" rx="3" fill="#fff"/></mask>`,
    '<g mask="url(#round)">',
    `<path fill="#555" d="M0 0h${badge.keyWidth}v20H0z"/>`,
    `<path fill="${badge.valueColor}" d="M${badge.keyWidth} 0h${badge.valueWidth}v20H${badge.keyWidth}z"/>`,
    `<path fill="url(#shade)" d="M0 0h${width}v20H0z"/>`,
    '</g>',
    '<g fill="#fff" text-anchor="middle" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" font-size="11">',
    `<text x="${keyAnchor}" y="15" fill="#010101" fill-opacity=".3">${key}</text><text x="${keyAnchor}" y="14">${key}</text>`,
    `<text x="${valueAnchor}" y="15" fill="#010101" fill-opacity=".3">${value}</text><text x="${valueAnchor}" y="14">${value}</text>`,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
