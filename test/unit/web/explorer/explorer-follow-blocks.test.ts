// The explorer home's live list (web/explorer/follow-blocks.ts): a block announced while the page reads its window
// of recent blocks is shown, not lost between the reads and the subscription (issue 32).
import { describe, expect, it } from 'vitest';
import { followBlocks, type BlockFeed } from '../../../../web/explorer/follow-blocks.ts';

/** A node that announces one block per read it answers, to whoever is subscribed at that moment. */
function announcingNode(): { feed: BlockFeed<number>; read: (height: number) => Promise<number>; tip: () => number } {
  const listeners: ((height: number) => void)[] = [];
  let tip = 100;
  return {
    feed: { subscribe: async (listener) => listeners.push(listener) },
    read: async (height) => {
      tip++;
      for (const l of listeners) l(tip);
      return height;
    },
    tip: () => tip,
  };
}

describe('followBlocks', () => {
  it('shows every block from the window up to the newest, including those announced during the reads', async () => {
    const node = announcingNode();
    const shown = new Set<number>();
    const lowest = await followBlocks(
      node.feed,
      async () => {
        const latest = node.tip();
        for (let h = latest; h > latest - 5; h--) shown.add(await node.read(h));
        return latest - 4;
      },
      (h) => shown.add(h),
    );
    expect(lowest).toBe(96);
    for (let h = lowest; h <= node.tip(); h++) expect(shown.has(h)).toBe(true);
  });
});
