/**
 * Block locators over the virtual selected chain and the headers a syncing peer is owed (docs/p2p.md "Initial
 * sync"). A locator lists selected-chain hashes from the tip down, one apart for the first ten, then doubling the
 * step (Bitcoin's shape), always ending at genesis: 64 entries reach any height. The server answers from the
 * highest locator entry that is on *its* selected chain, walking up its chain and emitting, for each chain block,
 * its mergeset (minus the selected parent, already sent) in GHOSTDAG order and then the block itself — exactly
 * past(tip) \ past(fork), parents before children. Pages end on a chain block, so the last header of a page is a
 * valid continuation point for the next locator.
 */
import { encodedHeaderBytes, type BlockHeader } from '../codec/header.ts';
import type { Chain } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { toHex } from '../util/bytes.ts';
import { p2pHeadersPerMessageMax, p2pLocatorHashesMax, p2pMessageBytesMax } from './limits.ts';

/** Entries spaced one apart at the tip before the step starts doubling. */
const locatorDenseEntries = 10;

export function buildLocator(chain: Chain, from: IndexedBlock = chain.selectedTip()): Uint8Array[] {
  const out: Uint8Array[] = [];
  let height = from.height;
  let step = 1;
  while (height > 0 && out.length < p2pLocatorHashesMax - 1) {
    const block = height === from.height ? from : chain.blockAtHeight(height);
    if (block) out.push(block.hash);
    if (out.length >= locatorDenseEntries) step *= 2;
    height -= step;
  }
  out.push(chain.genesis.hash);
  return out;
}

/** The highest locator entry on our virtual selected chain; genesis when none is (a peer on our network shares it). */
function findForkPoint(chain: Chain, locator: readonly Uint8Array[]): IndexedBlock {
  for (const hash of locator) {
    const block = chain.get(toHex(hash));
    if (block && chain.blockAtHeight(block.height)?.id === block.id) return block;
  }
  return chain.genesis;
}

export interface HeadersPage {
  readonly headers: BlockHeader[];
  readonly more: boolean;
}

/**
 * Bytes of headers one page may carry: a message's cap less room for its type, count and flag. Version 2 headers vary
 * in size (docs/pruning-proof.md "Header version 2"), so a page of p2pHeadersPerMessageMax of them could overrun it.
 */
const headersPageBytesMax = p2pMessageBytesMax - 1024;

/**
 * The headers after the fork point along our selected chain, in whole chain-block units, at most `max` of them and
 * `maxBytes` of encoding (a page always holds at least one unit).
 */
export function collectHeaders(chain: Chain, locator: readonly Uint8Array[], stop: Uint8Array, max: number = p2pHeadersPerMessageMax, maxBytes: number = headersPageBytesMax): HeadersPage {
  const fork = findForkPoint(chain, locator);
  const stopId = stop.every((b) => b === 0) ? undefined : toHex(stop);
  const tipHeight = chain.selectedTip().height;
  const headers: BlockHeader[] = [];
  let bytes = 0;
  for (let height = fork.height + 1; height <= tipHeight; height++) {
    const block = chain.blockAtHeight(height);
    if (!block) break;
    const mergeset = chain.engine.orderedMergeset(block.id).slice(1);
    if (headers.length + mergeset.length + 1 > max) return { headers, more: true };
    const unit = [...mergeset.map((id) => chain.get(id)!.header), block.header];
    const unitBytes = unit.reduce((sum, h) => sum + encodedHeaderBytes(h), 0);
    if (headers.length > 0 && bytes + unitBytes > maxBytes) return { headers, more: true };
    bytes += unitBytes;
    headers.push(...unit);
    if (block.id === stopId) return { headers, more: false };
  }
  return { headers, more: false };
}
