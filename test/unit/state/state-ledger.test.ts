// The ledger on a chain: rewards and emission, transfers and their index, energy, proofs against headers, bad
// signatures refused, and everything surviving a reopen of an LMDB store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockRuleError } from '../../../src/chain/errors.ts';
import { blockSubsidyUnits, subsidyInitialUnits } from '../../../src/consensus/emission.ts';
import { decodeAccount } from '../../../src/state/account-codec.ts';
import { verifyProof } from '../../../src/state/proof-verify.ts';
import { encodeProof, decodeProof } from '../../../src/state/proof.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { makeBlock, type MakeBlockOptions } from '../../helpers/chain-fixtures.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { buildBlockTemplate, type TransactionSelection } from '../../../src/mining/template.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { ledgerChain, transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const alice = wallet(1);
const bob = wallet(2);
const carol = wallet(3);

describe('rewards and emission', () => {
  it('pays each block its subsidy once a block merges it, and counts it as emitted', async () => {
    const f = await ledgerChain();
    for (let i = 0; i < 5; i++) await f.mine({ miner: alice.address });
    // Blocks 1..5 (DAA 1..5): 1..4 are merged by chain blocks, 5 by the virtual; all blue.
    const expected = [1, 2, 3, 4, 5].reduce((sum, d) => sum + blockSubsidyUnits(d), 0n);
    expect(expected).toBe(5n * subsidyInitialUnits);
    expect(f.ledger.account(alice.address)).toEqual({ balance: expected, nonce: 0n, energy: expect.any(BigInt) });
    expect(f.ledger.supply().circulatingUnits).toBe(expected);
    expect(f.ledger.supply().totalUnits).toBe(2_100_000_000_000_000n);
    // The tip's header commits to the state before its own reward: 4 subsidies.
    const tip = f.chain.selectedTip();
    expect(f.ledger.getAccountAt(alice.address, tip.id)!.balance).toBe(4n * subsidyInitialUnits);
  });
});

describe('transfers', () => {
  it('moves balance, bumps the nonce, pays the fee to the carrying block and indexes the transaction', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    const funded = f.ledger.account(alice.address).balance;
    const tx = transfer(alice, bob.address, 1_000_000n, 0n, { fee: 5_000n });
    const carrier = await f.mine({ miner: carol.address, transactions: [tx] });
    // Carried, not yet merged by a chain block: applied in the virtual view, status pending.
    const hash = f.chain.getBlock(carrier)!.transactions[0]!;
    const { blake3 } = await import('../../../src/crypto/blake3.ts');
    const id = blake3(hash);
    expect(f.ledger.getTransaction(id)!.status).toBe('pending');
    expect(f.ledger.account(bob.address).balance).toBe(1_000_000n);
    const merger = await f.mine({ miner: carol.address });
    const record = f.ledger.getTransaction(id)!;
    expect(record.status).toBe('confirmed');
    expect(record.accepted).toBe(true);
    expect(record.block).toBe(carrier);
    expect(record.acceptingBlock!.id).toBe(merger);
    expect(record.confirmations).toBe(2); // the virtual merges the merger: blue score + 1 above it
    expect(f.ledger.account(alice.address)).toMatchObject({ balance: funded - 1_005_000n, nonce: 1n });
    // carol mined the carrier (fee + subsidy) and the merger (subsidy, via the virtual).
    expect(f.ledger.account(carol.address).balance).toBe(2n * subsidyInitialUnits + 5_000n);
    const aliceHistory = f.ledger.getAddressHistory(alice.address, 10, 0);
    expect(aliceHistory.map((e) => [e.hash, e.direction])).toEqual([[toHex(id), 'out']]);
    expect(f.ledger.getAddressHistory(bob.address, 10, 0).map((e) => e.direction)).toEqual(['in']);
    expect(f.ledger.getAddressHistory(bob.address, 10, 1)).toEqual([]);
    expect(f.ledger.countAddressHistory(bob.address)).toBe(1);
  });

  it('skips a transaction whose nonce is not the account nonce or whose balance is short, without failing the block', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    const txs = [
      transfer(alice, bob.address, 1n, 1n), // nonce gap
      transfer(alice, bob.address, 10n ** 15n, 0n), // more than alice has
      transfer(alice, bob.address, 7n, 0n), // fine
    ];
    const carrier = await f.mine({ transactions: txs });
    await f.mine();
    expect(f.ledger.mergedBy(carrier)).not.toBeNull();
    const merger = f.ledger.mergedBy(carrier)!;
    const merged = f.ledger.acceptanceOf(merger)!.merged.find((m) => m.id === carrier)!;
    expect(merged.accepted).toEqual([false, false, true]);
    expect(f.ledger.account(bob.address).balance).toBe(7n);
  });

  it('refuses a block carrying a transaction with a bad signature (body.tx.invalid)', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    const bad = transfer(alice, bob.address, 1n, 0n);
    bad[bad.length - 1]! ^= 1;
    const error = await f.chain.addBlock(makeBlock(f.chain, { transactions: [bad] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockRuleError);
    expect((error as BlockRuleError).rule).toBe('body.tx.invalid');
    expect(f.chain.blockCount()).toBe(2);
  });

  it('refuses a block whose header commits to another state root (body.state-root.mismatch)', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    const block = makeBlock(f.chain, { mutate: (h) => ({ ...h, stateRoot: new Uint8Array(32) }) });
    const error = await f.chain.addBlock(block).catch((e: unknown) => e);
    expect((error as BlockRuleError).rule).toBe('body.state-root.mismatch');
  });
});

describe('block templates', () => {
  it('commit to the state validation recomputes and let the transaction source see the post-mergeset accounts', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    let seen: TransactionSelection | undefined;
    const tx = transfer(alice, bob.address, 10n, 0n);
    const template = buildBlockTemplate(f.chain, {
      miner: carol.address,
      gpuMining: false,
      nowMs: f.chain.selectedTip().header.timestampMs + 1_000,
      selectTransactions: (selection) => {
        seen = selection;
        return [tx];
      },
    });
    expect(seen!.state.account(alice.address)).toEqual(f.ledger.account(alice.address));
    expect(seen!.daaScore).toBe(template.header.daaScore);
    expect(template.transactions).toEqual([tx]);
    const nonce = searchNonce(template.prePowHash, template.target, 0n, 1_000_000).nonce!;
    const result = await f.chain.addBlock({ header: { ...template.header, nonce }, transactions: template.transactions });
    expect(result.status).toBe('accepted');
    await f.mine();
    expect(f.ledger.account(bob.address).balance).toBe(10n);
  });
});

describe('a block mined from a template', () => {
  it('reuses the template preview’s acceptance, and a node that never previewed computes the same state from its blocks', async () => {
    const miner = await ledgerChain();
    const follower = await ledgerChain();
    const ids: string[] = [];
    /** Mines from a template (makeBlock previews its state), with other previews asked for in between, as a node's RPC and miner do. */
    const mine = async (options: MakeBlockOptions): Promise<void> => {
      const block = makeBlock(miner.chain, options);
      const tips = miner.chain.tips().map((t) => t.id);
      miner.chain.childState(tips, carol.address);
      if (tips.length > 1) miner.chain.childState(tips.slice(0, 1), alice.address);
      expect((await miner.chain.addBlock(block)).status).toBe('accepted');
      ids.push(toHex(blockHash(block.header)));
    };
    for (let i = 0; i < 3; i++) await mine({ miner: alice.address });
    // A fork (two blocks on one parent), then a merge of both carrying a transfer: a mergeset of two.
    const base = miner.chain.selectedTip().id;
    await mine({ miner: bob.address, parents: [base] });
    await mine({ miner: carol.address, parents: [base], transactions: [transfer(alice, bob.address, 7n, 0n)] });
    await mine({ miner: bob.address, transactions: [transfer(alice, carol.address, 9n, 1n)] });
    await mine({ miner: bob.address });
    for (const id of ids) {
      const block = miner.chain.getBlock(id)!;
      expect((await follower.chain.addBlock(block)).status).toBe('accepted');
      expect(toHex(follower.chain.get(id)!.header.stateRoot)).toBe(toHex(block.header.stateRoot));
    }
    for (const who of [alice, bob, carol]) expect(follower.ledger.account(who.address)).toEqual(miner.ledger.account(who.address));
    expect(toHex(follower.ledger.virtualStateRoot())).toBe(toHex(miner.ledger.virtualStateRoot()));
    expect(follower.ledger.supply()).toEqual(miner.ledger.supply());
  });
});

describe('proofs against headers', () => {
  it('proves an account (and an absent one) against the selected tip header', async () => {
    const f = await ledgerChain();
    for (let i = 0; i < 3; i++) await f.mine({ miner: alice.address });
    const p = f.ledger.proveAccount(alice.address);
    expect(p.stateRoot).toEqual(f.chain.selectedTip().header.stateRoot);
    const checked = verifyProof(p.stateRoot, p.key, decodeProof(encodeProof(p.proof)));
    expect(checked.exists).toBe(true);
    expect(decodeAccount((checked as { value: Uint8Array }).value)).toEqual(p.account);
    expect(p.account!.balance).toBe(2n * subsidyInitialUnits);
    const absent = f.ledger.proveAccount(bob.address);
    expect(absent.account).toBeNull();
    expect(verifyProof(absent.stateRoot, absent.key, absent.proof).exists).toBe(false);
  });
});

describe('persistence', () => {
  it('reopens an LMDB store with accounts, records and the transaction index intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-ledger-'));
    dirs.push(dir);
    let store = openLmdbStore(dir);
    let f = await ledgerChain({ store });
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    await f.mine({ transactions: [transfer(alice, bob.address, 42n, 0n)] });
    await f.mine();
    const before = { alice: f.ledger.account(alice.address), bob: f.ledger.account(bob.address), supply: f.ledger.supply(), history: f.ledger.getAddressHistory(bob.address, 5, 0).map((e) => e.hash) };
    await f.chain.settled();
    await store.close();
    store = openLmdbStore(dir);
    f = await ledgerChain({ store });
    expect({ alice: f.ledger.account(alice.address), bob: f.ledger.account(bob.address), supply: f.ledger.supply(), history: f.ledger.getAddressHistory(bob.address, 5, 0).map((e) => e.hash) }).toEqual(before);
    await f.mine({ transactions: [transfer(alice, bob.address, 8n, 1n)] });
    await f.mine();
    expect(f.ledger.account(bob.address).balance).toBe(50n);
    await f.chain.settled();
    await store.close();
  });
});
