// The agent and escrow record codecs (docs/settlement.md "Agent account record", "Escrow record"): every record
// round-trips, decoding is canonical (a value that decodes re-encodes to the same bytes), bounded (at most 16
// session keys, read before the keys) and versioned like every state record; the namespaces use these codecs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressType } from '../../../src/crypto/address.ts';
import { AssertionError, DecodeError } from '../../../src/errors.ts';
import {
  decodeAgentRecord,
  encodeAgentRecord,
  reputationScoreBps,
  sessionKeysMax,
  sessionScopeMask,
  type AgentRecord,
} from '../../../src/kinds/agent/agent-record.ts';
import { decodeEscrowRecord, encodeEscrowRecord, escrowIdOf, EscrowStatus, type EscrowRecord } from '../../../src/kinds/escrow/escrow-record.ts';
import { decodeStateRecord, stateNamespaces } from '../../../src/state/namespaces.ts';
import { toHex } from '../../../src/util/bytes.ts';

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const key32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const address = fc.tuple(fc.constantFrom(AddressType.Standard, AddressType.Multisig), key32).map(([type, payload]) => Uint8Array.of(type, ...payload));

const agentArb: fc.Arbitrary<AgentRecord> = fc
  .record({
    owner: key32,
    controller: key32,
    frozen: fc.boolean(),
    energyPool: u64,
    claimed: u64,
    refunded: u64,
    resolved: u64,
    identityProofHash: fc.option(key32, { nil: undefined }),
    keys: fc.uniqueArray(fc.bigInt({ min: 0n, max: 1n << 40n }), { maxLength: sessionKeysMax }),
    scope: fc.array(fc.tuple(key32, fc.integer({ min: 0, max: sessionScopeMask }), u64, u64, u64, fc.boolean(), fc.bigInt({ min: 0n, max: 100n })), {
      minLength: sessionKeysMax,
      maxLength: sessionKeysMax,
    }),
  })
  .map(({ keys, scope, ...rest }) => {
    const ids = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const sessionKeys = ids.map((id, i) => {
      const [publicKey, allowedKinds, txCap, totalCap, expiryDaaScore, revoked, spentPart] = scope[i]!;
      return { id, publicKey, allowedKinds, txCap, totalCap, spent: (totalCap * spentPart) / 100n, expiryDaaScore, revoked };
    });
    return { ...rest, nextSessionKeyId: (ids.at(-1) ?? 0n) + 1n, sessionKeys };
  });

const escrowArb: fc.Arbitrary<EscrowRecord> = fc
  .record({
    client: address,
    agent: address,
    taskHash: key32,
    amount: u64,
    createdDaaScore: u64,
    timeoutDaaScore: u64,
    disputeWindow: u64,
    arbiter: fc.option(address, { nil: undefined }),
    status: fc.constantFrom(EscrowStatus.EscrowLocked, EscrowStatus.Claimed, EscrowStatus.Refunded, EscrowStatus.Disputed),
    disputedDaaScore: u64,
    settledDaaScore: u64,
    sharePart: fc.bigInt({ min: 0n, max: 100n }),
  })
  .map(({ sharePart, ...r }) => {
    const open = r.status === EscrowStatus.EscrowLocked || r.status === EscrowStatus.Disputed;
    return { ...r, settledDaaScore: open ? 0n : r.settledDaaScore, agentShare: open ? 0n : (r.amount * sharePart) / 100n };
  });

const reason = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return error instanceof DecodeError ? ((error.details as { reason?: string } | undefined)?.reason ?? 'decode') : error;
  }
  return undefined;
};

describe('agent account record codec', () => {
  it('round-trips every record, and is the agent namespace codec', () => {
    fc.assert(
      fc.property(agentArb, (record) => {
        const value = encodeAgentRecord(record);
        expect(value[0]).toBe(0);
        expect(decodeAgentRecord(value)).toEqual(record);
        expect(decodeStateRecord('agent', value)).toEqual(record);
        expect(stateNamespaces.agent.codec.encode(record)).toEqual(value);
      }),
    );
    expect(stateNamespaces.agent.status).toBe('active');
    expect(stateNamespaces.agent.codec.versions).toEqual([0]);
  });

  it('is canonical: any byte string that decodes re-encodes to itself', () => {
    fc.assert(
      fc.property(agentArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (record, at, byte) => {
        const value = encodeAgentRecord(record);
        const mutated = Uint8Array.from(value);
        mutated[at % value.length] = byte;
        let decoded: AgentRecord | undefined;
        try {
          decoded = decodeAgentRecord(mutated);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          return;
        }
        expect(toHex(encodeAgentRecord(decoded))).toBe(toHex(mutated));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses more than 16 session keys before reading them, flags other than 0/1, out-of-order ids, spent over its cap, trailing bytes and other versions', () => {
    const record = fc.sample(agentArb.filter((r) => r.sessionKeys.length >= 2 && r.identityProofHash === undefined), { numRuns: 1, seed: 7 })[0]!;
    const value = encodeAgentRecord(record);
    const countAt = 1 + 32 + 32 + 1 + 8 * 5 + 1;
    expect(value[countAt]).toBe(record.sessionKeys.length);
    const tooMany = Uint8Array.from(value.subarray(0, countAt + 1));
    tooMany[countAt] = sessionKeysMax + 1;
    expect(() => decodeAgentRecord(tooMany)).toThrow(/at most 16/);
    const badFlag = Uint8Array.from(value);
    badFlag[1 + 64] = 2;
    expect(() => decodeAgentRecord(badFlag)).toThrow(/frozen: got 2/);
    const swapped = { ...record, sessionKeys: [...record.sessionKeys].reverse() };
    expect(() => encodeAgentRecord(swapped)).toThrow(AssertionError);
    const overspent = { ...record, sessionKeys: record.sessionKeys.map((k) => ({ ...k, spent: k.totalCap + 1n })) };
    expect(() => encodeAgentRecord(overspent)).toThrow(/exceeds total_cap/);
    expect(() => decodeAgentRecord(Uint8Array.of(...value, 0))).toThrow(/trailing/);
    expect(reason(() => decodeAgentRecord(Uint8Array.of(1, ...value.subarray(1))))).toBe('record-version-unknown');
    expect(reason(() => decodeAgentRecord(new Uint8Array(0)))).toBe('record-empty');
    const badScope = { ...record, sessionKeys: record.sessionKeys.map((k) => ({ ...k, allowedKinds: 1 << 20 })) };
    expect(() => encodeAgentRecord(badScope)).toThrow(/allowed_kinds/);
  });

  it('derives reputation_score_bps from the settlement counters: undefined before any settlement, floor otherwise', () => {
    expect(reputationScoreBps({ claimed: 0n, refunded: 0n, resolved: 0n })).toBeUndefined();
    expect(reputationScoreBps({ claimed: 3n, refunded: 0n, resolved: 0n })).toBe(10_000);
    expect(reputationScoreBps({ claimed: 2n, refunded: 1n, resolved: 0n })).toBe(6_666);
    expect(reputationScoreBps({ claimed: 1n, refunded: 1n, resolved: 2n })).toBe(2_500);
    expect(reputationScoreBps({ claimed: 0n, refunded: 5n, resolved: 0n })).toBe(0);
  });
});

describe('escrow record codec', () => {
  it('round-trips every record, and is the escrow namespace codec', () => {
    fc.assert(
      fc.property(escrowArb, (record) => {
        const value = encodeEscrowRecord(record);
        expect(decodeEscrowRecord(value)).toEqual(record);
        expect(decodeStateRecord('escrow', value)).toEqual(record);
      }),
    );
    expect(stateNamespaces.escrow.status).toBe('active');
  });

  it('is canonical: any byte string that decodes re-encodes to itself', () => {
    fc.assert(
      fc.property(escrowArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (record, at, byte) => {
        const value = encodeEscrowRecord(record);
        const mutated = Uint8Array.from(value);
        mutated[at % value.length] = byte;
        let decoded: EscrowRecord | undefined;
        try {
          decoded = decodeEscrowRecord(mutated);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          return;
        }
        expect(toHex(encodeEscrowRecord(decoded))).toBe(toHex(mutated));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses status None and unknown statuses, a share over the amount, a settled share while open, and other versions', () => {
    const record = fc.sample(escrowArb.filter((r) => r.arbiter === undefined && r.amount > 0n), { numRuns: 1, seed: 3 })[0]!;
    const value = encodeEscrowRecord({ ...record, status: EscrowStatus.EscrowLocked, settledDaaScore: 0n, agentShare: 0n });
    const statusAt = 1 + 33 + 33 + 32 + 32 + 1;
    for (const status of [0, 5, 255]) {
      const bad = Uint8Array.from(value);
      bad[statusAt] = status;
      expect(() => decodeEscrowRecord(bad)).toThrow(/status/);
    }
    expect(() => encodeEscrowRecord({ ...record, status: EscrowStatus.Claimed, agentShare: record.amount + 1n })).toThrow(/exceeds amount/);
    expect(() => encodeEscrowRecord({ ...record, status: EscrowStatus.EscrowLocked, agentShare: 1n })).toThrow(/open escrow/);
    expect(reason(() => decodeEscrowRecord(Uint8Array.of(9, ...value.subarray(1))))).toBe('record-version-unknown');
  });

  it('derives escrow ids from the client and its nonce: distinct per nonce and per client', () => {
    const a = Uint8Array.of(0, ...new Uint8Array(32).fill(1));
    const b = Uint8Array.of(0, ...new Uint8Array(32).fill(2));
    const ids = new Set([escrowIdOf(a, 0n), escrowIdOf(a, 1n), escrowIdOf(b, 0n)].map(toHex));
    expect(ids.size).toBe(3);
    expect(escrowIdOf(a, 7n)).toEqual(escrowIdOf(a, 7n));
  });
});
