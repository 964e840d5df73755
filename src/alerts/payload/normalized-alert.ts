import type { Severity } from '../model.js';

/** One alert as every parser produces it; the processing step knows nothing of payload formats. */
export interface NormalizedAlert {
  title: string;
  description: string | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  severity: Severity;
  startedAt: number;
  /** Set when the payload says the alert ended: it is a recovery alert. */
  endedAt: number | null;
  fingerprint: string | null;
  environmentName: string | null;
  /** The payload this alert came from (for Alertmanager, that alert's own object). */
  payload: unknown;
}
