// Valid encodings of every p2p message type and every registered transaction kind, for the structure-aware fuzzer
// (test/integration/p2p/adversarial-codec-fuzz.test.ts): each is built by the real signing/encoding code, so a mutation of it starts
// from bytes a real peer or wallet sends.
import { encodeTransaction, signTransfer, assembleMultisigTransfer, signMultisigShare } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { BlockHeader } from '../../src/codec/header.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { canonicalMultisigKeys, contractAddress, multisigAddress } from '../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import { agentAddSessionKeyKind } from '../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../src/kinds/agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from '../../src/kinds/agent/agent-fund-energy-pool.ts';
import { sessionScopeMask } from '../../src/kinds/agent/agent-record.ts';
import { agentRevokeSessionKeyKind } from '../../src/kinds/agent/agent-revoke-session-key.ts';
import { agentSetControllerKind } from '../../src/kinds/agent/agent-set-controller.ts';
import { signContractCall } from '../../src/kinds/contract-call.ts';
import { signContractDeploy } from '../../src/kinds/contract-deploy.ts';
import { signCompletionReceipt } from '../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowResolveKind } from '../../src/kinds/escrow/escrow-resolve.ts';
import type { TrustedData } from '../../src/chain/trusted-data.ts';
import type { Message } from '../../src/p2p/messages.ts';
import { InvType } from '../../src/p2p/messages/inventory.ts';
import { encodePruningProof } from '../../src/p2p/pruning-proof-codec.ts';
import { encodeTrustedData } from '../../src/p2p/trusted-data-codec.ts';
import { readSnapshotChunk } from '../../src/state/snapshot.ts';
import { bigIntToBytesBE } from '../../src/util/bytes.ts';
import { encodeAbiValues } from '../../src/vm/abi.ts';
import { buildRingSpend, buildShield, scanOutput } from '../../src/wallet/confidential.ts';
import { arbiter, chainId, client, controller, owner, session, signed } from './agent-fixtures.ts';
import { seededRandom, stealthWallet } from './confidential-fixtures.ts';
import { wallet } from './ledger-fixtures.ts';
import { versionFor } from './p2p-harness.ts';
import { seededSnapshotState } from './snapshot-fixtures.ts';
import { contractBytes } from './vm-contracts.ts';

const aux = new Uint8Array(32);
const id = new Uint8Array(32).fill(9);
const sk = (d: number) => bigIntToBytesBE(BigInt(d), 32);

/** One signed transaction of every implemented kind, encoded. */
export function transactionSamples(): Uint8Array[] {
  const alice = wallet(1);
  const base = { chainId, to: wallet(2).address, amount: 5n, fee: 100n, nonce: 3n, useEnergy: false, memo: Uint8Array.of(1, 2) };
  const transfer = signTransfer({ kind: TxKind.Transfer, ...base, from: alice.address }, alice.privateKey, aux);
  const keys = canonicalMultisigKeys(2, [11, 12, 13].map((d) => publicKeyFromPrivate(sk(d))));
  const script = { m: 2, publicKeys: keys };
  const unsignedMultisig = { kind: TxKind.MultisigTransfer, ...base, from: multisigAddress(2, keys) } as const;
  const multisig = assembleMultisigTransfer(unsignedMultisig, script, [11, 13].map((d) => signMultisigShare(unsignedMultisig, script, sk(d), aux)));
  const bob = stealthWallet(2);
  const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 500n, nonce: 7n, outputs: [{ to: bob.recipient, amount: 900n }, { to: bob.recipient, amount: 100n }], random: seededRandom(1) });
  const owned = shield.outputs.map((o, i) => scanOutput(bob.keys, shield.txPublicKey, i, { ...o, publicAmount: o.amount })!);
  const decoy = { oneTimeKey: owned[1]!.oneTimeKey, commitment: owned[1]!.commitment };
  const confidential = buildRingSpend({ chainId, fee: 50n, inputs: [{ owned: owned[0]!, decoys: [decoy] }], outputs: [{ to: stealthWallet(3).recipient, amount: 800n }, { to: bob.recipient, amount: 50n }], random: seededRandom(2) });
  const unshield = buildRingSpend({ chainId, fee: 50n, inputs: [{ owned: owned[0]!, decoys: [decoy] }], outputs: [], unshield: { to: wallet(4).address, amount: 850n }, random: seededRandom(3) });
  const contract = { chainId, gasPrice: 2n, value: 0n, useEnergy: false, from: alice.address, gasLimit: 1_000_000n };
  const deploy = signContractDeploy({ kind: TxKind.ContractDeploy, ...contract, nonce: 0n, vmVersion: 1, code: contractBytes('counter'), params: encodeAbiValues([]) }, alice.privateKey, aux);
  const call = signContractCall({ kind: TxKind.ContractCall, ...contract, nonce: 1n, contract: contractAddress(alice.address, 0n), method: 'increment', params: encodeAbiValues([{ type: 'u64', value: 3n }]) }, alice.privateKey, aux);
  return [
    transfer,
    multisig,
    shield,
    confidential,
    unshield,
    deploy,
    call,
    signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: new Uint8Array(32).fill(1) }, owner, 0n),
    signed(agentSetControllerKind, { controller: session.publicKey }, owner, 1n),
    signed(agentAddSessionKeyKind, { publicKey: session.publicKey, allowedKinds: sessionScopeMask, txCap: 5n, totalCap: 9n, expiryDaaScore: 77n }, controller, 2n, { payer: owner.address, role: 1 }),
    signed(agentRevokeSessionKeyKind, { revokedKeyId: 3n }, owner, 3n),
    signed(agentFreezeKind, { frozen: true }, owner, 4n),
    signed(agentFundEnergyPoolKind, { agent: owner.address, amount: 1234n }, session, 5n, { payer: owner.address, role: 2, sessionKeyId: 1n, useEnergy: true }),
    signed(escrowCreateKind, { agent: owner.address, taskHash: id, amount: 10n, timeoutDaaScore: 50n, disputeWindow: 5n, arbiter: arbiter.address }, client, 0n),
    signed(escrowClaimKind, { escrowId: id, receipt: { clientKey: client.publicKey, signature: signCompletionReceipt(chainId, id, client.privateKey, aux) } }, session, 6n, { payer: owner.address, role: 2, sessionKeyId: 1n }),
    signed(escrowReclaimKind, { escrowId: id }, client, 2n),
    signed(escrowDisputeKind, { escrowId: id }, client, 3n),
    signed(escrowResolveKind, { escrowId: id, agentShare: 4n }, arbiter, 0n),
  ].map(encodeTransaction);
}

/** Distinct headers: genesis with another nonce (and blue score/work) each. */
export const headerPool: BlockHeader[] = Array.from({ length: 8 }, (_, i) => ({ ...regtestParams.genesis, nonce: BigInt(i + 1), blueScore: i * 3, blueWork: BigInt(i) << 70n }));

export function trustedDataSample(): TrustedData {
  const [a, b] = [headerPool[1]!, headerPool[2]!];
  return {
    pruningPoint: new Uint8Array(32).fill(4),
    blocks: [
      { header: a, height: 3, ghostdag: { selectedParent: null, blueScore: a.blueScore, blueWork: a.blueWork, mergesetBlues: ['11'.repeat(32)], mergesetReds: [], bluesAnticoneSizes: new Map([['22'.repeat(32), 1]]) } },
      { header: b, height: 4, ghostdag: { selectedParent: '33'.repeat(32), blueScore: b.blueScore, blueWork: b.blueWork, mergesetBlues: [], mergesetReds: ['44'.repeat(32)], bluesAnticoneSizes: new Map() }, transactions: [Uint8Array.of(1, 2, 3)] },
    ],
    stateRecord: Uint8Array.of(5, 6, 7),
  };
}

export const pruningProofSample = { levels: [[headerPool[0]!, headerPool[1]!], [headerPool[1]!, headerPool[2]!]] };

/** One valid message of every type. */
export function messageSamples(txs: readonly Uint8Array[]): Message[] {
  const hash = (n: number) => new Uint8Array(32).fill(n);
  const state = seededSnapshotState(30, 5);
  const proof = encodePruningProof(pruningProofSample);
  const trusted = encodeTrustedData(trustedDataSample());
  const items = [{ kind: InvType.tx, hash: hash(1) }, { kind: InvType.block, hash: hash(2) }];
  return [
    versionFor(regtestParams, { nonce: 77n, timestampMs: 1_700_000_000_000, bestBlueWork: 12345n, userAgent: '/fuzz:1/' }),
    { type: 'verack' },
    { type: 'ping', nonce: 9n },
    { type: 'pong', nonce: 9n },
    { type: 'getaddr' },
    { type: 'addr', entries: [{ timestampMs: 1_700_000_000_000, services: 1n, nodeId: hash(3), host: '127.0.0.1', port: 9333 }, { timestampMs: 5, services: 3n, nodeId: hash(0), host: 'peer.example', port: 1 }] },
    { type: 'inv', items },
    { type: 'getdata', items },
    { type: 'notfound', items: [...items, { kind: InvType.stateRoot, hash: hash(4) }] },
    { type: 'getheaders', locator: [hash(5), hash(6)], stop: hash(0) },
    { type: 'headers', headers: headerPool.slice(0, 3), more: true },
    { type: 'block', block: { header: headerPool[3]!, transactions: txs.slice(0, 3) } },
    { type: 'tx', tx: txs[0]! },
    { type: 'stemtx', hops: 3, tx: txs[1]! },
    { type: 'reject', code: -32050, banScore: 100, text: 'bad block' },
    { type: 'getpruningproof', pruningPoint: hash(7), offset: 0 },
    { type: 'pruningproof', pruningPoint: hash(7), total: proof.length, offset: 0, page: proof },
    { type: 'getsnapshotchunk', root: state.root, from: hash(0), entriesMax: 8 },
    { type: 'snapshotchunk', root: state.root, from: hash(0), chunk: readSnapshotChunk(state.trie, state.root, hash(0), { entriesMax: 6 }) },
    { type: 'gettrusteddata', pruningPoint: hash(8), offset: 0 },
    { type: 'trusteddata', pruningPoint: hash(8), total: trusted.length, offset: 0, page: trusted },
    { type: 'cmpctblock', header: headerPool[4]!, nonce: hash(12).subarray(0, 8), shortIds: Uint8Array.from([...hash(9).subarray(0, 8), ...hash(10).subarray(0, 8)]) },
    { type: 'getblocktxn', hash: hash(11), indexes: [0, 2, 7] },
    { type: 'blocktxn', hash: hash(11), transactions: txs.slice(0, 2) },
    {
      type: 'prefilledblock', header: headerPool[4]!, nonce: hash(13).subarray(0, 8),
      shortIds: Uint8Array.from([...hash(9).subarray(0, 8), ...hash(10).subarray(0, 8), ...hash(14).subarray(0, 8)]),
      prefilled: [{ index: 0, tx: txs[0]! }, { index: 2, tx: txs[2]! }],
    },
    { type: 'txinv', shortIds: Uint8Array.from([...hash(15).subarray(0, 8), ...hash(16).subarray(0, 8)]) },
    { type: 'gettx', shortIds: hash(15).subarray(0, 8) },
    { type: 'pushblocks', push: false },
  ];
}
