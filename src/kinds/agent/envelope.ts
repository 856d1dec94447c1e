/**
 * The agent and escrow kinds' shared half (tags 0x20–0x25 and 0x30–0x34, docs/settlement.md "Transactions"): one
 * envelope layout — who pays and whose nonce, which key signs in which role, fee and energy — and one module
 * builder, so each kind file declares only its payload, its signers and its own state rules.
 *
 *   body    = kind u8 | chain_id u32 | payer [33] | signer_role u8 | signer [32] | session_key_id u64 | fee u64
 *             | nonce u64 | use_energy u8 | payload (the kind's)
 *   witness = signature [64]   (BIP340 by `signer` over the signing hash, src/kinds/signing.ts)
 *
 * signer_role: 0 the payer's own key (for an agent account, its owner), 1 the payer agent account's controller,
 * 2 one of its session keys (`session_key_id`). Canonical: the payer is a standard address; role 0 signs with
 * exactly the payer's key; roles 0 and 1 carry session_key_id 0.
 */
import { createByteReader, type ByteReader } from '../../codec/bytes-reader.ts';
import { createByteWriter, type ByteWriter } from '../../codec/bytes-writer.ts';
import { AddressType, addressBytes, checkAddressBytes, encodeAddress, InvalidAddressError } from '../../crypto/address.ts';
import { publicKeyBytes, signatureBytes } from '../../crypto/keys.ts';
import type { WitnessCheck } from '../../crypto/witness-check.ts';
import { DecodeError } from '../../errors.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { AddressDecodeError, InvalidTransactionError } from '../errors.ts';
import type { Party, TxKindModule, TxStateView } from '../kind.ts';
import { SignerRole, type AgentEnvelope, type AgentTransaction } from './agent-transaction.ts';
import { applyAuthority, checkAuthority, type AuthorityRules, type Authority } from './authority.ts';

export { SignerRole,  type AgentTransaction, type UnsignedAgentTransaction } from './agent-transaction.ts';
import { spendFields } from '../value-transfer.ts';

const signerRoleNames = ['key', 'controller', 'session_key'] as const;

/** kind + chain_id + payer + signer_role + signer + session_key_id + fee + nonce + use_energy. */
const envelopeBytes = 1 + 4 + addressBytes + 1 + publicKeyBytes + 8 + 8 + 8 + 1;

/** A payload's codec: writer and reader are exact inverses; the reader refuses anything not canonical. */
export interface PayloadCodec<P> {
  bytes(payload: P): number;
  write(w: ByteWriter, payload: P): void;
  read(r: ByteReader): P;
}

export interface AgentKindSpec<K extends number, P> extends AuthorityRules<AgentTransaction<K, P>> {
  readonly tag: K;
  readonly name: string;
  readonly payload: PayloadCodec<P>;
  /** Coins the payer's balance pays out besides the fee (escrowed, pooled). */
  amount(payload: P): bigint;
  /** Proofs beyond the signer's signature (a claim's completion receipt); undefined: none could make it valid. */
  extraProofs?(tx: AgentTransaction<K, P>): WitnessCheck[] | undefined;
  /**
   * Under rules v3, Schnorr checks' worth of mass the kind's state rules add beyond the envelope's (docs/transactions.md
   * "Cost per mass"): a claim reads and rewrites an escrow and pays its agent, about a signature's CPU more.
   */
  readonly stateSigOpsV3?: number;
  /** The kind's own state rules, after the payer's authority and funds passed: a coded reason, or undefined. */
  check(state: TxStateView, tx: AgentTransaction<K, P>, authority: Authority): string | undefined;
  /** The kind's own transition, after the envelope's (nonce, fee, amount, session-key spend) was applied. */
  apply(state: TxStateView, tx: AgentTransaction<K, P>): void;
  /** The address the JSON view shows as `to`, and a recipient party (the payer when the kind has none). */
  counterparty(tx: AgentTransaction<K, P>): Uint8Array;
  /** Payload fields of the JSON view. */
  view(payload: P, hrp: string): Record<string, unknown>;
}

const u32Max = 0xffff_ffff;
const u64Max = (1n << 64n) - 1n;

/** Reads a 33-byte address and refuses one that does not decode (AddressDecodeError, as transfers do). */
export function readAddress(r: ByteReader, what: string): Uint8Array {
  const address = r.bytes(addressBytes, what);
  try {
    checkAddressBytes(address);
  } catch (error) {
    if (!(error instanceof InvalidAddressError)) throw error;
    throw new AddressDecodeError(`transaction ${what}: ${error.message}`, error);
  }
  return address;
}

export function readFlag(r: ByteReader, what: string): boolean {
  const byte = r.u8(what);
  if (byte > 1) throw new DecodeError(`transaction ${what}: got ${byte}, expected 0 or 1`);
  return byte === 1;
}

/** Range and canonical-form checks of the envelope; `fail` is a DecodeError or an InvalidTransactionError. */
function checkEnvelope(tx: AgentEnvelope, fail: (message: string) => never): void {
  if (!Number.isInteger(tx.chainId) || tx.chainId < 0 || tx.chainId > u32Max) fail(`transaction chain_id: got ${tx.chainId}, expected a u32`);
  if (!(tx.payer instanceof Uint8Array) || tx.payer.length !== addressBytes || tx.payer[0] !== AddressType.Standard) {
    fail('transaction payer: expected a 33-byte standard address');
  }
  if (!(tx.signer instanceof Uint8Array) || tx.signer.length !== publicKeyBytes) fail(`transaction signer: expected ${publicKeyBytes} bytes`);
  if (!signerRoleNames[tx.signerRole]) fail(`transaction signer_role: got ${tx.signerRole}, expected 0, 1 or 2`);
  if (tx.signerRole === SignerRole.Key && !equalBytes(tx.signer, tx.payer.subarray(1))) {
    fail("transaction signer: role 0 signs with the payer's own key");
  }
  if (tx.signerRole !== SignerRole.SessionKey && tx.sessionKeyId !== 0n) fail('transaction session_key_id: expected 0 unless a session key signs');
  for (const [name, value] of [['fee', tx.fee], ['nonce', tx.nonce], ['session_key_id', tx.sessionKeyId]] as const) {
    if (typeof value !== 'bigint' || value < 0n || value > u64Max) fail(`transaction ${name}: got ${value}, expected a u64`);
  }
  if (typeof tx.useEnergy !== 'boolean') fail('transaction use_energy: expected a boolean');
}

const failDecode = (message: string): never => {
  throw new DecodeError(message);
};
const failEncode = (message: string): never => {
  throw new InvalidTransactionError(message);
};

type Unsigned<K extends number, P> = Omit<AgentTransaction<K, P>, 'signature'>;

/** The body's length: the envelope and the kind's payload, without the signature. */
const agentBodyBytes = <K extends number, P>(spec: AgentKindSpec<K, P>, tx: Unsigned<K, P>): number => envelopeBytes + spec.payload.bytes(tx.payload);

/** Writes the signed body (envelope, then payload) after the envelope's range checks. */
function writeAgentBody<K extends number, P>(spec: AgentKindSpec<K, P>, w: ByteWriter, tx: Unsigned<K, P>): void {
  checkEnvelope(tx, failEncode);
  w.u8(spec.tag);
  w.u32(tx.chainId, 'chain_id');
  w.bytes(tx.payer, addressBytes, 'payer');
  w.u8(tx.signerRole, 'signer_role');
  w.bytes(tx.signer, publicKeyBytes, 'signer');
  w.u64(tx.sessionKeyId, 'session_key_id');
  w.u64(tx.fee, 'fee');
  w.u64(tx.nonce, 'nonce');
  w.u8(tx.useEnergy ? 1 : 0);
  spec.payload.write(w, tx.payload);
}

/** Reads a whole transaction of `spec`'s kind; a trailing byte, a wrong tag or an out-of-range field is a DecodeError. */
function decodeAgentTransaction<K extends number, P>(spec: AgentKindSpec<K, P>, bytes: Uint8Array): AgentTransaction<K, P> {
  const r = createByteReader(bytes);
  const kind = r.u8('transaction kind');
  if (kind !== spec.tag) failDecode(`transaction kind: got ${kind}, expected ${spec.tag}`);
  const chainId = r.u32('transaction chain_id');
  const payer = readAddress(r, 'payer');
  const signerRole = r.u8('transaction signer_role') as SignerRole;
  const signer = r.bytes(publicKeyBytes, 'transaction signer');
  const sessionKeyId = r.u64('transaction session_key_id');
  const fee = r.u64('transaction fee');
  const nonce = r.u64('transaction nonce');
  const useEnergy = readFlag(r, 'use_energy');
  const payload = spec.payload.read(r);
  const signature = r.bytes(signatureBytes, 'transaction signature');
  r.end('transaction');
  const tx: AgentTransaction<K, P> = { kind: spec.tag, chainId, payer, signerRole, signer, sessionKeyId, fee, nonce, useEnergy, payload, signature };
  checkEnvelope(tx, failDecode);
  return tx;
}

/** Builds the module of an agent or escrow kind from its spec. */
export function defineAgentKind<K extends number, P>(spec: AgentKindSpec<K, P>): TxKindModule<AgentTransaction<K, P>> {
  type Tx = AgentTransaction<K, P>;
  const bodyBytes = (tx: Unsigned<K, P>): number => agentBodyBytes(spec, tx);
  const spendOf = (tx: Tx) => ({ payer: tx.payer, nonce: tx.nonce, amount: spec.amount(tx.payload), fee: tx.fee, useEnergy: tx.useEnergy, feeFromAgentPool: true });

  return {
    tag: spec.tag,
    name: spec.name,
    decode: (bytes) => decodeAgentTransaction(spec, bytes),
    encode(tx) {
      if (!(tx.signature instanceof Uint8Array) || tx.signature.length !== signatureBytes) failEncode(`transaction signature: expected ${signatureBytes} bytes`);
      const w = createByteWriter(bodyBytes(tx) + signatureBytes);
      writeAgentBody(spec, w, tx);
      w.bytes(tx.signature, signatureBytes, 'signature');
      return w.finish();
    },
    encodeBody(tx) {
      const w = createByteWriter(bodyBytes(tx));
      writeAgentBody(spec, w, tx);
      return w.finish();
    },
    bodyBytes,

    witnessChecks(tx, message) {
      const extra = spec.extraProofs === undefined ? [] : spec.extraProofs(tx);
      if (extra === undefined) return undefined;
      return [{ scheme: 'bip340', signature: tx.signature, message, publicKey: tx.signer }, ...extra];
    },
    spend: spendOf,
    conflictKeys: (tx) => [`nonce:${toHex(tx.payer)}:${tx.nonce}`],
    mass: (tx, bytes, rules) => ({ bytes, sigOps: 1 + (spec.extraProofs?.(tx)?.length ?? 0) + (rules?.rulesV3 === true ? spec.stateSigOpsV3 ?? 0 : 0), gas: 0 }),

    checkContext(state, tx) {
      const authority = checkAuthority(state, tx, spendOf(tx), spec);
      if (typeof authority === 'string') return authority;
      return spec.check(state, tx, authority);
    },
    apply(state, tx) {
      const paid = applyAuthority(state, tx, spendOf(tx));
      spec.apply(state, tx);
      return paid;
    },
    parties: (tx): Party[] => [
      { address: tx.payer, role: 'sender', amount: 0n },
      { address: spec.counterparty(tx), role: 'recipient', amount: 0n },
    ],
    view(tx, hrp) {
      return {
        from: encodeAddress(hrp, tx.payer),
        to: encodeAddress(hrp, spec.counterparty(tx)),
        ...spendFields(spec.amount(tx.payload), tx.fee, tx.nonce, tx.useEnergy),
        signer_role: signerRoleNames[tx.signerRole],
        signer: toHex(tx.signer),
        ...(tx.signerRole === SignerRole.SessionKey ? { session_key_id: tx.sessionKeyId.toString() } : {}),
        ...spec.view(tx.payload, hrp),
      };
    },
  };
}
