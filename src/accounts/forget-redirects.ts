// A deleted project or namespace leaves no redirect behind.
import type { Executor } from '../platform/db/database.js';
import type { RedirectSource } from './record-redirects.js';

export async function forgetRedirects(executor: Executor, source: RedirectSource): Promise<void> {
  await executor.deleteFrom('redirect_routes').where('source_type', '=', source.type).where('source_id', '=', source.id).execute();
}
