// Growth (bench/scenarios/growth.ts) on PostgreSQL: the same issues, endpoints and goal on a fresh database.
import type { BenchScenario } from '../scenario.js';
import { scenario as growth } from './growth.js';

export const scenario: BenchScenario = { ...growth, name: 'growth-postgres', database: 'postgres' };

export default scenario;
