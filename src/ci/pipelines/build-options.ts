// What a CI job row keeps of its definition (`ci_builds.options`, JSON): the parsed job after its rule
// applied, read back when a runner takes the job (the payload) and when the pipeline is processed.
import type { CiJobDefinition } from '../config/parse-config.js';

export type BuildOptions = CiJobDefinition;

export function readOptions(text: string | null): BuildOptions | null {
  return text ? (JSON.parse(text) as BuildOptions) : null;
}
