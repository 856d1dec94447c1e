/**
 * The explorer home's live block list: subscribe to new_blocks first, then read the window of recent blocks. Read
 * first and subscribe after, a block announced while the twenty-odd reads ran was never shown (a hole in the list
 * and in the DAG, issue 32); subscribed first, it arrives through the subscription and the reads' own copies of
 * blocks it already holds are dropped by `add` (it keeps one row per hash).
 */
export interface BlockFeed<B> {
  subscribe(listener: (block: B) => void): Promise<unknown>;
}

/** Returns what `loadWindow` returns (the lowest height it read). */
export async function followBlocks<B>(feed: BlockFeed<B>, loadWindow: () => Promise<number>, add: (block: B) => void): Promise<number> {
  await feed.subscribe(add);
  return loadWindow();
}
