// A joining node takes the heaviest proof, not the first (issue 30, docs/pruning-proof.md "Serving and joining"):
// over the in-process memory net, a peer serving a cheap chain fabricated from genesis answers at once, an honest
// peer on the heavier chain answers later; the join asks both, compares their proofs and joins the honest chain. A
// peer whose trusted data carries a lying acceptance record (emitted = the cap) beside an honest proof, honest blocks
// and honest state is refused after its state is checked against the committed totals, and banned.
import { afterEach, describe, expect, it } from 'vitest';
import { genesisHash } from '../../../src/consensus/params.ts';
import { emissionCapUnits } from '../../../src/consensus/emission.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { joinFromPeers } from '../../../src/p2p/join-from-peers.ts';
import { silentLogger } from '../../../src/p2p/logger.ts';
import type { P2pNode } from '../../../src/p2p/p2p-node.ts';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { compareProofs } from '../../../src/pruning-proof/compare-proofs.ts';
import { proofParamsOf } from '../../../src/pruning-proof/level-dag.ts';
import { checkChainDifficulty, checkProofDifficulty, proofLevelZeroChain } from '../../../src/pruning-proof/proof-difficulty.ts';
import { verifyPruningProof, type VerifiedProof } from '../../../src/pruning-proof/verify-proof.ts';
import { decodeAcceptanceRecord, encodeAcceptanceRecord } from '../../../src/state/acceptance-record.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { realTimer } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { cheapSource, honestSource, joinV2Params as params, nobleProofVerifier, portsOf } from '../../helpers/join-sources.ts';
import { blocksAbove, joinClock } from '../../helpers/trusted-fixtures.ts';

const proofParams = proofParamsOf(params);
let net: MemoryNet | undefined;
afterEach(async () => net?.closeAll());

async function genesisProof(): Promise<VerifiedProof> {
  const { chain } = await openLedgerChain({ params, store: createMemoryStore(), clock: joinClock() });
  return verifyPruningProof(buildPruningProof({ header: (id) => chain.get(id)?.header }, toHex(genesisHash(params)), proofParams), proofParams);
}

/** A joiner's p2p node connected to `ports`' servers in that order; answers its node and the peers' ids in order. */
async function joinerConnectedTo(servers: readonly { node: P2pNode; port: number }[]): Promise<{ node: P2pNode; peers: string[] }> {
  const joiner = await net!.addNode([], { blockSync: false });
  for (const s of servers) await joiner.node.connect('127.0.0.1', s.port);
  await until(() => joiner.node.peerCount() === servers.length, 20_000, 'the joiner connected');
  return { node: joiner.node, peers: servers.map((s) => toHex(s.node.nodeId)) };
}

const delayed = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms));

describe('joining from several peers', () => {
  it('joins the heaviest proof though a cheap fabricated chain answers first, and bans a peer whose record lies', async () => {
    const honest = await honestSource(90);
    const cheap = await cheapSource(110);
    expect(cheap.chain.get(cheap.point)!.header.blueScore).toBeGreaterThan(0);
    expect(cheap.chain.selectedTip().header.blueWork).toBeLessThan(honest.chain.selectedTip().header.blueWork);
    const verifiedHonest = verifyPruningProof(honest.proof, proofParams);
    const verifiedCheap = verifyPruningProof(cheap.proof, proofParams);
    // The cheap chain beats genesis on its own: a node that took the first proof (the landed rule) joined it.
    const genesis = await genesisProof();
    expect(compareProofs({ proof: genesis, tipBlueWork: 0n }, { proof: verifiedCheap, tipBlueWork: verifiedCheap.pruningPoint.blueWork }, proofParams).challengerWins).toBe(true);
    // Both proofs' level-0 stretches are longer than the DAA window here: their bits are checked and hold.
    expect(checkProofDifficulty(params, honest.proof, proofParams.genesis)).toBeGreaterThan(0);
    expect(checkProofDifficulty(params, cheap.proof, proofParams.genesis)).toBeGreaterThan(0);

    net = createMemoryNet();
    const record = decodeAcceptanceRecord(honest.trusted.stateRecord!);
    const liarServer = await net.addNode([], { blockSync: false, fastSync: portsOf(honest, { trustedData: async () => ({ ...honest.trusted, stateRecord: encodeAcceptanceRecord({ ...record, emitted: emissionCapUnits }) }) }) });
    const cheapServer = await net.addNode([], { blockSync: false, fastSync: portsOf(cheap) });
    const honestServer = await net.addNode([], { blockSync: false, fastSync: portsOf(honest, { pruningProof: () => delayed(500, honest.proof) }) });
    const { node, peers } = await joinerConnectedTo([cheapServer, liarServer, honestServer]);
    const [cheapId, liarId, honestId] = peers as [string, string, string];

    const store = createMemoryStore();
    const outcome = await joinFromPeers({
      node, params, store, verifier: nobleProofVerifier, clock: systemClock, timer: realTimer, log: silentLogger,
      peers, defender: { proof: genesis, tipBlueWork: 0n },
    });
    expect(outcome.kind).toBe('joined');
    if (outcome.kind !== 'joined') return;
    expect(outcome.peer).toBe(honestId);
    expect(toHex(outcome.trusted.pruningPoint)).toBe(honest.point);
    expect(outcome.proof.pruningPointId).toBe(verifiedHonest.pruningPointId);
    // The liar served the same heavy proof and answered first among equals: refused once its record met the state.
    expect(outcome.refused).toEqual([liarId]);
    await until(() => node.isBanned(`node:${liarId}`), 5_000, 'the liar banned');
    expect(node.isBanned(`node:${honestId}`)).toBe(false);
    expect(node.isBanned(`node:${cheapId}`)).toBe(false);

    // The joined chain follows the honest chain to its tip and state.
    const joined = await openLedgerChain({ params, store, clock: joinClock(), join: outcome.trusted, joinProofHeaders: outcome.proofHeaders });
    const trustedIds = new Set(outcome.trusted.blocks.map((b) => toHex(blockHash(b.header))));
    for (const block of blocksAbove(honest.chain, honest.blocks, honest.point, trustedIds)) expect((await joined.chain.addBlock(block)).status).toBe('accepted');
    await joined.chain.settled();
    expect(joined.chain.selectedTip().id).toBe(honest.chain.selectedTip().id);
    expect(toHex(joined.chain.selectedTip().header.stateRoot)).toBe(toHex(honest.chain.selectedTip().header.stateRoot));
  }, 120_000);

  it("checks the bits of a proof's level-0 chain against the difficulty adjustment", async () => {
    const honest = await honestSource(60);
    const chain = proofLevelZeroChain(honest.proof);
    expect(chain.length).toBeGreaterThan(params.daaWindowBlocks + 1);
    expect(checkChainDifficulty(params, chain, proofParams.genesis)).toBe(chain.length - params.daaWindowBlocks - 1);
    const easier = chain.map((h, i) => (i === 0 ? { ...h, bits: h.bits + 1 } : h));
    expect(() => checkChainDifficulty(params, easier, proofParams.genesis)).toThrow(expect.objectContaining({ reason: 'difficulty', peerFault: true }));
    // A stretch shorter than the window checks nothing: what a proof alone cannot prove (mainnet's 2M < its window).
    expect(checkChainDifficulty(params, chain.slice(0, params.daaWindowBlocks), proofParams.genesis)).toBe(0);
  }, 60_000);
});
