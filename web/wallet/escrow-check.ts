/**
 * Checking an escrow as the user types it (docs/settlement.md "Escrows"): the agent account and optional arbiter as
 * bech32m addresses of this network, the amount and fee as exact decimal coins (send-check.ts), the task id as text
 * (hashed with BLAKE3, as create_escrow's `task_id`) or a 0x 32-byte hash taken as it is, and the timeout and dispute
 * window as whole blocks after the verified tip. Pure: the form (wallet-escrow-form.ts) shows each message beside
 * its field, and the review step (wallet-escrow.ts) parses again and adds what needs the chain — the agent account
 * exists and is not frozen, the verified balance covers amount + fee.
 *
 * Also here: whether a listed escrow may be reclaimed now, and why not (the consensus rule of escrow_reclaim:
 * EscrowLocked and the timeout reached).
 */
import { blake3 } from '../../src/crypto/blake3.ts';
import { equalBytes, fromHex } from '../../src/util/bytes.ts';
import { FieldError, fieldErrors } from './form-errors.ts';
import { insufficientMessage, parseCoinText, parseRecipient } from './send-check.ts';
import { escrowAcceptanceBlocks, escrowTaskCharsMax, escrowTimeoutBlocksMax, escrowTimeoutBlocksMin } from './wallet-web-limits.ts';

export type EscrowField = 'agent' | 'amount' | 'fee' | 'task' | 'timeout' | 'window' | 'arbiter';

/** The form as typed: every field is text. `disputeWindow` and `arbiter` may be empty (0 and none). */
export interface EscrowDraft {
  readonly agent: string;
  readonly amount: string;
  readonly fee: string;
  readonly task: string;
  readonly timeoutBlocks: string;
  readonly disputeWindow: string;
  readonly arbiter: string;
}

export interface ParsedEscrow {
  readonly agent: Uint8Array;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly taskHash: Uint8Array;
  /** Whether the task field was a hash taken as it is (else text that was hashed). */
  readonly taskIsHash: boolean;
  readonly timeoutBlocks: bigint;
  readonly disputeWindow: bigint;
  readonly arbiter: Uint8Array | undefined;
}

const taskHashPattern = /^0x[0-9a-fA-F]{64}$/;
const blocksPattern = /^\d{1,12}$/;
const encoder = new TextEncoder();

/** The task id → its 32-byte hash: a 0x 64-hex-digit hash as it is, other text BLAKE3-hashed (create_escrow's rule). */
export function parseTaskHash(text: string): { hash: Uint8Array; isHash: boolean } {
  const trimmed = text.trim();
  if (trimmed === '') throw new FieldError('task', 'task: enter the task id (text) or its 0x… 32-byte hash');
  if (trimmed.length > escrowTaskCharsMax) throw new FieldError('task', `task: at most ${escrowTaskCharsMax} characters`);
  if (taskHashPattern.test(trimmed)) return { hash: fromHex(trimmed.slice(2).toLowerCase()), isHash: true };
  return { hash: blake3(encoder.encode(trimmed)), isHash: false };
}

/** Whole blocks from `min` to `max`, as typed. */
function parseBlocks(text: string, field: EscrowField, label: string, min: number, max: number): bigint {
  const trimmed = text.trim();
  if (!blocksPattern.test(trimmed)) throw new FieldError(field, `${label}: expected a whole number of blocks, e.g. ${Math.max(min, 10)}`);
  const blocks = BigInt(trimmed);
  if (blocks < BigInt(min) || blocks > BigInt(max)) throw new FieldError(field, `${label}: from ${min} to ${max} blocks, got ${trimmed}`);
  return blocks;
}

/**
 * Checks `fields` of a draft (all by default; the form passes only those touched). `client` is the paying address
 * (the arbiter may be neither it nor the agent, and the agent not it); `balance` its last verified balance, or
 * undefined while none was proven. Returns one message per wrong field and, when every field parsed, the escrow.
 */
export function checkEscrowDraft(
  draft: EscrowDraft,
  options: { readonly hrp: string; readonly client?: Uint8Array; readonly balance?: bigint; readonly fields?: ReadonlySet<EscrowField> },
): { readonly errors: Partial<Record<EscrowField, string>>; readonly escrow?: ParsedEscrow } {
  const fields = options.fields ?? new Set<EscrowField>(['agent', 'amount', 'fee', 'task', 'timeout', 'window', 'arbiter']);
  const { errors, attempt } = fieldErrors(fields);
  const agent = attempt('agent', () => {
    const address = parseRecipient(draft.agent, options.hrp, 'agent');
    if (options.client !== undefined && equalBytes(address, options.client)) throw new FieldError('agent', 'agent: this is the paying address; an escrow is for another account');
    return address;
  });
  const amount = attempt('amount', () => parseCoinText(draft.amount, 'amount'));
  const fee = attempt('fee', () => parseCoinText(draft.fee, 'fee', true));
  const task = attempt('task', () => parseTaskHash(draft.task));
  const timeoutBlocks = attempt('timeout', () => parseBlocks(draft.timeoutBlocks, 'timeout', 'timeout', escrowTimeoutBlocksMin, escrowTimeoutBlocksMax));
  const disputeWindow = attempt('window', () => {
    const window = draft.disputeWindow.trim() === '' ? 0n : parseBlocks(draft.disputeWindow, 'window', 'dispute window', 0, escrowTimeoutBlocksMax);
    // Consensus refuses created + window ≥ timeout; creation lands up to escrowAcceptanceBlocks after the tip.
    if (window > 0n && timeoutBlocks !== undefined && window + BigInt(escrowAcceptanceBlocks) >= timeoutBlocks) {
      throw new FieldError('window', `dispute window: must end before the timeout — at most ${timeoutBlocks - BigInt(escrowAcceptanceBlocks) - 1n} blocks for a ${timeoutBlocks}-block timeout`);
    }
    return window;
  });
  const arbiter = attempt('arbiter', () => {
    if (draft.arbiter.trim() === '') return undefined;
    const address = parseRecipient(draft.arbiter, options.hrp, 'arbiter');
    const isParty = (options.client !== undefined && equalBytes(address, options.client)) || (agent !== undefined && equalBytes(address, agent));
    if (isParty) throw new FieldError('arbiter', 'arbiter: must be neither you (the client) nor the agent');
    return address;
  });
  if (amount !== undefined && fee !== undefined && options.balance !== undefined && amount + fee > options.balance) {
    if (fields.has('amount')) errors.amount = insufficientMessage(options.balance, amount + fee);
  }
  const parsed = [agent, amount, fee, task, timeoutBlocks, disputeWindow].every((v) => v !== undefined) && !(draft.arbiter.trim() !== '' && arbiter === undefined);
  if (!parsed || Object.keys(errors).length > 0) return { errors };
  return {
    errors,
    escrow: { agent: agent!, amount: amount!, fee: fee!, taskHash: task!.hash, taskIsHash: task!.isHash, timeoutBlocks: timeoutBlocks!, disputeWindow: disputeWindow!, arbiter },
  };
}

/** The draft parsed, or the first wrong field's FieldError (the review step's check). */
export function parseEscrowDraft(draft: EscrowDraft, options: { readonly hrp: string; readonly client?: Uint8Array }): ParsedEscrow {
  const { errors, escrow } = checkEscrowDraft(draft, options);
  const [field, message] = Object.entries(errors)[0] ?? [];
  if (field !== undefined) throw new FieldError(field, message!);
  return escrow!;
}

/** What the list knows of an escrow, from a record proven against a verified header. */
export interface EscrowStanding {
  readonly status: 'EscrowLocked' | 'Claimed' | 'Refunded' | 'Disputed' | 'None';
  readonly timeoutDaaScore: bigint;
  /** The DAA score of the verified header the record was proven against. */
  readonly provenDaaScore: bigint;
}

/**
 * Whether the client may reclaim now: EscrowLocked and the timeout reached at the proven header (a block after it
 * has a higher DAA score, so the chain accepts the reclaim too). Otherwise why not, in words.
 */
export function reclaimability(escrow: EscrowStanding): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  switch (escrow.status) {
    case 'None':
      return { ok: false, reason: 'not on chain yet: waiting for a block to accept it' };
    case 'Claimed':
      return { ok: false, reason: 'the agent claimed it: nothing to reclaim' };
    case 'Refunded':
      return { ok: false, reason: 'already reclaimed: the WEFT is back' };
    case 'Disputed':
      return { ok: false, reason: 'disputed: only the arbiter can release it now' };
    case 'EscrowLocked': {
      if (escrow.provenDaaScore >= escrow.timeoutDaaScore) return { ok: true };
      const left = escrow.timeoutDaaScore - escrow.provenDaaScore;
      return { ok: false, reason: `times out at DAA score ${escrow.timeoutDaaScore}, ${left} block${left === 1n ? '' : 's'} from now: until then the agent may still claim it` };
    }
  }
}
