// The agent and escrow transaction codec (src/kinds/agent/envelope.ts, docs/settlement.md "Transactions"): every kind
// round-trips through the one transaction codec, decoding is canonical (a mutated encoding either fails with a
// DecodeError or re-encodes to itself), the envelope's role rules hold, and the signature covers the whole body.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction, verifyTransactionSignatures } from '../../../src/kinds/transaction-codec.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { DecodeError } from '../../../src/errors.ts';
import { agentAddSessionKeyKind } from '../../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../../src/kinds/agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { sessionScopeMask } from '../../../src/kinds/agent/agent-record.ts';
import { agentRevokeSessionKeyKind } from '../../../src/kinds/agent/agent-revoke-session-key.ts';
import { agentSetControllerKind } from '../../../src/kinds/agent/agent-set-controller.ts';
import type { AgentTransaction } from '../../../src/kinds/agent/envelope.ts';
import { signCompletionReceipt } from '../../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowResolveKind } from '../../../src/kinds/escrow/escrow-resolve.ts';
import { InvalidTransactionError } from '../../../src/kinds/errors.ts';
import { transactionFields } from '../../../src/kinds/json-view.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { arbiter, chainId, client, controller, owner, session, signed } from '../../helpers/agent-fixtures.ts';

const id = new Uint8Array(32).fill(9);
const examples: AgentTransaction[] = [
  signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: new Uint8Array(32).fill(1) }, owner, 0n),
  signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, 0n),
  signed(agentSetControllerKind, { controller: session.publicKey }, owner, 1n),
  signed(agentAddSessionKeyKind, { publicKey: session.publicKey, allowedKinds: sessionScopeMask, txCap: 5n, totalCap: 9n, expiryDaaScore: 77n }, controller, 2n, { payer: owner.address, role: 1 }),
  signed(agentRevokeSessionKeyKind, { revokedKeyId: 3n }, owner, 3n),
  signed(agentFreezeKind, { frozen: true }, owner, 4n),
  signed(agentFundEnergyPoolKind, { agent: owner.address, amount: 1234n }, session, 5n, { payer: owner.address, role: 2, sessionKeyId: 1n, useEnergy: true }),
  signed(escrowCreateKind, { agent: owner.address, taskHash: id, amount: 10n, timeoutDaaScore: 50n, disputeWindow: 5n, arbiter: arbiter.address }, client, 0n),
  signed(escrowCreateKind, { agent: owner.address, taskHash: id, amount: 10n, timeoutDaaScore: 50n, disputeWindow: 0n, arbiter: undefined }, client, 1n),
  signed(escrowClaimKind, { escrowId: id, receipt: { clientKey: client.publicKey, signature: signCompletionReceipt(chainId, id, client.privateKey, new Uint8Array(32)) } }, session, 6n, { payer: owner.address, role: 2, sessionKeyId: 1n }),
  signed(escrowClaimKind, { escrowId: id, receipt: undefined }, owner, 7n),
  signed(escrowReclaimKind, { escrowId: id }, client, 2n),
  signed(escrowDisputeKind, { escrowId: id }, client, 3n),
  signed(escrowResolveKind, { escrowId: id, agentShare: 4n }, arbiter, 0n),
];

describe('agent and escrow transaction codec', () => {
  it.each(examples.map((tx) => [transactionFields(tx, new Uint8Array(32), 'rweft').kind as string, tx] as const))('%s round-trips, verifies and shows the seed transaction fields', (_name, tx) => {
    const bytes = encodeTransaction(tx);
    const decoded = decodeTransaction(bytes);
    expect(decoded).toEqual(tx);
    expect(toHex(encodeTransaction(decoded))).toBe(toHex(bytes));
    expect(verifyTransactionSignatures(decoded, nobleVerifier)).toBe(true);
    const view = transactionFields(decoded, new Uint8Array(32), 'rweft');
    expect(Object.keys(view)).toEqual(expect.arrayContaining(['from', 'to', 'amount', 'amount_exact', 'fee', 'fee_exact', 'nonce', 'nonce_exact', 'use_energy', 'signer_role']));
  });

  it('is canonical: a mutated encoding either fails to decode or re-encodes to exactly itself', () => {
    fc.assert(
      fc.property(fc.constantFrom(...examples), fc.nat(), fc.integer({ min: 0, max: 255 }), (tx, at, byte) => {
        const bytes = encodeTransaction(tx);
        const mutated = Uint8Array.from(bytes);
        mutated[at % bytes.length] = byte;
        let decoded;
        try {
          decoded = decodeTransaction(mutated);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          return;
        }
        expect(toHex(encodeTransaction(decoded))).toBe(toHex(mutated));
        // A changed body never keeps a valid signature.
        if (toHex(mutated) !== toHex(bytes) && at % bytes.length < bytes.length - 64) expect(verifyTransactionSignatures(decoded, nobleVerifier)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses truncation and trailing bytes', () => {
    for (const tx of examples) {
      const bytes = encodeTransaction(tx);
      expect(() => decodeTransaction(bytes.subarray(0, bytes.length - 1))).toThrow(DecodeError);
      expect(() => decodeTransaction(Uint8Array.of(...bytes, 0))).toThrow(DecodeError);
    }
  });

  it('holds the envelope rules: role 0 signs with the payer key, session_key_id only for session keys, scope bits only of signable kinds', () => {
    const base = examples[2]!;
    const encode = (tx: AgentTransaction) => encodeTransaction(tx);
    expect(() => encode({ ...base, signer: controller.publicKey })).toThrow(InvalidTransactionError);
    expect(() => encode({ ...base, sessionKeyId: 1n })).toThrow(/session_key_id/);
    expect(() => encode({ ...base, signerRole: 3 as 0 })).toThrow(/signer_role/);
    const add = examples[3] as AgentTransaction<number, { allowedKinds: number }>;
    expect(() => encode({ ...add, payload: { ...add.payload, allowedKinds: 1 << 9 } })).toThrow(/allowed_kinds/);
    // The same rules on the wire: flip role 0 → 1 (signer stays the payer's key, fine) and set a session id under role 1.
    const bytes = encodeTransaction(base);
    const roleAt = 1 + 4 + 33;
    const withId = Uint8Array.from(bytes);
    withId[roleAt] = 1;
    withId[roleAt + 1 + 32] = 1;
    expect(() => decodeTransaction(withId)).toThrow(/session_key_id/);
  });
});
