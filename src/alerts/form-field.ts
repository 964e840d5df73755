// Shared by the alert pages' form handlers.

/** A form field as one string ('' when missing or repeated). */
export function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}
