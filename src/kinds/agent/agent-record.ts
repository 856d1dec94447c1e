/**
 * The agent account record, the value of the `agent` state namespace (docs/settlement.md "Agent account record"):
 * who may act for the account (owner, controller, scoped session keys), whether it is frozen, the coins in its energy
 * pool, and the settlement counters its reputation is derived from. Keyed by the agent account's 33-byte address.
 *
 *   version u8 = 0 | owner [32] | controller [32] | frozen u8 | energy_pool u64 | next_session_key_id u64
 *   | claimed u64 | refunded u64 | resolved u64 | has_identity u8 | identity_proof_hash [32 if has_identity]
 *   | session_key_count u8 (≤ sessionKeysMax)
 *   | (id u64 | public_key [32] | allowed_kinds u32 | tx_cap u64 | total_cap u64 | spent u64 | expiry_daa_score u64
 *      | revoked u8) × count                                      (ids strictly ascending, each < next_session_key_id)
 *
 * Little-endian, fixed width, canonical: flags are 0 or 1, scope bits only those of kinds a session key may sign,
 * spent ≤ total_cap, no trailing bytes — every record has exactly one encoding. Pure (layer 1): the state layer
 * declares it as the namespace's codec and light clients decode proven values with it.
 */
import { createByteReader, type ByteReader } from '../../codec/bytes-reader.ts';
import { createByteWriter } from '../../codec/bytes-writer.ts';
import { TxKind } from '../../codec/transaction-kinds.ts';
import { AssertionError, DecodeError } from '../../errors.ts';
import { publicKeyBytes } from '../../crypto/keys.ts';
import { recordBody } from './record-version.ts';

export const agentRecordVersion = 0;
/** Session keys an account holds at once (live, revoked or expired until pruned): bounds the record at ~1.3 KB. */
export const sessionKeysMax = 16;
export const identityProofHashBytes = 32;
const basisPointsMax = 10_000n;

/**
 * The kinds a session key may be scoped for, each with its bit in `allowed_kinds` (docs/settlement.md "Signers"):
 * paying into pools and escrows and the escrow steps an agent takes day to day. Key management, the controller
 * and freezing are never a session key's.
 */
export const sessionScopeBit: ReadonlyMap<number, number> = new Map([
  [TxKind.AgentFundEnergyPool, 1 << 0],
  [TxKind.EscrowCreate, 1 << 1],
  [TxKind.EscrowClaim, 1 << 2],
  [TxKind.EscrowReclaim, 1 << 3],
  [TxKind.EscrowDispute, 1 << 4],
]);
export const sessionScopeMask = [...sessionScopeBit.values()].reduce((a, b) => a | b, 0);

export interface SessionKey {
  /** Assigned by the account (next_session_key_id), never reused. */
  readonly id: bigint;
  readonly publicKey: Uint8Array;
  /** Bits of sessionScopeBit. */
  readonly allowedKinds: number;
  /** Most coins (amount + fee) one transaction it signs may take from the account. */
  readonly txCap: bigint;
  /** Most coins all transactions it signs may take together; `spent` counts them. */
  readonly totalCap: bigint;
  readonly spent: bigint;
  /** The key signs nothing accepted at or after this DAA score. */
  readonly expiryDaaScore: bigint;
  readonly revoked: boolean;
}

export interface AgentRecord {
  readonly owner: Uint8Array;
  readonly controller: Uint8Array;
  readonly frozen: boolean;
  /** Coins set aside to pay the account's fees (`use_energy`); they leave the pool only as fees. */
  readonly energyPool: bigint;
  readonly nextSessionKeyId: bigint;
  /** Escrows of this agent claimed without a dispute, refunded to the client, and resolved by an arbiter. */
  readonly claimed: bigint;
  readonly refunded: bigint;
  readonly resolved: bigint;
  readonly identityProofHash: Uint8Array | undefined;
  readonly sessionKeys: readonly SessionKey[];
}

const sessionKeyBytes = 8 + publicKeyBytes + 4 + 8 * 4 + 1;

function fail(message: string): never {
  throw new DecodeError(`agent record: ${message}`);
}

function flag(read: ByteReader, what: string): boolean {
  const byte = read.u8(what);
  if (byte > 1) fail(`${what}: got ${byte}, expected 0 or 1`);
  return byte === 1;
}

/** Checks what the encoding alone cannot: key order and ids, scope bits, spent within its cap. */
function checkAgentRecord(record: AgentRecord, failWith: (message: string) => never): void {
  if (record.sessionKeys.length > sessionKeysMax) failWith(`got ${record.sessionKeys.length} session keys, expected at most ${sessionKeysMax}`);
  record.sessionKeys.forEach((key, i) => {
    if (i > 0 && record.sessionKeys[i - 1]!.id >= key.id) failWith('session key ids: expected strictly ascending');
    if (key.id >= record.nextSessionKeyId) failWith(`session key id ${key.id}: expected below next_session_key_id ${record.nextSessionKeyId}`);
    if ((key.allowedKinds & ~sessionScopeMask) !== 0) failWith(`session key ${key.id}: allowed_kinds ${key.allowedKinds} has bits outside ${sessionScopeMask}`);
    if (key.spent > key.totalCap) failWith(`session key ${key.id}: spent ${key.spent} exceeds total_cap ${key.totalCap}`);
  });
}

export function encodeAgentRecord(record: AgentRecord): Uint8Array {
  // The kinds only ever build valid records: one that is not is a bug, never input.
  const refuse = (message: string): never => {
    throw new AssertionError(`agent record (encode): ${message}`);
  };
  checkAgentRecord(record, refuse);
  const w = createByteWriter(128 + record.sessionKeys.length * sessionKeyBytes);
  w.u8(agentRecordVersion);
  w.bytes(record.owner, publicKeyBytes, 'owner');
  w.bytes(record.controller, publicKeyBytes, 'controller');
  w.u8(record.frozen ? 1 : 0);
  for (const [what, value] of [
    ['energy_pool', record.energyPool],
    ['next_session_key_id', record.nextSessionKeyId],
    ['claimed', record.claimed],
    ['refunded', record.refunded],
    ['resolved', record.resolved],
  ] as const) {
    w.u64(value, what);
  }
  w.u8(record.identityProofHash === undefined ? 0 : 1);
  if (record.identityProofHash !== undefined) w.bytes(record.identityProofHash, identityProofHashBytes, 'identity_proof_hash');
  w.u8(record.sessionKeys.length);
  for (const key of record.sessionKeys) {
    w.u64(key.id, 'session key id');
    w.bytes(key.publicKey, publicKeyBytes, 'session key public_key');
    w.u32(key.allowedKinds, 'allowed_kinds');
    w.u64(key.txCap, 'tx_cap');
    w.u64(key.totalCap, 'total_cap');
    w.u64(key.spent, 'spent');
    w.u64(key.expiryDaaScore, 'expiry_daa_score');
    w.u8(key.revoked ? 1 : 0);
  }
  return w.finish();
}

export function decodeAgentRecord(value: Uint8Array): AgentRecord {
  const read = createByteReader(recordBody(value, 'agent', agentRecordVersion));
  const owner = read.bytes(publicKeyBytes, 'agent owner');
  const controller = read.bytes(publicKeyBytes, 'agent controller');
  const frozen = flag(read, 'agent frozen');
  const energyPool = read.u64('agent energy_pool');
  const nextSessionKeyId = read.u64('agent next_session_key_id');
  const claimed = read.u64('agent claimed');
  const refunded = read.u64('agent refunded');
  const resolved = read.u64('agent resolved');
  const identityProofHash = flag(read, 'agent has_identity') ? read.bytes(identityProofHashBytes, 'agent identity_proof_hash') : undefined;
  const count = read.u8('agent session_key_count');
  // Bound the count before reading that many keys.
  if (count > sessionKeysMax) fail(`got ${count} session keys, expected at most ${sessionKeysMax}`);
  const sessionKeys: SessionKey[] = [];
  for (let i = 0; i < count; i++) {
    sessionKeys.push({
      id: read.u64('session key id'),
      publicKey: read.bytes(publicKeyBytes, 'session key public_key'),
      allowedKinds: read.u32('session key allowed_kinds'),
      txCap: read.u64('session key tx_cap'),
      totalCap: read.u64('session key total_cap'),
      spent: read.u64('session key spent'),
      expiryDaaScore: read.u64('session key expiry_daa_score'),
      revoked: flag(read, 'session key revoked'),
    });
  }
  read.end('agent record');
  const record: AgentRecord = { owner, controller, frozen, energyPool, nextSessionKeyId, claimed, refunded, resolved, identityProofHash, sessionKeys };
  checkAgentRecord(record, fail);
  return record;
}

/**
 * `reputation_score_bps` (docs/settlement.md "Reputation"): the share, in basis points, of the agent's settled
 * escrows that it claimed without a dispute — ⌊10,000 × claimed / (claimed + refunded + resolved)⌋ — and undefined
 * (the seed's field is optional) before any escrow of it settled. Integer arithmetic: every node derives the same.
 */
export function reputationScoreBps(record: Pick<AgentRecord, 'claimed' | 'refunded' | 'resolved'>): number | undefined {
  const settled = record.claimed + record.refunded + record.resolved;
  if (settled === 0n) return undefined;
  return Number((basisPointsMax * record.claimed) / settled);
}

/** The live session key `id` of the record, if any. */
export function sessionKeyOf(record: AgentRecord, id: bigint): SessionKey | undefined {
  return record.sessionKeys.find((key) => key.id === id);
}
