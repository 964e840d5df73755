// Publishing wakes the job worker only when a listener enqueued a job: an event nobody turns into a
// job (a new alert on a project without hooks, chat or mail) must not make the worker claim in vain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { DomainEvents } from '../../src/platform/domain-events.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { inTransaction } from '../../src/platform/db/database.js';

let kiln: TestKiln;
beforeAll(async () => {
  kiln = await testKiln();
});
afterAll(async () => {
  await kiln.close();
});

const event = { kind: 'alert.created' as const, projectId: 1, actorId: null, alertId: 1 };
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('DomainEvents wakes the worker', () => {
  it('not when the listeners enqueued nothing', async () => {
    let wakes = 0;
    const events = new DomainEvents(() => (wakes += 1));
    events.on('alert.created', async () => undefined);
    await inTransaction(kiln.deps.db, (trx) => events.publish(trx, event));
    await settle();
    expect(wakes).toBe(0);
  });

  it('once per burst when a listener enqueued a job', async () => {
    let wakes = 0;
    const events = new DomainEvents(() => (wakes += 1));
    events.on('alert.created', (tx) => enqueue(tx, kiln.deps.clock, 'domain-events.test', {}));
    await inTransaction(kiln.deps.db, async (trx) => {
      await events.publish(trx, event);
      await events.publish(trx, event);
    });
    await settle();
    expect(wakes).toBe(1);
  });
});
