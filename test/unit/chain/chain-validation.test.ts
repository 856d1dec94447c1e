// One test per consensus rule: each block breaks exactly that rule (every other field derived correctly, PoW
// ground afresh), is refused with the rule's coded error, and leaves the chain unchanged.
import { describe, expect, it } from 'vitest';
import { openChain, type Chain } from '../../../src/chain/chain.ts';
import { BlockRuleError, type BlockRule } from '../../../src/chain/errors.ts';
import type { Block } from '../../../src/codec/block.ts';
import { blockHash, compactToTarget, prePowHash, searchNonce, targetToCompact } from '../../../src/consensus/pow.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { easyParams, grind, makeBlock } from '../../helpers/chain-fixtures.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';

const params = easyParams({ mergesetSizeLimit: 4 });

async function freshChain(p: NetworkParams = params): Promise<{ chain: Chain; clock: ReturnType<typeof createManualClock> }> {
  const clock = createManualClock(p.genesis.timestampMs + 3_600_000);
  const chain = await openChain({ params: p, store: createMemoryStore(), clock });
  return { chain, clock };
}

async function expectRule(chain: Chain, block: Block, rule: BlockRule): Promise<void> {
  const before = { blocks: chain.blockCount(), tip: chain.selectedTip().id, orphans: chain.orphanCount() };
  const error = await chain.addBlock(block).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlockRuleError);
  expect((error as BlockRuleError).rule).toBe(rule);
  expect((error as BlockRuleError).code).toBe(-32000);
  expect({ blocks: chain.blockCount(), tip: chain.selectedTip().id, orphans: chain.orphanCount() }).toEqual(before);
}

describe('block validation pipeline', () => {
  it('accepts a correctly derived block (the control case)', async () => {
    const { chain } = await freshChain();
    const result = await chain.addBlock(makeBlock(chain));
    expect(result.status).toBe('accepted');
    expect(chain.selectedTip().height).toBe(1);
  });

  const headerCases: Array<[BlockRule, Parameters<typeof makeBlock>[1]]> = [
    // These params are devnet's, version 2: a version 1 header (without the version 2 fields) is refused.
    ['header.version', { mutate: ({ levelParents: _runs, pruningPoint: _point, ...h }) => ({ ...h, version: 1 }), grind: false }],
    ['header.parents.missing', { mutate: (h) => ({ ...h, parents: [] }), grind: false }],
    ['header.parents.too-many', { mutate: (h) => ({ ...h, parents: Array.from({ length: 11 }, (_, i) => new Uint8Array(32).fill(i + 1)) }), grind: false }],
    ['header.parents.unsorted', { mutate: (h) => ({ ...h, parents: [new Uint8Array(32).fill(9), new Uint8Array(32).fill(3)] }), grind: false }],
    ['header.miner.invalid', { mutate: (h) => ({ ...h, miner: new Uint8Array(33).fill(7) }), grind: false }],
    ['header.bits.invalid', { mutate: (h) => ({ ...h, bits: 0x2100ffff }) }],
  ];
  for (const [rule, options] of headerCases) {
    it(`refuses a block breaking ${rule}`, async () => {
      const { chain } = await freshChain();
      await expectRule(chain, makeBlock(chain, options), rule);
    });
  }

  it('refuses a block breaking header.timestamp.future', async () => {
    const { chain, clock } = await freshChain();
    await expectRule(chain, makeBlock(chain, { timestampMs: clock.nowMs() + params.timestampFutureBoundMs + 1 }), 'header.timestamp.future');
  });

  it('refuses a block breaking pow.insufficient', async () => {
    const { chain } = await freshChain();
    const block = makeBlock(chain);
    const target = compactToTarget(block.header.bits);
    const pre = prePowHash(block.header);
    let nonce = 0n;
    for (;; nonce++) if (searchNonce(pre, target, nonce, 1).nonce === null) break;
    await expectRule(chain, { ...block, header: { ...block.header, nonce } }, 'pow.insufficient');
  });

  it('refuses a block breaking context.parents.redundant', async () => {
    const { chain } = await freshChain();
    const a = makeBlock(chain);
    await chain.addBlock(a);
    const aId = toHex(blockHash(a.header));
    await expectRule(chain, makeBlock(chain, { parents: [chain.genesis.id, aId] }), 'context.parents.redundant');
  });

  it('refuses a block breaking context.mergeset.too-large', async () => {
    const { chain } = await freshChain();
    const siblings: string[] = [];
    for (let i = 0; i < 5; i++) {
      const b = makeBlock(chain, { parents: [chain.genesis.id], timestampMs: chain.genesis.header.timestampMs + 1_000 + i });
      await chain.addBlock(b);
      siblings.push(toHex(blockHash(b.header)));
    }
    // Five siblings merged at once: a mergeset of 5 against the limit of 4 these params set.
    const over = makeBlock(chain, { parents: siblings, mutate: (h) => h, grind: false });
    await expect(chain.addBlock({ ...over, header: { ...over.header, nonce: grind(over.header) } })).rejects.toMatchObject({ rule: 'context.mergeset.too-large' });
  });

  const contextCases: Array<[BlockRule, Parameters<typeof makeBlock>[1]]> = [
    ['context.bits.mismatch', { mutate: (h) => ({ ...h, bits: targetToCompact(compactToTarget(h.bits) / 2n) }) }],
    ['context.blue-score.mismatch', { mutate: (h) => ({ ...h, blueScore: h.blueScore + 1 }) }],
    ['context.blue-work.mismatch', { mutate: (h) => ({ ...h, blueWork: h.blueWork + 1n }) }],
    ['context.daa-score.mismatch', { mutate: (h) => ({ ...h, daaScore: h.daaScore + 1 }) }],
    ['context.level-parents.mismatch', { mutate: (h) => ({ ...h, levelParents: [{ levels: 255, parents: [new Uint8Array(32).fill(5)] }] }) }],
    ['context.pruning-point.mismatch', { mutate: (h) => ({ ...h, pruningPoint: new Uint8Array(32).fill(5) }) }],
    ['body.tx-root.mismatch', { mutate: (h) => ({ ...h, txRoot: new Uint8Array(32).fill(5) }) }],
    ['body.state-root.mismatch', { mutate: (h) => ({ ...h, stateRoot: new Uint8Array(32).fill(5) }) }],
    ['body.tx.invalid', { transactions: [Uint8Array.of(0xff, 1, 2, 3)] }],
  ];
  for (const [rule, options] of contextCases) {
    it(`refuses a block breaking ${rule}`, async () => {
      const { chain } = await freshChain();
      await expectRule(chain, makeBlock(chain, options), rule);
    });
  }

  it('refuses a block breaking context.timestamp.too-old', async () => {
    const { chain } = await freshChain();
    await chain.addBlock(makeBlock(chain));
    await expectRule(chain, makeBlock(chain, { timestampMs: chain.genesis.header.timestampMs }), 'context.timestamp.too-old');
  });

  it('refuses a block breaking body.size.too-large', async () => {
    const { chain } = await freshChain();
    await expectRule(chain, makeBlock(chain, { transactions: [new Uint8Array(100_001)] }), 'body.size.too-large');
  });

  it('refuses a block breaking context.parents.invalid (a child of a refused block)', async () => {
    const { chain } = await freshChain();
    const bad = makeBlock(chain, { mutate: (h) => ({ ...h, blueScore: h.blueScore + 1 }) });
    await expectRule(chain, bad, 'context.blue-score.mismatch');
    const badHash = blockHash(bad.header);
    const child = makeBlock(chain, { mutate: (h) => ({ ...h, parents: [badHash] }) });
    await expectRule(chain, child, 'context.parents.invalid');
  });

  it('holds a block with unknown parents as an orphan and adopts it when the parent arrives', async () => {
    const { chain } = await freshChain();
    const a = makeBlock(chain);
    const scratch = await freshChain();
    await scratch.chain.addBlock(a);
    const b = makeBlock(scratch.chain);
    const result = await chain.addBlock(b);
    expect(result.status).toBe('orphan');
    expect(chain.orphanCount()).toBe(1);
    await chain.addBlock(a);
    await chain.settled();
    expect(chain.blockCount()).toBe(3);
    expect(chain.orphanCount()).toBe(0);
    expect(chain.selectedTip().id).toBe(toHex(blockHash(b.header)));
  });
});

describe('refused blocks across a restart', () => {
  it('remembers a refused block and refuses it and its children after the chain reopens, without validating again', async () => {
    const store = createMemoryStore();
    const clock = createManualClock(params.genesis.timestampMs + 3_600_000);
    const chain = await openChain({ params, store, clock });
    await chain.addBlock(makeBlock(chain));
    const bad = makeBlock(chain, { mutate: (h) => ({ ...h, stateRoot: new Uint8Array(32).fill(5) }) });
    await expectRule(chain, bad, 'body.state-root.mismatch');
    const badId = toHex(blockHash(bad.header));
    expect(chain.isInvalid(badId)).toBe(true);
    await chain.settled();
    await new Promise((r) => setTimeout(r, 0)); // the marker's own write

    const reopened = await openChain({ params, store, clock });
    expect(reopened.isInvalid(badId)).toBe(true);
    expect(reopened.isInvalid(reopened.selectedTip().id)).toBe(false);
    // Refused before any validation: the message says it failed before, not which rule.
    await expect(reopened.addBlock(bad)).rejects.toThrow(/failed validation before/);
    const child = makeBlock(reopened, { mutate: (h) => ({ ...h, parents: [blockHash(bad.header)] }) });
    await expectRule(reopened, child, 'context.parents.invalid');
  });
});
