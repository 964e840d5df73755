// A row's `settings` column: a JSON object as text (accounts' stored-settings.ts writes it). Read as
// an object; anything else — absent, malformed, not an object — reads as no settings.
export function parseStored(json: string | null | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
