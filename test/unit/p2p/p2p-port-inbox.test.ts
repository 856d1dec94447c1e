// The receiving half shared by the TCP, bridge and tab WebSocket ports: early bytes wait in order (copied, since
// socket buffers are reused), later bytes go straight through, and close is reported exactly once.
import { describe, expect, it } from 'vitest';
import { createPortInbox } from '../../../src/p2p/transport.ts';

describe('port inbox', () => {
  it('holds bytes until onData, in order and copied, then delivers directly', () => {
    const inbox = createPortInbox();
    const reused = Uint8Array.of(1, 2);
    inbox.deliver(reused);
    reused[0] = 9;
    inbox.deliver(Uint8Array.of(3));
    const got: number[][] = [];
    inbox.onData((bytes) => got.push([...bytes]));
    inbox.deliver(Uint8Array.of(4));
    expect(got).toEqual([[1, 2], [3], [4]]);
  });

  it('reports close once, and at once to a late listener', () => {
    const inbox = createPortInbox();
    let early = 0;
    inbox.onClose(() => early++);
    inbox.closed();
    inbox.closed();
    expect(early).toBe(1);
    expect(inbox.isClosed()).toBe(true);
    let late = 0;
    inbox.onClose(() => late++);
    expect(late).toBe(1);
  });
});
