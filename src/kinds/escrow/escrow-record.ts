/**
 * The escrow record, the value of the `escrow` state namespace (docs/settlement.md "Escrow record"): coins a client
 * locked for an agent account and a task, the rules that release them, and where they went. Keyed by the 32-byte
 * escrow id, BLAKE3("weft/escrow/id/v1" ‖ client ‖ creating nonce u64 LE) — known to the client before it sends.
 *
 *   version u8 = 0 | client [33] | agent [33] | task_hash [32] | amount u64 | created_daa_score u64
 *   | timeout_daa_score u64 | dispute_window u64 | has_arbiter u8 | arbiter [33 if has_arbiter] | status u8
 *   | disputed_daa_score u64 | settled_daa_score u64 | agent_share u64
 *
 * Status (the seed's names): 1 EscrowLocked, 2 Claimed, 3 Refunded, 4 Disputed; `None` is an absent record. A
 * settled record stays, so its outcome stays provable. `disputed_daa_score` and `settled_daa_score` (0: not yet) are
 * its history; `agent_share` is what the agent received. Canonical: one encoding per record.
 */
import { createByteReader, type ByteReader } from '../../codec/bytes-reader.ts';
import { createByteWriter } from '../../codec/bytes-writer.ts';
import { addressBytes, checkAddressBytes, InvalidAddressError } from '../../crypto/address.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { AssertionError, DecodeError } from '../../errors.ts';
import { recordBody } from '../agent/record-version.ts';

export const escrowRecordVersion = 0;
export const escrowIdBytes = 32;
export const taskHashBytes = 32;

export const EscrowStatus = { None: 0, EscrowLocked: 1, Claimed: 2, Refunded: 3, Disputed: 4 } as const;
export type EscrowStatus = (typeof EscrowStatus)[keyof typeof EscrowStatus];
const statusNames = ['None', 'EscrowLocked', 'Claimed', 'Refunded', 'Disputed'] as const;
export type EscrowStatusName = (typeof statusNames)[number];

export function escrowStatusName(status: EscrowStatus): EscrowStatusName {
  return statusNames[status];
}

export interface EscrowRecord {
  readonly client: Uint8Array;
  /** The agent account's address (its `agent` record). */
  readonly agent: Uint8Array;
  readonly taskHash: Uint8Array;
  readonly amount: bigint;
  readonly createdDaaScore: bigint;
  /** From this DAA score on the client may reclaim, and the agent may no longer claim. */
  readonly timeoutDaaScore: bigint;
  /** DAA steps after creation from which the agent may claim without the client's receipt; 0: never. */
  readonly disputeWindow: bigint;
  readonly arbiter: Uint8Array | undefined;
  readonly status: Exclude<EscrowStatus, 0>;
  readonly disputedDaaScore: bigint;
  readonly settledDaaScore: bigint;
  readonly agentShare: bigint;
}

const escrowIdTag = new TextEncoder().encode('weft/escrow/id/v1');

/** The id of the escrow `client` creates with its transaction of nonce `nonce`: unique, as a nonce is used once. */
export function escrowIdOf(client: Uint8Array, nonce: bigint): Uint8Array {
  const preimage = new Uint8Array(escrowIdTag.length + addressBytes + 8);
  preimage.set(escrowIdTag, 0);
  preimage.set(client, escrowIdTag.length);
  new DataView(preimage.buffer).setBigUint64(escrowIdTag.length + addressBytes, nonce, true);
  return blake3(preimage);
}

/** Coins the escrow still holds: all of them while locked or disputed, none once settled. */
export function escrowedAmount(record: EscrowRecord): bigint {
  return record.status === EscrowStatus.EscrowLocked || record.status === EscrowStatus.Disputed ? record.amount : 0n;
}

function checkEscrowRecord(record: EscrowRecord, fail: (message: string) => never): void {
  for (const [what, address] of [['client', record.client], ['agent', record.agent], ['arbiter', record.arbiter]] as const) {
    if (address === undefined) continue;
    try {
      checkAddressBytes(address);
    } catch (error) {
      if (!(error instanceof InvalidAddressError)) throw error;
      fail(`${what}: ${error.message}`);
    }
  }
  if (record.status < EscrowStatus.EscrowLocked || record.status > EscrowStatus.Disputed) fail(`status: got ${record.status}, expected 1..4`);
  if (record.agentShare > record.amount) fail(`agent_share ${record.agentShare} exceeds amount ${record.amount}`);
  const open = record.status === EscrowStatus.EscrowLocked || record.status === EscrowStatus.Disputed;
  if (open && (record.settledDaaScore !== 0n || record.agentShare !== 0n)) fail('an open escrow has no settlement yet');
}

export function encodeEscrowRecord(record: EscrowRecord): Uint8Array {
  checkEscrowRecord(record, (message) => {
    throw new AssertionError(`escrow record (encode): ${message}`);
  });
  const w = createByteWriter(256);
  w.u8(escrowRecordVersion);
  w.bytes(record.client, addressBytes, 'client');
  w.bytes(record.agent, addressBytes, 'agent');
  w.bytes(record.taskHash, taskHashBytes, 'task_hash');
  w.u64(record.amount, 'amount');
  w.u64(record.createdDaaScore, 'created_daa_score');
  w.u64(record.timeoutDaaScore, 'timeout_daa_score');
  w.u64(record.disputeWindow, 'dispute_window');
  w.u8(record.arbiter === undefined ? 0 : 1);
  if (record.arbiter !== undefined) w.bytes(record.arbiter, addressBytes, 'arbiter');
  w.u8(record.status);
  w.u64(record.disputedDaaScore, 'disputed_daa_score');
  w.u64(record.settledDaaScore, 'settled_daa_score');
  w.u64(record.agentShare, 'agent_share');
  return w.finish();
}

function fail(message: string): never {
  throw new DecodeError(`escrow record: ${message}`);
}

function readFlag(read: ByteReader, what: string): boolean {
  const byte = read.u8(what);
  if (byte > 1) fail(`${what}: got ${byte}, expected 0 or 1`);
  return byte === 1;
}

export function decodeEscrowRecord(value: Uint8Array): EscrowRecord {
  const read = createByteReader(recordBody(value, 'escrow', escrowRecordVersion));
  const client = read.bytes(addressBytes, 'escrow client');
  const agent = read.bytes(addressBytes, 'escrow agent');
  const taskHash = read.bytes(taskHashBytes, 'escrow task_hash');
  const amount = read.u64('escrow amount');
  const createdDaaScore = read.u64('escrow created_daa_score');
  const timeoutDaaScore = read.u64('escrow timeout_daa_score');
  const disputeWindow = read.u64('escrow dispute_window');
  const arbiter = readFlag(read, 'escrow has_arbiter') ? read.bytes(addressBytes, 'escrow arbiter') : undefined;
  const status = read.u8('escrow status') as EscrowRecord['status'];
  const disputedDaaScore = read.u64('escrow disputed_daa_score');
  const settledDaaScore = read.u64('escrow settled_daa_score');
  const agentShare = read.u64('escrow agent_share');
  read.end('escrow record');
  const record: EscrowRecord = {
    client, agent, taskHash, amount, createdDaaScore, timeoutDaaScore, disputeWindow, arbiter, status, disputedDaaScore, settledDaaScore, agentShare,
  };
  checkEscrowRecord(record, fail);
  return record;
}
