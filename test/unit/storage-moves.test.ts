import { describe, expect, it } from 'vitest';
import { humanState, isFinal, transition, sourcesOf, MOVE_STATES, type MoveEvent, type MoveState } from '../../src/repositories/move-states.js';
import { pickShard } from '../../src/repositories/shards.js';

describe('storage move transitions', () => {
  const table: Array<[MoveState, MoveEvent, MoveState | null, 'set' | 'clear' | null]> = [
    ['initial', 'schedule', 'scheduled', 'set'],
    ['scheduled', 'start', 'started', null],
    ['started', 'finish_replication', 'replicated', 'clear'],
    ['replicated', 'finish_cleanup', 'finished', null],
    ['initial', 'fail', 'failed', 'clear'],
    ['scheduled', 'fail', 'failed', 'clear'],
    ['started', 'fail', 'failed', 'clear'],
    ['replicated', 'fail', 'cleanup_failed', null],
    ['finished', 'fail', null, null],
    ['failed', 'start', null, null],
    ['scheduled', 'finish_replication', null, null],
    ['started', 'finish_cleanup', null, null],
    ['cleanup_failed', 'finish_cleanup', null, null],
  ];
  for (const [from, event, to, readOnly] of table) {
    it(`${from} --${event}--> ${to ?? 'refused'}`, () => {
      const step = transition(from, event);
      expect(step?.to ?? null).toBe(to);
      if (step) expect(step.readOnly).toBe(readOnly);
    });
  }

  it('every failure before replication clears read-only, so no group stays read-only', () => {
    for (const from of sourcesOf('fail')) {
      const step = transition(from, 'fail')!;
      if (step.to === 'failed') expect(step.readOnly).toBe('clear');
    }
  });

  it('final states accept no event but nothing', () => {
    for (const state of MOVE_STATES.filter(isFinal)) {
      for (const event of ['schedule', 'start', 'finish_replication', 'finish_cleanup', 'fail'] as MoveEvent[]) expect(transition(state, event)).toBeNull();
    }
  });

  it('prints GitLab human state names', () => {
    expect(humanState('cleanup_failed')).toBe('cleanup failed');
    expect(humanState('scheduled')).toBe('scheduled');
  });
});

describe('pickShard', () => {
  const shards = [
    { name: 'a', path: '/a', weight: 10 },
    { name: 'b', path: '/b', weight: 0 },
    { name: 'c', path: '/c', weight: 30 },
  ];
  const cases: Array<[number, string]> = [
    [0, 'a'],
    [9, 'a'],
    [10, 'c'],
    [39, 'c'],
  ];
  for (const [roll, name] of cases) it(`roll ${roll} → ${name}`, () => expect(pickShard(shards, roll).name).toBe(name));

  it('never picks a shard of weight 0 when others have weight', () => {
    for (let i = 0; i < 200; i += 1) expect(pickShard(shards).name).not.toBe('b');
  });

  it('uses the first shard when every weight is 0', () => {
    expect(pickShard([{ name: 'x', path: '/x', weight: 0 }, { name: 'y', path: '/y', weight: 0 }]).name).toBe('x');
  });
});
