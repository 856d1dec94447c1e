// State-checked admission and a pool that cleans itself after each block (docs/mempool.md "State rules", "After each
// block"; issue 30 "Free block space"). On the landed pool a transaction whose kind's state rules fail — a
// confidential transfer over outputs that exist nowhere (its CLSAG and range proof verify without state), an
// escrow_claim of no escrow — was admitted with any fee, ranked first in every template, carried, refused at
// acceptance (its fee never paid) and kept in the pool; and a confidential transfer a tip block already carried was
// selected again into the template built on that tip. Here a real ledger chain and the node's pool service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { createLogger } from '../../../server/logger.ts';
import { startNodeMempool, type NodeMempool } from '../../../server/node/mempool-service.ts';
import { encodeTransaction, txHash } from '../../../src/kinds/transaction-codec.ts';
import { witnessVerifierOver, type WitnessCheck } from '../../../src/crypto/witness-check.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { ErrorCode, WeftError } from '../../../src/errors.ts';
import type { RingMember } from '../../../src/kinds/confidential/codec.ts';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import type { AnyTransaction } from '../../../src/kinds/kind.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { buildRingSpend, buildShield, scanOutput, type OwnedOutput } from '../../../src/wallet/confidential.ts';
import { actor, signed } from '../../helpers/agent-fixtures.ts';
import { proofsHold, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';
import { ledgerChain, transfer, type LedgerFixture } from '../../helpers/ledger-fixtures.ts';
import { createTestAccounts } from '../../helpers/mempool-fixtures.ts';

const alice = actor(21);
const bob = stealthWallet(22);
const carol = stealthWallet(23);
const member = (o: OwnedOutput): RingMember => ({ oneTimeKey: o.oneTimeKey, commitment: o.commitment });
const selectAll = { maxBytes: 1_000_000, maxCount: 10_000 };

let fixture: LedgerFixture;
let node: NodeMempool;
let chainId: number;

/** A shield to bob (two outputs) from alice at `nonce`, and bob's view of its outputs. */
function shieldToBob(nonce: bigint, seed: number) {
  const tx = buildShield({ chainId, privateKey: alice.privateKey, fee: 10_000n, nonce, outputs: [{ to: bob.recipient, amount: 300_000n }, { to: bob.recipient, amount: 200_000n }], random: seededRandom(seed) });
  const owned = tx.outputs.map((o, i) => scanOutput(bob.keys, tx.txPublicKey, i, { ...o, publicAmount: o.amount })!);
  return { tx, owned };
}

/** Bob spends the first output, the second as decoy: 298,000 to carol, 2,000 fee. */
function spendFirst(owned: readonly OwnedOutput[], seed: number) {
  return buildRingSpend({ chainId, fee: 2_000n, inputs: [{ owned: owned[0]!, decoys: [member(owned[1]!)] }], outputs: [{ to: carol.recipient, amount: 298_000n }], random: seededRandom(seed) });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; reason: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeftError);
  return { code: (error as WeftError).code, reason: ((error as WeftError).details as { reason?: unknown }).reason };
}

async function mine(...txs: AnyTransaction[]): Promise<string> {
  const id = await fixture.mine({ miner: alice.address, transactions: txs.map((tx) => encodeTransaction(tx)) });
  await fixture.chain.settled();
  return id;
}

/** Outputs that exist on chain, and a ring spend of them nobody has carried yet. */
let real: ReturnType<typeof spendFirst>;
/** A ring spend whose every ring member is an output of a shield no block ever carried. */
let phantom: ReturnType<typeof spendFirst>;

beforeAll(async () => {
  fixture = await ledgerChain({ verifier: fastVerifier });
  chainId = fixture.chain.params.chainId;
  node = startNodeMempool({ params: fixture.chain.params, chain: fixture.chain, ledger: fixture.ledger, store: createMemoryStore(), clock: createManualClock(Date.now()), logger: createLogger('silent') });
  for (let i = 0; i < 3; i++) await mine();
  const shielded = shieldToBob(0n, 1);
  await mine(shielded.tx);
  await mine();
  real = spendFirst(shielded.owned, 2);
  phantom = spendFirst(shieldToBob(1n, 3).owned, 4);
}, 120_000);

afterAll(async () => {
  await node?.close();
});

describe('state-checked admission', () => {
  it('refuses a confidential transfer over outputs that exist nowhere with acceptance\'s reason, though its proofs verify', async () => {
    expect(proofsHold(phantom)).toBe(true);
    const refused = await refusal(node.submit(encodeTransaction(phantom)));
    expect(refused).toEqual({ code: ErrorCode.TransactionRejected, reason: 'ring_member_unknown' });
    expect(node.pool.size).toBe(0);
    expect(node.pool.selectForBlock(selectAll).transactions).toEqual([]);
  });

  it('refuses an escrow_claim of an escrow that does not exist (escrow_unknown), from a sender who could pay its fee', async () => {
    expect(fixture.ledger.account(alice.address).balance).toBeGreaterThan(1_000_000n);
    const claim = signed(escrowClaimKind, { escrowId: new Uint8Array(32).fill(9), receipt: undefined }, alice, fixture.ledger.account(alice.address).nonce, { fee: 1_000_000n });
    expect(await refusal(node.submit(encodeTransaction(claim)))).toEqual({ code: ErrorCode.TransactionRejected, reason: 'escrow_unknown' });
    expect(node.pool.size).toBe(0);
  });

  it('runs the state rules before any proof is verified', async () => {
    let verified = 0;
    const inner = witnessVerifierOver(nobleVerifier);
    const counting = { name: 'counting', verifyWitnesses: (checks: readonly WitnessCheck[]) => ((verified += checks.length), inner.verifyWitnesses(checks)) };
    // No record exists in this state: the phantom spend's ring members are unknown.
    const pool = createMempool({ params: { chainId }, accounts: createTestAccounts(), verifier: counting, clock: createManualClock(0) });
    expect(await refusal(pool.add(encodeTransaction(phantom)))).toMatchObject({ reason: 'ring_member_unknown' });
    expect(verified).toBe(0);
  });
});

describe('the pool after each block', () => {
  it('never selects again a confidential transfer a tip block already carries, and drops it', async () => {
    const entry = await node.submit(encodeTransaction(real));
    expect(node.pool.selectForBlock(selectAll).transactions).toContain(entry);
    // The tip carries it; its acceptance waits for the next chain block, but the virtual state has spent the image.
    await mine(real);
    expect(node.pool.selectForBlock(selectAll).transactions.map((e) => e.id)).not.toContain(entry.id);
    expect(node.pool.get(entry.hash)).toBeUndefined();
    await mine();
    expect(fixture.ledger.getTransaction(entry.hash)?.inclusions.some((i) => i.accepted)).toBe(true);
    expect(node.pool.candidates()).toEqual(node.pool.recomputeCandidates());
  }, 60_000);

  it('drops a transaction the acceptance refused', async () => {
    const nonce = fixture.ledger.account(alice.address).nonce;
    // Nonce one past the account's: it waits in the pool; a block that carries it now has it refused.
    const early = transfer(alice, carolAddress(), 1n, nonce + 1n, { chainId, fee: 5_000n });
    const entry = await node.submit(early);
    expect(node.pool.status(entry.hash)?.status).toBe('pending');
    await fixture.mine({ miner: alice.address, transactions: [early] });
    await mine();
    const record = fixture.ledger.getTransaction(txHash(entry.tx as never));
    expect(record?.inclusions.every((i) => !i.accepted && i.mergedBy !== null)).toBe(true);
    expect(node.pool.status(entry.hash)).toMatchObject({ status: 'dropped', reason: 'invalidated' });
    expect(node.pool.candidates()).toEqual(node.pool.recomputeCandidates());
  }, 60_000);

  it('keeps the candidate set equal to a recomputation across a reorganisation', async () => {
    const base = fixture.chain.selectedTip().id;
    const nonce = fixture.ledger.account(alice.address).nonce;
    const entries = [];
    for (let n = 0n; n < 3n; n++) entries.push(await node.submit(transfer(alice, carolAddress(), 10n, nonce + n, { chainId, fee: 3_000n + n })));
    // One branch carries the first two; a heavier one from the same base carries none, and wins.
    await fixture.mine({ miner: alice.address, parents: [base], transactions: entries.slice(0, 2).map((e) => e.bytes) });
    await fixture.mine({ miner: alice.address });
    await fixture.chain.settled();
    expect(node.pool.candidates()).toEqual(node.pool.recomputeCandidates());
    const side1 = await fixture.mine({ miner: alice.address, parents: [base], transactions: [] });
    const side2 = await fixture.mine({ miner: alice.address, parents: [side1] });
    const side3 = await fixture.mine({ miner: alice.address, parents: [side2] });
    await fixture.chain.settled();
    await new Promise((resolve) => setTimeout(resolve, 200)); // readmission of the orphaned is asynchronous
    expect(node.pool.candidates()).toEqual(node.pool.recomputeCandidates());
    // The branch that carried the first two left the selected chain, but the virtual merges its tip: they are in
    // every template's past, so not pending; the third is the sender's only candidate.
    expect(fixture.chain.selectedTip().id).toBe(side3);
    expect(node.pool.candidates().get(toHex(alice.address))).toEqual([entries[2]]);
  }, 60_000);
});

function carolAddress(): Uint8Array {
  return actor(24).address;
}
