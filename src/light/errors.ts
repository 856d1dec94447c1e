/**
 * Errors of the light client. A header that fails verification is a BlockRuleError from the chain's own pipeline
 * (src/chain/errors.ts), wrapped here with the header's hash so the page can show which header was refused; a
 * proof that does not check out is a LightProofError — never a balance.
 */
import { WeftError } from '../errors.ts';

export type LightRejectReason =
  | 'header-invalid' // a BlockRuleError: PoW, bits, timestamps, GHOSTDAG figures …
  | 'header-disconnected' // a parent neither stored nor earlier in the page
  | 'proof-invalid' // the node's pruning-point proof broke a rule (proofReason says which), or lost to the tab's own
  | 'trusted-invalid' // the trusted data for the proven point failed a check (trustedReason says which)
  | 'store-failed' // the header store refused a write (IndexedDB quota, closed database)
  | 'peer-incompatible' // other network, chain id or genesis
  | 'peer-timeout'
  | 'peer-closed'
  | 'protocol'; // a message the peer should not have sent

export class LightSyncError extends WeftError {
  readonly reason: LightRejectReason;
  /** 0x-hash of the refused header, when one is at fault. */
  readonly headerHash: string | undefined;
  /** The chain rule it broke (e.g. `pow.insufficient`), when it was a header rule. */
  readonly rule: string | undefined;
  /** For `proof-invalid`: the ProofError's reason (src/pruning-proof/proof-errors.ts), e.g. `header-level`, `insufficient-work`. */
  readonly proofReason: string | undefined;
  /** For `trusted-invalid`: the TrustedDataError's reason (src/chain/trusted-errors.ts), e.g. `ghostdag-inconsistent`. */
  readonly trustedReason: string | undefined;

  constructor(reason: LightRejectReason, message: string, options: { headerHash?: string; rule?: string; proofReason?: string; trustedReason?: string; cause?: unknown } = {}) {
    const { headerHash, rule, proofReason, trustedReason } = options;
    super('light_verification', message, { details: { reason, headerHash, rule, proofReason, trustedReason }, cause: options.cause });
    this.reason = reason;
    this.headerHash = headerHash;
    this.rule = rule;
    this.proofReason = proofReason;
    this.trustedReason = trustedReason;
  }
}

export type LightProofReason =
  | 'header-unknown' // the proof names a block this client has not verified
  | 'proof-stale' // a verified block, but off the selected chain or too far below its tip: old state, not current
  | 'root-mismatch' // the proof's state root is not the verified header's
  | 'proof-invalid' // the Merkle path does not hash to the root, or is malformed
  | 'record-unreadable'; // the proof checks out, but its value is in a record version this client does not read

export class LightProofError extends WeftError {
  readonly reason: LightProofReason;
  constructor(reason: LightProofReason, message: string, cause?: unknown) {
    super('light_verification', message, { details: { reason }, cause });
    this.reason = reason;
  }
}
