// Core pieces on their own: the lifecycle table, ProtoJSON input forms, canonical JSON (RFC 8785) and the stream
// hub's per-subscriber queues.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/a2a/card.ts';
import { parseRole, parseTaskState } from '../../../src/a2a/protojson.ts';
import { canTransition, closesStream, isTerminal, transitions } from '../../../src/a2a/state-machine.ts';
import { createStreamHub } from '../../../src/a2a/stream-hub.ts';
import { taskStates, type StreamResponse } from '../../../src/a2a/types.ts';

describe('task lifecycle', () => {
  it('never leaves a terminal state and never re-enters SUBMITTED', () => {
    for (const from of taskStates) {
      for (const to of taskStates) {
        if (isTerminal(from)) expect(canTransition(from, to)).toBe(false);
        if (to === 'TASK_STATE_SUBMITTED' && from !== 'TASK_STATE_SUBMITTED') expect(canTransition(from, to)).toBe(false);
      }
    }
  });

  it('lets interrupted states resume as WORKING and be canceled, and closes streams on terminal and interrupted states', () => {
    expect(transitions.TASK_STATE_INPUT_REQUIRED).toContain('TASK_STATE_WORKING');
    expect(transitions.TASK_STATE_AUTH_REQUIRED).toContain('TASK_STATE_CANCELED');
    expect(canTransition('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_COMPLETED')).toBe(false);
    expect(taskStates.filter(closesStream)).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_REJECTED', 'TASK_STATE_AUTH_REQUIRED']);
  });
});

describe('ProtoJSON input forms', () => {
  it('reads 1.0 names, the seed’s lowercase forms, 0.3 hyphenated names and enum numbers', () => {
    expect(parseTaskState('TASK_STATE_WORKING')).toBe('TASK_STATE_WORKING');
    expect(parseTaskState('submitted')).toBe('TASK_STATE_SUBMITTED');
    expect(parseTaskState('input-required')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(parseTaskState(8)).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(parseTaskState('TASK_STATE_UNSPECIFIED')).toBeUndefined();
    expect(parseTaskState('done')).toBeUndefined();
    expect(parseRole('user')).toBe('ROLE_USER');
    expect(parseRole('ROLE_AGENT')).toBe('ROLE_AGENT');
    expect(parseRole('admin')).toBeUndefined();
  });
});

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys, drops undefined, and parses back to the same value', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, d: { z: 0.5, y: 'é' } })).toBe('{"a":[true,null,"x"],"b":1,"d":{"y":"é","z":0.5}}');
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});

describe('stream hub', () => {
  const ev = (i: number): StreamResponse => ({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', timestamp: String(i) } } });

  it('gives every subscriber the same events in order and ends them after the last', async () => {
    const hub = createStreamHub();
    const a = hub.subscribe('t', [ev(0)]);
    const b = hub.subscribe('t', []);
    hub.publish('t', ev(1), false);
    hub.publish('t', ev(2), true);
    const read = async (s: AsyncIterable<StreamResponse>) => {
      const out: string[] = [];
      for await (const e of s) out.push(('statusUpdate' in e && e.statusUpdate.status.timestamp) || '');
      return out;
    };
    expect(await read(a)).toEqual(['0', '1', '2']);
    expect(await read(b)).toEqual(['1', '2']);
    expect(hub.streams('t')).toBe(0);
  });

  it('cuts off a subscriber that falls too far behind without touching the others', async () => {
    const hub = createStreamHub(3);
    const slow = hub.subscribe('t', []);
    for (let i = 0; i < 5; i++) hub.publish('t', ev(i), false);
    const got: StreamResponse[] = [];
    for await (const e of slow) got.push(e);
    expect(got).toHaveLength(3);
    const fresh = hub.subscribe('t', []);
    hub.publish('t', ev(9), true);
    const after: StreamResponse[] = [];
    for await (const e of fresh) after.push(e);
    expect(after).toHaveLength(1);
  });
});
