import { describe, expect, it } from 'vitest';
import { UnknownTxKindError } from '../../../src/kinds/errors.ts';
import { registerTxKind, txKindModule } from '../../../src/kinds/registry.ts';
import { transferKind } from '../../../src/kinds/transfer.ts';

describe('the kind registry is a pure table', () => {
  it('knows every built-in kind by a distinct tag, and refuses the others', () => {
    const names = new Map<string, number>();
    for (let tag = 0; tag <= 0xff; tag++) {
      try {
        const module = txKindModule(tag);
        expect(module.tag).toBe(tag);
        expect(names.has(module.name), `${module.name} registered twice`).toBe(false);
        names.set(module.name, tag);
      } catch (e) {
        expect(e).toBeInstanceOf(UnknownTxKindError);
      }
    }
    expect(names.get('transfer')).toBe(transferKind.tag);
    expect(names.size).toBeGreaterThanOrEqual(18);
  });

  it('refuses a second module for a taken tag, and a throw-away kind leaves when its test is done', () => {
    expect(() => registerTxKind({ ...transferKind, name: 'impostor' })).toThrow(/already registered/);
    const free = [...Array(256).keys()].find((tag) => { try { txKindModule(tag); return false; } catch { return true; } })!;
    const remove = registerTxKind({ ...transferKind, tag: free, name: 'throw-away' });
    expect(txKindModule(free).name).toBe('throw-away');
    remove();
    expect(() => txKindModule(free)).toThrow(UnknownTxKindError);
  });
});
