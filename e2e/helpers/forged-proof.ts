// A man in the middle between a page and the node's RPC WebSocket that answers for a lying node: every get_proof
// carries a proof of a forged account (a real sparse Merkle tree holding only that account, so the proof hashes
// to its own root) and claims that root; every get_block claims it too. A client that trusts the node's headers
// would accept the forged balance; one that checks against headers it verified itself must refuse it.
import type { Page } from '@playwright/test';
import { decodeAddress } from '../../src/crypto/address.ts';
import { accountKey, encodeAccount } from '../../src/state/account-codec.ts';
import { proofToJson } from '../../src/state/proof.ts';
import { createStateTrie } from '../../src/state/trie.ts';
import { emptyStateRoot } from '../../src/state/trie-hash.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { toHash0x, toHex } from '../../src/util/bytes.ts';

export interface ForgedState {
  readonly stateRoot: string;
  readonly proof: unknown;
}

export function forgeAccount(address: string, hrp: string, balanceUnits: bigint): ForgedState {
  const key = accountKey(decodeAddress(address, hrp));
  const trie = createStateTrie({ store: createMemoryStore(), prefix: Uint8Array.of(0x10), overlay: new Map() });
  const value = encodeAccount({ balance: balanceUnits, nonce: 0n, energy: 0n, energyDaaScore: 0 });
  const { root } = trie.applyUpdates(emptyStateRoot, new Map([[toHex(key), value]]));
  return { stateRoot: toHash0x(root), proof: proofToJson(trie.prove(root, key)) };
}

/** Routes the page's RPC WebSocket (ws://host:port/) through the liar; `forged(address)` picks what it claims. */
export async function routeLyingNode(page: Page, forged: (address: string) => ForgedState): Promise<void> {
  await page.routeWebSocket(/:\d+\/$/, (ws) => {
    const server = ws.connectToServer();
    const askedFor = new Map<unknown, string>();
    ws.onMessage((m) => {
      const request = JSON.parse(String(m)) as { id?: unknown; method?: string; params?: { address?: string } };
      if (request.method === 'get_proof' && request.params?.address) askedFor.set(request.id, request.params.address);
      server.send(m);
    });
    let lastForged: ForgedState | undefined;
    server.onMessage((m) => {
      const reply = JSON.parse(String(m)) as { id?: unknown; result?: Record<string, unknown> };
      const address = askedFor.get(reply.id);
      if (address !== undefined && reply.result) {
        askedFor.delete(reply.id);
        lastForged = forged(address);
        Object.assign(reply.result, { state_root: lastForged.stateRoot, proof: lastForged.proof });
        return ws.send(JSON.stringify(reply));
      }
      if (lastForged && reply.result && typeof reply.result['state_root'] === 'string') {
        reply.result['state_root'] = lastForged.stateRoot;
        return ws.send(JSON.stringify(reply));
      }
      ws.send(String(m));
    });
  });
}
