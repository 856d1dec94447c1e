// After a join (issue 30, docs/pruning-proof.md "After a join: heavier proofs and poisoned joins"), over the in-process
// memory net with real chains and p2p nodes: a join poisoned by a peer that served the honest proof, blocks and state with `emitted = the cap` in its record
// (version 1 rules: nothing commits to the record) is noticed when the honest peers' first blocks are refused with
// body.state-root.mismatch: the honest reporters are spared, the liar is banned, and a re-join from the others
// follows the honest chain. A node that joined a cheap chain (its only peer, since gone) meets an honest peer whose
// headers do not connect above its pruning point: the guard weighs that peer's proof, finds it heavier, and the
// re-join takes the honest chain.
import { afterEach, describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import { emissionCapUnits } from '../../../src/consensus/emission.ts';
import { neverActivates } from '../../../src/consensus/activation.ts';
import { genesisHash, type NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { createJoinGuard, type JoinGuard, type RejoinVerdict } from '../../../src/p2p/join-guard.ts';
import { joinFromPeers, type JoinOutcome } from '../../../src/p2p/join-from-peers.ts';
import { silentLogger } from '../../../src/p2p/logger.ts';
import type { P2pNode, P2pNodeOptions } from '../../../src/p2p/p2p-node.ts';
import { ProtocolViolationError } from '../../../src/p2p/protocol-errors.ts';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../../src/pruning-proof/level-dag.ts';
import { verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { decodeAcceptanceRecord, encodeAcceptanceRecord } from '../../../src/state/acceptance-record.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { realTimer } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { cheapSource, honestSource, joinV2Params, nobleProofVerifier, portsOf, type ServedSource } from '../../helpers/join-sources.ts';
import { blocksAbove, joinClock } from '../../helpers/trusted-fixtures.ts';

let net: MemoryNet | undefined;
afterEach(async () => net?.closeAll());

async function join(params: NetworkParams, node: P2pNode, peers: readonly string[]): Promise<Extract<JoinOutcome, { kind: 'joined' }>> {
  const proofParams = proofParamsOf(params);
  const { chain } = await openLedgerChain({ params, store: createMemoryStore(), clock: joinClock() });
  const genesis = verifyPruningProof(buildPruningProof({ header: (id) => chain.get(id)?.header }, toHex(genesisHash(params)), proofParams), proofParams);
  const store = createMemoryStore();
  const outcome = await joinFromPeers({ node, params, store, verifier: nobleProofVerifier, clock: systemClock, timer: realTimer, log: silentLogger, peers, defender: { proof: genesis, tipBlueWork: 0n } });
  if (outcome.kind !== 'joined') throw new Error('no join');
  joinedStores.set(outcome, store);
  return outcome;
}
const joinedStores = new WeakMap<object, ReturnType<typeof createMemoryStore>>();

async function openJoined(params: NetworkParams, outcome: Extract<JoinOutcome, { kind: 'joined' }>): Promise<Chain> {
  const { chain } = await openLedgerChain({ params, store: joinedStores.get(outcome)!, clock: joinClock(), join: outcome.trusted, joinProofHeaders: outcome.proofHeaders });
  return chain;
}

/** A p2p node on the memory net serving `source`'s chain (blocks and fast sync). */
const serving = (source: ServedSource, options: Partial<P2pNodeOptions> = {}) => net!.addNode([], { chain: source.chain, fastSync: portsOf(source), ...options });

/** The joined chain's p2p node with its guard, connected to `ports`; verdicts land in `verdicts`. */
async function guardedNode(chain: Chain, joined: Extract<JoinOutcome, { kind: 'joined' }>, ports: readonly number[], verdicts: RejoinVerdict[]): Promise<{ node: P2pNode; guard: JoinGuard }> {
  let node: P2pNode | undefined;
  const guard = createJoinGuard({ chain, joinedFrom: joined.peer, joinedProof: joined.proof, node: () => node!, nowMs: () => Date.now(), log: silentLogger, onRejoin: (v) => verdicts.push(v) });
  node = (await net!.addNode([], { chain, blockSync: true, blockRefused: (peer, error) => guard.blockRefused(peer, error) })).node;
  for (const port of ports) await node.connect('127.0.0.1', port);
  return { node, guard };
}

describe('a joined node', () => {
  it('undoes a poisoned join: the honest reporters are spared, the liar banned, a re-join follows the honest chain', async () => {
    // Version 1 rules: the record is unproven, so the lie gets through the join itself.
    const params: NetworkParams = Object.freeze({ ...joinV2Params, activations: { ...joinV2Params.activations, rulesV2: neverActivates } });
    const honest = await honestSource(90, params);
    net = createMemoryNet();
    const record = decodeAcceptanceRecord(honest.trusted.stateRecord!);
    const lie = { ...honest.trusted, stateRecord: encodeAcceptanceRecord({ ...record, emitted: emissionCapUnits }) };
    const liar = await net.addNode([], { blockSync: false, fastSync: portsOf(honest, { trustedData: async () => lie }) });
    const honestA = await serving(honest);
    const honestB = await serving(honest);
    const joiner = await net.addNode([], { blockSync: false });
    for (const s of [liar, honestA, honestB]) await joiner.node.connect('127.0.0.1', s.port);
    await until(() => joiner.node.peerCount() === 3, 20_000, 'the joiner connected');
    const [liarId, aId, bId] = [liar, honestA, honestB].map((s) => toHex(s.node.nodeId)) as [string, string, string];
    const first = await join(params, joiner.node, [liarId, aId, bId]);
    expect(first.peer).toBe(liarId);
    const poisoned = await openJoined(params, first);

    const verdicts: RejoinVerdict[] = [];
    const { node, guard } = await guardedNode(poisoned, first, [honestA.port, honestB.port, liar.port], verdicts);
    await until(() => verdicts.length > 0, 60_000, 'the poisoned join noticed');
    await guard.idle();
    expect(verdicts[0]).toEqual({ reason: 'poisoned', servedBy: liarId, reportedBy: expect.stringMatching(new RegExp(`^(${aId}|${bId})$`)) });
    expect(poisoned.selectedTip().id).toBe(poisoned.joinedAt!.id);
    // The host's part: ban the peer that served the join, re-join from the others.
    node.disconnectPeer(liarId, new ProtocolViolationError('served a poisoned join'));
    await until(() => node.isBanned(`node:${liarId}`), 5_000, 'the liar banned');
    expect(node.isBanned(`node:${aId}`)).toBe(false);
    expect(node.isBanned(`node:${bId}`)).toBe(false);
    const again = await join(params, node, node.peers().map((p) => p.nodeId).filter((id) => id !== liarId));
    expect([aId, bId]).toContain(again.peer);
    const rejoined = await openJoined(params, again);
    for (const block of honest.blocks) if (!rejoined.has(toHex(blockHash(block.header))) && !honest.chain.isPruned(toHex(blockHash(block.header)))) await rejoined.addBlock(block).catch(() => undefined);
    await rejoined.settled();
    expect(rejoined.selectedTip().id).toBe(honest.chain.selectedTip().id);
    expect(toHex(rejoined.selectedTip().header.stateRoot)).toBe(toHex(honest.chain.selectedTip().header.stateRoot));
  }, 180_000);

  it('re-joins when a heavier proof appears after it joined a cheap chain', async () => {
    const params = joinV2Params;
    const cheap = await cheapSource(110);
    const honest = await honestSource(90);
    net = createMemoryNet();
    const cheapServer = await serving(cheap);
    const joiner = await net.addNode([], { blockSync: false });
    await joiner.node.connect('127.0.0.1', cheapServer.port);
    await until(() => joiner.node.peerCount() === 1, 20_000, 'the joiner connected');
    const first = await join(params, joiner.node, [toHex(cheapServer.node.nodeId)]);
    const onCheap = await openJoined(params, first);
    expect(onCheap.joinedAt!.id).toBe(cheap.point);
    const honestServer = await serving(honest, { blockSync: false });
    const verdicts: RejoinVerdict[] = [];
    await cheapServer.node.close();
    const { node } = await guardedNode(onCheap, first, [honestServer.port], verdicts);
    const honestId = toHex(honestServer.node.nodeId);
    // Its headers do not connect above our pruning point: refused with context.pruning-point.violated (ban score 0),
    // which the guard answers by weighing the peer's proof against ours.
    await until(() => verdicts.length > 0, 60_000, 'the heavier proof noticed');
    expect(verdicts[0]).toMatchObject({ reason: 'heavier-proof', peer: honestId });
    expect(node.isBanned(`node:${honestId}`)).toBe(false);
    const again = await join(params, node, [honestId]);
    expect(toHex(again.trusted.pruningPoint)).toBe(honest.point);
    const rejoined = await openJoined(params, again);
    const trustedIds = new Set(again.trusted.blocks.map((b) => toHex(blockHash(b.header))));
    for (const block of blocksAbove(honest.chain, honest.blocks, honest.point, trustedIds)) expect((await rejoined.addBlock(block)).status).toBe('accepted');
    await rejoined.settled();
    expect(rejoined.selectedTip().id).toBe(honest.chain.selectedTip().id);
  }, 180_000);
});

