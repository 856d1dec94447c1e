// The widget's escrow request and answer (web/widget/widget-protocol.ts, docs/widget.md "Escrow requests"): a total
// parser — anything that is no escrow request is undefined, an escrow request with a wrong field is `{ invalid, id }`
// so the widget can answer invalid_request — and the escrow_result answer the element accepts.
import { describe, expect, it } from 'vitest';
import { parseEscrowRequest, parseWidgetMessage } from '../../../../web/widget/widget-protocol.ts';

const request = { weft: 'widget/v1', type: 'request_escrow', id: 7, agentAccount: 'rweft1abc', amount: '0.5', taskId: 'order-1', timeoutBlocks: 100 };
const hash = `0x${'ab'.repeat(32)}`;

describe('parseEscrowRequest', () => {
  it('reads a request with and without its optional fields', () => {
    expect(parseEscrowRequest(request)).toEqual(request);
    expect(parseEscrowRequest({ ...request, disputeWindow: 10, arbiter: 'rweft1def' })).toEqual({ ...request, disputeWindow: 10, arbiter: 'rweft1def' });
  });

  it('is undefined for what is not an escrow request (another protocol, type, or no id to answer)', () => {
    for (const data of [null, 'x', [], { ...request, weft: 'widget/v0' }, { ...request, type: 'request_payment' }, { ...request, id: 1.5 }, { ...request, id: undefined }]) {
      expect(parseEscrowRequest(data)).toBeUndefined();
    }
  });

  it('names the wrong field of an escrow request, with its id', () => {
    const invalid = (change: Record<string, unknown>) => parseEscrowRequest({ ...request, ...change });
    expect(invalid({ agentAccount: 3 })).toEqual({ invalid: 'agentAccount: expected an address', id: 7 });
    expect(invalid({ amount: 0.5 })).toMatchObject({ invalid: expect.stringMatching(/^amount:/) });
    expect(invalid({ amount: '1.123456789' })).toMatchObject({ invalid: expect.stringMatching(/^amount:/) });
    expect(invalid({ taskId: '' })).toMatchObject({ invalid: 'taskId: expected 1 to 256 characters' });
    expect(invalid({ taskId: 'x'.repeat(257) })).toMatchObject({ invalid: 'taskId: expected 1 to 256 characters' });
    expect(invalid({ timeoutBlocks: -1 })).toMatchObject({ invalid: expect.stringMatching(/^timeoutBlocks:/) });
    expect(invalid({ timeoutBlocks: '100' })).toMatchObject({ invalid: expect.stringMatching(/^timeoutBlocks:/) });
    expect(invalid({ disputeWindow: 1.5 })).toMatchObject({ invalid: expect.stringMatching(/^disputeWindow:/) });
    expect(invalid({ arbiter: {} })).toMatchObject({ invalid: 'arbiter: expected an address' });
    expect(invalid({ taskId: 'y'.repeat(200), arbiter: 'z'.repeat(4_000) })).toEqual({ invalid: 'the request is too large', id: 7 });
  });
});

describe('escrow_result', () => {
  it('is accepted with an escrow id and hash, refused without', () => {
    const result = { weft: 'widget/v1', type: 'escrow_result', id: 7, escrowId: hash, hash };
    expect(parseWidgetMessage(result)).toEqual(result);
    expect(parseWidgetMessage({ ...result, escrowId: '0x12' })).toBeUndefined();
    expect(parseWidgetMessage({ ...result, hash: undefined })).toBeUndefined();
  });
});
