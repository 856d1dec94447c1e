// The wallet's escrow checks as typed (web/wallet/escrow-check.ts): the agent and arbiter as addresses of this network
// and not the client, the task id as text (BLAKE3, as create_escrow's task_id) or a 32-byte hash, the timeout and
// dispute window in whole blocks within the consensus rule (window ends before the timeout), funds against the
// verified balance; and when Reclaim is allowed (EscrowLocked, timeout reached) with the reason when not.
import { describe, expect, it } from 'vitest';
import { encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { blake3 } from '../../../../src/crypto/blake3.ts';
import { publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { toHash0x } from '../../../../src/util/bytes.ts';
import { checkEscrowDraft, parseEscrowDraft, parseTaskHash, reclaimability, type EscrowDraft } from '../../../../web/wallet/escrow-check.ts';
import { FieldError } from '../../../../web/wallet/form-errors.ts';

const addressOf = (seed: number) => standardAddress(publicKeyFromPrivate(new Uint8Array(32).fill(seed)));
const client = addressOf(1);
const agent = encodeAddress('rweft', addressOf(2));
const arbiter = encodeAddress('rweft', addressOf(3));
const coin = 100_000_000n;
const draft: EscrowDraft = { agent, amount: '1.5', fee: '0.01', task: 'translate page 7', timeoutBlocks: '100', disputeWindow: '', arbiter: '' };

describe('checkEscrowDraft', () => {
  it('parses a valid draft: the task text hashed as create_escrow does, no window, no arbiter', () => {
    const { errors, escrow } = checkEscrowDraft(draft, { hrp: 'rweft', client, balance: 2n * coin });
    expect(errors).toEqual({});
    expect(escrow).toMatchObject({ amount: 150_000_000n, fee: 1_000_000n, timeoutBlocks: 100n, disputeWindow: 0n, arbiter: undefined, taskIsHash: false });
    expect(toHash0x(escrow!.taskHash)).toBe(toHash0x(blake3(new TextEncoder().encode('translate page 7'))));
  });

  it('takes a 0x 32-byte task hash as it is', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    expect(parseTaskHash(hash)).toEqual({ hash: new Uint8Array(32).fill(0xab), isHash: true });
    // 31 bytes is text, hashed.
    expect(parseTaskHash(`0x${'ab'.repeat(31)}`).isHash).toBe(false);
  });

  it('names each wrong field and says why', () => {
    const bad: EscrowDraft = { agent: `${agent.slice(0, -1)}x`, amount: '0', fee: '1.123456789', task: ' ', timeoutBlocks: '2', disputeWindow: 'soon', arbiter: 'nope' };
    const { errors, escrow } = checkEscrowDraft(bad, { hrp: 'rweft', client });
    expect(escrow).toBeUndefined();
    expect(errors.agent).toMatch(/^agent: not a rweft address/);
    expect(errors.amount).toBe('amount: must be more than 0');
    expect(errors.fee).toBe('fee: at most 8 decimals (1 unit is 0.00000001)');
    expect(errors.task).toMatch(/^task: enter the task id/);
    expect(errors.timeout).toBe('timeout: from 4 to 31536000 blocks, got 2');
    expect(errors.window).toMatch(/^dispute window: expected a whole number of blocks/);
    expect(errors.arbiter).toMatch(/^arbiter: not a rweft address/);
  });

  it('checks only the fields asked (those the user touched)', () => {
    const { errors } = checkEscrowDraft({ ...draft, agent: '', amount: '' }, { hrp: 'rweft', fields: new Set(['amount']) });
    expect(Object.keys(errors)).toEqual(['amount']);
  });

  it('refuses a dispute window that does not end before the timeout, and parties as arbiter or agent', () => {
    expect(checkEscrowDraft({ ...draft, disputeWindow: '98' }, { hrp: 'rweft', client }).errors.window).toMatch(/at most 97 blocks for a 100-block timeout/);
    expect(checkEscrowDraft({ ...draft, disputeWindow: '97' }, { hrp: 'rweft', client }).errors).toEqual({});
    expect(checkEscrowDraft({ ...draft, arbiter: agent }, { hrp: 'rweft', client }).errors.arbiter).toMatch(/neither you \(the client\) nor the agent/);
    expect(checkEscrowDraft({ ...draft, arbiter: encodeAddress('rweft', client) }, { hrp: 'rweft', client }).errors.arbiter).toMatch(/neither/);
    expect(checkEscrowDraft({ ...draft, agent: encodeAddress('rweft', client) }, { hrp: 'rweft', client }).errors.agent).toMatch(/this is the paying address/);
    expect(checkEscrowDraft({ ...draft, arbiter }, { hrp: 'rweft', client }).escrow?.arbiter).toEqual(addressOf(3));
  });

  it('says when the verified balance does not cover amount + fee', () => {
    expect(checkEscrowDraft(draft, { hrp: 'rweft', client, balance: coin }).errors.amount).toBe('amount: insufficient verified balance — 1 available, amount + fee is 1.51');
  });

  it('parseEscrowDraft throws the first wrong field as a FieldError', () => {
    expect(() => parseEscrowDraft({ ...draft, timeoutBlocks: 'x' }, { hrp: 'rweft' })).toThrow(FieldError);
    try {
      parseEscrowDraft({ ...draft, timeoutBlocks: 'x' }, { hrp: 'rweft' });
    } catch (error) {
      expect((error as FieldError).field).toBe('timeout');
    }
  });
});

describe('reclaimability', () => {
  it('allows a reclaim only of a locked escrow whose timeout the proven header reached', () => {
    expect(reclaimability({ status: 'EscrowLocked', timeoutDaaScore: 50n, provenDaaScore: 50n })).toEqual({ ok: true });
    expect(reclaimability({ status: 'EscrowLocked', timeoutDaaScore: 50n, provenDaaScore: 47n })).toEqual({
      ok: false, reason: 'times out at DAA score 50, 3 blocks from now: until then the agent may still claim it',
    });
    expect(reclaimability({ status: 'EscrowLocked', timeoutDaaScore: 50n, provenDaaScore: 49n })).toMatchObject({ reason: expect.stringContaining('1 block from now') });
    for (const [status, reason] of [['Claimed', /agent claimed/], ['Refunded', /already reclaimed/], ['Disputed', /arbiter/], ['None', /not on chain yet/]] as const) {
      expect(reclaimability({ status, timeoutDaaScore: 50n, provenDaaScore: 60n })).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    }
  });
});
