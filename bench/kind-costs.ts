/**
 * What each transaction kind costs a validator per unit of mass it is charged (issue 30 "Every cost is priced";
 * docs/transactions.md "Cost per mass"). For every kind of src/kinds/registry.ts at its worst-case shape (most
 * signatures, largest ring × most inputs, most outputs, largest gas limit, longest memo), on one thread:
 *
 *   verify — decode + every proof the kind names (BIP340 through the node's libsecp256k1 verifier, CLSAG and
 *            Bulletproofs+ through Weft's own), decoded-point caches cleared first (a ring never seen before);
 *   apply  — the kind's state rules and transition through the real acceptMergeset, on a state where it is accepted
 *            (minus an empty mergeset's acceptance), where the bench builds that state (see `applied` below).
 *
 * and prints µs per mass next to a plain transfer's, and the ratio. Then the same for P2P messages: the CPU one
 * message of the largest size costs a node to decode, against its bytes (a second table).
 *
 * Times are CPU time (process.cpuUsage), median of `runs` after one warm-up.
 *
 * Run: npx tsx bench/kind-costs.ts [runs = 7]
 */
import { loadavg } from 'node:os';
import { fastVerifier } from '../server/crypto/fast-verifier.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import { decodeTransaction, encodeTransaction, type AnyTransaction } from '../src/kinds/transaction-codec.ts';
import { multisigAddress } from '../src/crypto/address.ts';
import { publicKeyFromPrivate, schnorrSign } from '../src/crypto/keys.ts';
import { clearDecodedPoints } from '../src/crypto/monero/decoded-points.ts';
import { commit } from '../src/crypto/monero/commitment.ts';
import { keysFromSpendSecret } from '../src/crypto/monero/keys.ts';
import { encodePoint, mulBase } from '../src/crypto/monero/point.ts';
import { randomScalar, type RandomBytes } from '../src/crypto/monero/scalar.ts';
import { witnessVerifierOver } from '../src/crypto/witness-check.ts';
import { agentAddSessionKeyKind } from '../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../src/kinds/agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from '../src/kinds/agent/agent-fund-energy-pool.ts';
import { agentRevokeSessionKeyKind } from '../src/kinds/agent/agent-revoke-session-key.ts';
import { agentSetControllerKind } from '../src/kinds/agent/agent-set-controller.ts';
import { sessionScopeMask } from '../src/kinds/agent/agent-record.ts';
import { signCompletionReceipt } from '../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../src/kinds/escrow/escrow-reclaim.ts';
import { escrowIdOf } from '../src/kinds/escrow/escrow-record.ts';
import { escrowResolveKind } from '../src/kinds/escrow/escrow-resolve.ts';
import { confidentialInputsMax, confidentialOutputsMax } from '../src/kinds/confidential/rules.ts';
import { signContractCall } from '../src/kinds/contract-call.ts';
import { signContractDeploy } from '../src/kinds/contract-deploy.ts';
import { massOf } from '../src/kinds/mass.ts';
import { assembleMultisigTransfer, signMultisigShare } from '../src/kinds/multisig-transfer.ts';
import { kindOf } from '../src/kinds/registry.ts';
import { signingHashOfBody } from '../src/kinds/signing.ts';
import { contractTxGasLimitMax } from '../src/limits.ts';
import type { StoredAccount } from '../src/state/account-codec.ts';
import { acceptMergeset } from '../src/state/acceptance.ts';
import { toHex } from '../src/util/bytes.ts';
import { buildRingSpend, buildShield, type OwnedOutput } from '../src/wallet/confidential.ts';
import { agentLedger, arbiter, client, controller, owner, session, stranger, type SimLedger } from '../test/helpers/agent-fixtures.ts';
import { addressOfKey, testChainId, testKey } from '../test/helpers/mempool-fixtures.ts';
import { seededRandom } from '../test/helpers/confidential-fixtures.ts';
import { p2pMessageCosts } from './kind-costs-p2p.ts';

const runs = Number(process.argv[2] ?? 7);
const random: RandomBytes = seededRandom(30);
const verifier = witnessVerifierOver(fastVerifier);
const memoMax = new Uint8Array(256).fill(0x6d);
const aux = new Uint8Array(32);

/** A state to accept one transaction onto: read functions over maps, and the DAA score it is accepted at. */
interface ApplyState {
  readonly read: (address: Uint8Array) => StoredAccount | undefined;
  readonly readRecord: (key: Uint8Array) => Uint8Array | undefined;
  readonly daaScore: number;
}
interface Case {
  readonly tx: AnyTransaction;
  readonly shape: string;
  readonly state?: ApplyState;
}

/** Median CPU time (user + system, ms) of `f`: CPU, not wall time, so a loaded machine skews it less. */
function medianMs(f: () => void, before?: () => void): number {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    before?.();
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    if (i > 0) times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const stateOf = (accounts: ReadonlyMap<string, StoredAccount>, daaScore = 1, records: ReadonlyMap<string, Uint8Array> = new Map()): ApplyState => ({
  read: (address) => accounts.get(toHex(address)),
  readRecord: (key) => records.get(toHex(key)),
  daaScore,
});
const funded = (address: Uint8Array, balance = 10n ** 15n) => new Map([[toHex(address), { balance, nonce: 0n, energy: 0n, energyDaaScore: 0 }]]);
const simState = (sim: SimLedger, daaScore = sim.daaScore): ApplyState => ({
  read: (address) => sim.account(address),
  readRecord: (key) => sim.records.get(toHex(key)),
  daaScore,
});

function valueTransferCases(): Case[] {
  const key = testKey(1);
  const from = addressOfKey(key);
  const transfer = { kind: TxKind.Transfer, chainId: testChainId, from, to: addressOfKey(testKey(2)), amount: 1_000n, fee: 10_000n, nonce: 0n, useEnergy: false, memo: memoMax };
  const signedTransfer = { ...transfer, signature: schnorrSign(signingHashOfBody(kindOf(transfer as never).encodeBody(transfer as never)), key, aux) };
  const keys = Array.from({ length: 16 }, (_, i) => testKey(100 + i));
  const script = { m: 16, publicKeys: keys.map(publicKeyFromPrivate).sort((a, b) => (toHex(a) < toHex(b) ? -1 : 1)) };
  const multi = multisigAddress(16, script.publicKeys);
  const unsigned = { ...transfer, kind: TxKind.MultisigTransfer, from: multi } as const;
  const shares = keys.map((k) => signMultisigShare(unsigned as never, script, k, aux));
  const plain = { ...transfer, memo: new Uint8Array(0) };
  const signedPlain = { ...plain, signature: schnorrSign(signingHashOfBody(kindOf(plain as never).encodeBody(plain as never)), key, aux) };
  return [
    { tx: signedPlain as AnyTransaction, shape: 'plain (the reference)', state: stateOf(funded(from)) },
    { tx: signedTransfer as AnyTransaction, shape: 'memo 256 B', state: stateOf(funded(from)) },
    { tx: assembleMultisigTransfer(unsigned as never, script, shares) as AnyTransaction, shape: '16-of-16, memo 256 B', state: stateOf(funded(multi)) },
  ];
}

/** The agent and escrow kinds on the agent fixtures' ledger (agent account, session key, client, arbiter). */
function agentCases(): Case[] {
  const sim = agentLedger();
  const next = (who: Uint8Array) => ({ nonce: sim.account(who).nonce });
  const create = (terms: object = {}) => {
    const tx = sim.tx(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(7), amount: 50_000n, timeoutDaaScore: 100n, disputeWindow: 10n, arbiter: arbiter.address, ...terms }, client);
    if (!sim.block([tx]).every(Boolean)) throw new Error('escrow setup refused');
    return escrowIdOf(tx.payer, tx.nonce);
  };
  const locked = create();
  const disputed = create();
  if (!sim.block([sim.tx(escrowDisputeKind, { escrowId: disputed }, client)]).every(Boolean)) throw new Error('dispute setup refused');
  const receipt = { clientKey: client.publicKey, signature: signCompletionReceipt(testChainId, locked, client.privateKey, aux) };
  const state = simState(sim);
  const cases: Case[] = [
    { tx: sim.tx(agentCreateKind, { controller: controller.publicKey, identityProofHash: new Uint8Array(32).fill(1) }, stranger, next(stranger.address)), shape: 'with identity', state },
    { tx: sim.tx(agentSetControllerKind, { controller: session.publicKey }, owner, next(owner.address)), shape: '', state },
    { tx: sim.tx(agentAddSessionKeyKind, { publicKey: stranger.publicKey, allowedKinds: sessionScopeMask, txCap: 1n, totalCap: 1n, expiryDaaScore: 900n }, owner, next(owner.address)), shape: '', state },
    { tx: sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, owner, next(owner.address)), shape: '', state },
    { tx: sim.tx(agentFreezeKind, { frozen: true }, owner, next(owner.address)), shape: '', state },
    { tx: sim.tx(agentFundEnergyPoolKind, { agent: owner.address, amount: 1_000n }, client, next(client.address)), shape: '', state },
    { tx: sim.tx(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32), amount: 1_000n, timeoutDaaScore: 100n, disputeWindow: 10n, arbiter: arbiter.address }, client, next(client.address)), shape: 'with arbiter', state },
    { tx: sim.tx(escrowClaimKind, { escrowId: locked, receipt }, session, { payer: owner.address, role: 2, sessionKeyId: 1n, ...next(owner.address) }), shape: 'receipt (2 signatures), session key', state },
    { tx: sim.tx(escrowReclaimKind, { escrowId: locked }, client, next(client.address)), shape: '', state: simState(sim, 100) },
    { tx: sim.tx(escrowDisputeKind, { escrowId: locked }, client, next(client.address)), shape: '', state },
    { tx: sim.tx(escrowResolveKind, { escrowId: disputed, agentShare: 1n }, arbiter, next(arbiter.address)), shape: '', state },
  ];
  return cases as Case[];
}

function owned(amount: bigint): OwnedOutput {
  const secretKey = randomScalar(random);
  const mask = randomScalar(random);
  return { secretKey, mask, amount, oneTimeKey: encodePoint(mulBase(secretKey)), commitment: encodePoint(commit(mask, amount)) };
}

/** Ring spends at their largest: 16 inputs, rings of 16, 16 hidden outputs (verify only: no state built). */
function confidentialCases(): Case[] {
  const receiver = keysFromSpendSecret(424242n);
  const to = { spendPublic: receiver.spendPublic, viewPublic: receiver.viewPublic };
  const decoys = Array.from({ length: 15 }, () => {
    const o = owned(1n);
    return { oneTimeKey: o.oneTimeKey, commitment: o.commitment };
  });
  const inputs = Array.from({ length: confidentialInputsMax }, () => ({ owned: owned(100_000n), decoys }));
  const total = 100_000n * BigInt(confidentialInputsMax);
  const fee = 10_000n;
  const each = (total - fee) / BigInt(confidentialOutputsMax);
  const outputs = Array.from({ length: confidentialOutputsMax }, (_, i) => ({ to, amount: i === 0 ? total - fee - each * BigInt(confidentialOutputsMax - 1) : each }));
  const transfer = buildRingSpend({ chainId: testChainId, fee, inputs, outputs, random });
  const unshieldOutputs = outputs.slice(1);
  const unshieldAmount = total - fee - unshieldOutputs.reduce((s, o) => s + o.amount, 0n);
  const unshield = buildRingSpend({ chainId: testChainId, fee, inputs, outputs: unshieldOutputs, unshield: { to: addressOfKey(testKey(3)), amount: unshieldAmount }, random });
  const payer = testKey(4);
  const shield = buildShield({ chainId: testChainId, privateKey: payer, fee, nonce: 0n, outputs: Array.from({ length: confidentialOutputsMax }, () => ({ to, amount: 1_000n })), random });
  return [
    { tx: transfer as AnyTransaction, shape: '16 inputs × ring 16, 16 outputs' },
    { tx: unshield as AnyTransaction, shape: '16 inputs × ring 16, 15 outputs' },
    { tx: shield as AnyTransaction, shape: '16 outputs', state: stateOf(funded(addressOfKey(payer))) },
  ];
}

/** Contracts at the largest gas limit (verify only: their execution is metered by gas, docs/contracts.md). */
function contractCases(): Case[] {
  const key = testKey(5);
  const from = addressOfKey(key);
  const fields = { chainId: testChainId, from, nonce: 0n, gasLimit: BigInt(contractTxGasLimitMax), gasPrice: 1n, value: 0n, useEnergy: false, params: new Uint8Array(0) };
  const deploy = signContractDeploy({ ...fields, kind: TxKind.ContractDeploy, vmVersion: 1, code: new Uint8Array(4096) }, key, aux);
  const call = signContractCall({ ...fields, kind: TxKind.ContractCall, contract: new Uint8Array(33).fill(1).map((v, i) => (i === 0 ? 0x10 : v)), method: 'run' }, key, aux);
  return [
    { tx: deploy as AnyTransaction, shape: `gas limit ${contractTxGasLimitMax.toLocaleString('en')}` },
    { tx: call as AnyTransaction, shape: `gas limit ${contractTxGasLimitMax.toLocaleString('en')}` },
  ];
}

function verifyMs(bytes: Uint8Array): number {
  return medianMs(() => {
    const tx = decodeTransaction(bytes);
    const kind = kindOf(tx);
    const checks = kind.witnessChecks(tx, signingHashOfBody(bytes.subarray(0, kind.bodyBytes(tx))));
    if (checks === undefined || !verifier.verifyWitnesses(checks).every(Boolean)) throw new Error(`${kind.name}: proofs do not verify`);
  }, clearDecodedPoints);
}

const miner = new Uint8Array(33);
function acceptance(state: ApplyState, txs: readonly AnyTransaction[]) {
  return acceptMergeset({ ...state, merged: [{ id: 'b', miner, daaScore: state.daaScore, blue: true, transactions: txs.map((tx) => ({ tx })) }], mergingMiner: miner, emittedBefore: 0n });
}
function applyMs(tx: AnyTransaction, state: ApplyState): number {
  if (!acceptance(state, [tx]).blocks[0]!.accepted[0]) throw new Error(`${kindOf(tx).name}: not accepted on the bench's state`);
  return Math.max(0, medianMs(() => acceptance(state, [tx])) - medianMs(() => acceptance(state, [])));
}

console.log(`node ${process.version}, CPU time, median of ${runs} runs after one warm-up; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const cases = [...valueTransferCases(), ...agentCases(), ...confidentialCases(), ...contractCases()];
const measure = ({ tx, shape, state }: (typeof cases)[number]) => {
  const bytes = encodeTransaction(tx as never);
  const kind = kindOf(tx);
  // Weighed as the blocks it would go in are: rules v3 (mass re-priced; src/consensus/activation.ts), with rules v2's
  // weight beside it where it differs.
  const mass = massOf(kind.mass(tx, bytes.length, { rulesV3: true }));
  const massV2 = massOf(kind.mass(tx, bytes.length, { rulesV3: false }));
  const verify = verifyMs(bytes) * 1000;
  const apply = state === undefined ? undefined : applyMs(tx, state) * 1000;
  return { name: kind.name, shape, bytes: bytes.length, mass, massV2, verify, apply, perMass: (verify + (apply ?? 0)) / mass };
};
// The reference is measured first: once untimed, so its row does not carry the decoder's and acceptance's JIT warm-up.
measure(cases[0]!);
const rows = cases.map(measure);
const base = rows[0]!.perMass;
console.log(`\nsignatures: ${fastVerifier.name}`);
console.log('\n| kind | worst-case shape | bytes | mass (rules v3; v2 if other) | verify µs | apply µs | µs per mass | × transfer |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.name} | ${r.shape || '–'} | ${r.bytes} | ${r.mass}${r.massV2 === r.mass ? '' : ` (${r.massV2})`} | ${r.verify.toFixed(0)} | ${r.apply === undefined ? 'not measured' : r.apply.toFixed(0)} | ${r.perMass.toFixed(3)} | ${(r.perMass / base).toFixed(2)} |`);
}
const over = rows.filter((r) => r.perMass > 2 * base);
console.log(over.length === 0 ? '\nevery kind ≤ 2× the transfer' : `\nover 2× the transfer: ${over.map((r) => `${r.name} (${(r.perMass / base).toFixed(2)}×)`).join(', ')}`);

console.log('\n| P2P message | largest size (bytes) | decode µs | µs per KiB | resident bytes after decode |');
console.log('|---|---|---|---|---|');
for (const m of p2pMessageCosts(runs)) console.log(`| ${m.name} | ${m.bytes} | ${m.decodeUs.toFixed(0)} | ${((m.decodeUs * 1024) / m.bytes).toFixed(1)} | ${m.memory} |`);
