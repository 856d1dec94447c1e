// A send's own history row against the node's rows for the same hash (web/wallet/wallet-db.ts mergeHistoryRow): an
// address event or re-check that read the node's view before the tab stored its own row must not erase what only the
// signer knows, or "available" stops counting the pending send out (the race CI met in e2e/wallet-views.spec.ts).
import { describe, expect, it } from 'vitest';
import { createMemoryWalletDb, mergeHistoryRow, type HistoryRow } from '../../../../web/wallet/wallet-db.ts';
import { pendingSpent, recordAddressEvent } from '../../../../web/wallet/wallet-history.ts';

const hash = `0x${'ab'.repeat(32)}`;
const address = 'rweft1sender';
const own: HistoryRow = {
  wallet: 'w', hash, type: 'outgoing', address, counterparty: 'rweft1payee', amount: '0.1', status: 'pending', nodeStatus: 'pending',
  own: true, payer: address, payerNonce: '4', nonceSeenBelow: true, timeMs: 1, spentUnits: '11000000',
};
const fromNode: HistoryRow = { wallet: 'w', hash, type: 'outgoing', address, counterparty: '', amount: '', status: 'pending', nodeStatus: 'accepted', timeMs: 2 };

describe('mergeHistoryRow', () => {
  it('keeps the signer’s fields when the node’s row is written over the tab’s own', () => {
    const merged = mergeHistoryRow(own, fromNode);
    expect(merged).toMatchObject({ own: true, payerNonce: '4', spentUnits: '11000000', counterparty: 'rweft1payee', amount: '0.1', nodeStatus: 'accepted', timeMs: 2 });
  });

  it('takes the tab’s own row over the node’s, and any row where nothing was stored', () => {
    expect(mergeHistoryRow(fromNode, own)).toBe(own);
    expect(mergeHistoryRow(undefined, fromNode)).toBe(fromNode);
  });

  it('an address event that read the history before the own row was stored leaves the send counted out', async () => {
    const db = createMemoryWalletDb();
    const history = db.history.bind(db);
    // The event reads the history (no row yet), the review flow stores its own row, then the event writes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    db.history = async (wallet) => {
      const rows = await history(wallet);
      await held;
      return rows;
    };
    const event = recordAddressEvent(db, 'w', { hash, address, type: 'outgoing', status: 'accepted', amount: 0.1 });
    await db.putHistory(own);
    release();
    await event;
    const rows = await history('w');
    expect(rows).toHaveLength(1);
    expect(pendingSpent(rows, address, 4n)).toBe(11_000_000n);
  });
});
