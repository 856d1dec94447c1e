// A man in the middle between a page and the node's RPC WebSocket (Playwright's routeWebSocket), for the issue 34
// attacks on the tab: it can push an address_transactions event the node never sent, call any transaction "final",
// and replay an account proof it captured earlier as the answer to every later get_proof of that address.
import type { Page } from '@playwright/test';

export interface LyingRpc {
  /** Whether the page has subscribed to address_transactions for `address` (events can be injected). */
  subscribed(address: string): boolean;
  /** Pushes an address_transactions event for `address` on the page's live subscription. */
  injectAddressEvent(address: string, event: Record<string, unknown>): void;
  /** From now on, get_transaction of `hash` answers status "final". */
  claimFinal(hash: string): void;
  /** From now on, every get_proof of `address` answers the last one the node gave before this call. */
  replayProof(address: string): boolean;
}

export async function routeLyingRpc(page: Page): Promise<LyingRpc> {
  const subscriptions = new Map<string, number>();
  const finals = new Set<string>();
  const lastProof = new Map<string, string>();
  const frozen = new Map<string, Record<string, unknown>>();
  let send: ((message: string) => void) | undefined;
  await page.routeWebSocket(/:\d+\/$/, (ws) => {
    const server = ws.connectToServer();
    send = (message) => ws.send(message);
    const asked = new Map<unknown, { method: string; address?: string; hash?: string }>();
    ws.onMessage((m) => {
      const request = JSON.parse(String(m)) as { id?: unknown; method?: string; params?: { topic?: string; address?: string; hash?: string } };
      const { method = '', params = {} } = request;
      if (method === 'subscribe' && params.topic === 'address_transactions' && params.address) subscriptions.set(params.address, request.id as number);
      if (method === 'get_proof' && params.address && frozen.has(params.address)) {
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: frozen.get(params.address) }));
      }
      if (method === 'get_transaction' && params.hash && finals.has(params.hash)) {
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { hash: params.hash, status: 'final', confirmations: 1000 } }));
      }
      asked.set(request.id, { method, ...(params.address ? { address: params.address } : {}) });
      server.send(m);
    });
    server.onMessage((m) => {
      const reply = JSON.parse(String(m)) as { id?: unknown; result?: Record<string, unknown> };
      const question = asked.get(reply.id);
      asked.delete(reply.id);
      if (question?.method === 'get_proof' && question.address && reply.result && !('namespace' in reply.result)) lastProof.set(question.address, String(m));
      ws.send(String(m));
    });
  });
  return {
    subscribed: (address) => subscriptions.has(address),
    injectAddressEvent(address, event) {
      const id = subscriptions.get(address);
      if (id === undefined || send === undefined) throw new Error(`no address_transactions subscription for ${address}`);
      send(JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { subscription: id, result: { address, ...event } } }));
    },
    claimFinal: (hash) => void finals.add(hash),
    replayProof(address) {
      const last = lastProof.get(address);
      if (last === undefined) return false;
      frozen.set(address, (JSON.parse(last) as { result: Record<string, unknown> }).result);
      return true;
    },
  };
}
