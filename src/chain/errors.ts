/**
 * Block validation errors, one rule id per consensus rule, grouped by the pipeline stage that checks it
 * (rusty-kaspa's naming: header in isolation → PoW → header in context → body in isolation → body in context).
 * Every rule error carries the JSON-RPC code -32000 (Server error, the seed's "network-specific") and a ban score
 * that the p2p layer applies to the peer that relayed the block.
 */
import { WeftError } from '../errors.ts';

export type ValidationStage = 'header' | 'pow' | 'context' | 'body';

/** Every consensus rule a block can break, with the stage that checks it and how bad breaking it is for a peer. */
const BlockRules = {
  'header.version': { stage: 'header', banScore: 100 },
  'header.parents.missing': { stage: 'header', banScore: 100 },
  'header.parents.too-many': { stage: 'header', banScore: 100 },
  'header.parents.unsorted': { stage: 'header', banScore: 100 },
  'header.miner.invalid': { stage: 'header', banScore: 100 },
  'header.timestamp.future': { stage: 'header', banScore: 0 },
  'header.bits.invalid': { stage: 'header', banScore: 100 },
  'pow.insufficient': { stage: 'pow', banScore: 100 },
  'context.parents.invalid': { stage: 'context', banScore: 100 },
  'context.parents.redundant': { stage: 'context', banScore: 100 },
  'context.mergeset.too-large': { stage: 'context', banScore: 100 },
  'context.bits.mismatch': { stage: 'context', banScore: 100 },
  'context.timestamp.too-old': { stage: 'context', banScore: 100 },
  'context.blue-score.mismatch': { stage: 'context', banScore: 100 },
  'context.blue-work.mismatch': { stage: 'context', banScore: 100 },
  'context.daa-score.mismatch': { stage: 'context', banScore: 100 },
  'context.merge-depth.violated': { stage: 'context', banScore: 100 },
  // Version 2 headers (docs/pruning-proof.md "Header version 2"): both are recomputed from the parents.
  'context.level-parents.mismatch': { stage: 'context', banScore: 100 },
  'context.pruning-point.mismatch': { stage: 'context', banScore: 100 },
  // An honest peer on the other side of a long partition sends these too: refused and alerted, never banned for.
  'context.finality.violated': { stage: 'context', banScore: 0 },
  // A chain joined at a pruning point cannot validate a block whose selected chain misses it (trusted-import.ts).
  'context.pruning-point.violated': { stage: 'context', banScore: 0 },
  'body.tx-root.mismatch': { stage: 'body', banScore: 100 },
  'body.size.too-large': { stage: 'body', banScore: 100 },
  'body.mass.too-large': { stage: 'body', banScore: 100 },
  'body.tx.invalid': { stage: 'body', banScore: 100 },
  'body.state-root.mismatch': { stage: 'body', banScore: 100 },
} as const satisfies Record<string, { stage: ValidationStage; banScore: number }>;

export type BlockRule = keyof typeof BlockRules;

export class BlockRuleError extends WeftError {
  readonly rule: BlockRule;
  readonly stage: ValidationStage;
  readonly banScore: number;

  constructor(rule: BlockRule, message: string, details?: unknown) {
    super('block_rule', `block rejected (${rule}): ${message}`, { details });
    this.rule = rule;
    this.stage = BlockRules[rule].stage;
    this.banScore = BlockRules[rule].banScore;
  }
}

/** The store or the pipeline failed in a way that is not the block's fault (disk error, closed store). */
export class ChainStorageError extends WeftError {
  constructor(message: string, cause?: unknown) {
    super('storage', message, { cause });
  }
}
