// The page's mirror (web/light/chain-mirror.ts) keeps the selected chain by height as the Worker's tip moves,
// a reorganisation included, and is empty until the Worker's first message.
import { describe, expect, it } from 'vitest';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { createChainMirror } from '../../../../web/light/chain-mirror.ts';
import type { MirrorBlock } from '../../../../web/light/worker/protocol.ts';

const block = (id: string, selectedParent: string | null, height: number, seq: number): MirrorBlock => ({
  id, hash: new Uint8Array(32), headerBytes: new Uint8Array(0), selectedParent, height, seq,
  mergeset: { selectedParent, mergesetBlues: selectedParent ? [selectedParent] : [], mergesetReds: [] },
});

describe('chain mirror', () => {
  it('is empty until the first message, then follows the tip across a reorganisation', () => {
    const mirror = createChainMirror(regtestParams);
    expect(mirror.has('g')).toBe(false);
    expect(mirror.count()).toBe(0);
    expect(() => mirror.selectedTip()).toThrow(/not sent its chain/);

    const g = block('g', null, 0, 0);
    mirror.apply({ type: 'blocks', reset: { genesis: g, joinedAt: null }, blocks: [g], tip: 'g' });
    mirror.apply({ type: 'blocks', blocks: [block('a1', 'g', 1, 1), block('a2', 'a1', 2, 2)], tip: 'a2' });
    expect([1, 2].map((h) => mirror.blockAtHeight(h)?.id)).toEqual(['a1', 'a2']);

    mirror.apply({ type: 'blocks', blocks: [block('b1', 'g', 1, 3), block('b2', 'b1', 2, 4), block('b3', 'b2', 3, 5)], tip: 'b3' });
    expect([0, 1, 2, 3].map((h) => mirror.blockAtHeight(h)?.id)).toEqual(['g', 'b1', 'b2', 'b3']);
    expect(mirror.get('b3')?.skip?.id).toBe('b1'); // skipHeight(3) = 1
    expect(mirror.has('a2')).toBe(true); // side blocks stay known

    mirror.apply({ type: 'blocks', blocks: [block('a3', 'a2', 3, 6), block('a4', 'a3', 4, 7)], tip: 'a4' });
    expect([1, 2, 3, 4].map((h) => mirror.blockAtHeight(h)?.id)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(mirror.selectedTip().id).toBe('a4');
    expect(mirror.mergeset('a4')?.mergesetBlues).toEqual(['a3']);
    expect(mirror.count()).toBe(8);
  });

  it('starts over on a reset: a join leaves only the trusted blocks and what follows', () => {
    const mirror = createChainMirror(regtestParams);
    const g = block('g', null, 0, 0);
    mirror.apply({ type: 'blocks', reset: { genesis: g, joinedAt: null }, blocks: [g, block('a1', 'g', 1, 1)], tip: 'a1' });
    // Trusted blocks from height 40, the lowest with its selected parent below the set.
    mirror.apply({ type: 'blocks', reset: { genesis: g, joinedAt: 'p' }, blocks: [block('t', 'below', 40, 1), block('p', 't', 41, 2)], tip: 'p' });
    expect(mirror.has('a1')).toBe(false);
    expect(mirror.has('g')).toBe(false);
    expect(mirror.genesis.id).toBe('g');
    expect(mirror.joinedAt()?.id).toBe('p');
    expect(mirror.get('t')?.selectedParent).toBeNull();
    expect([39, 40, 41].map((h) => mirror.blockAtHeight(h)?.id)).toEqual([undefined, 't', 'p']);
  });
});
