/**
 * Coded errors of the GHOSTDAG engine. Block-rule violations (the block is invalid: the miner or peer sent a bad
 * block) carry `MiningError` (-40005), the code `submit_block` answers with; unknown blocks carry `BlockNotFound`
 * (-40004); a misuse of the engine API carries `InvalidParams` (-32602).
 */
import { WeftError } from '../errors.ts';

/** The mergeset (selected parent included) has more blocks than the limit (Kaspa `MergeSetTooBig`). */
export class MergesetTooLargeError extends WeftError {
  constructor(limit: number) {
    super('dag_rule', `mergeset has more than ${limit} blocks (selected parent included); expected at most ${limit}`, {
      details: { limit },
    });
  }
}

/** A parent list that no block may have: empty, repeated entries, or one parent in the past of another. */
export class InvalidParentsError extends WeftError {
  constructor(message: string, details?: unknown) {
    super('dag_rule', message, { details });
  }
}

/** A block id the engine does not hold (a missing parent, or a query about an unknown block). */
export class UnknownBlockError extends WeftError {
  constructor(id: string, role: string) {
    super('block_not_found', `unknown ${role} ${id}: expected a block already added to the DAG`, { details: { id } });
  }
}

/** A block id added twice. */
export class DuplicateBlockError extends WeftError {
  constructor(id: string) {
    super('dag_rule', `block ${id} is already in the DAG; expected a new block`, { details: { id } });
  }
}

/** Bad engine input that is not a block rule: non-positive work, a second genesis, bad options. */
export class GhostdagUsageError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}
