// Issue 34, the tab against a lying node and another origin (docs/web.md "Threat model"): a page finds its node
// only from the origin that served it, never from `?node=`/`?ws=`/`?p2p=`; the chain id and address prefix it signs
// with are the page network's built-in parameters, and a node whose get_info disagrees is refused; an answer over
// the client's size limit is refused before it is parsed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { regtestParams, testnetParams } from '../../../../src/consensus/params.ts';
import { createNodeClient, createHttpClient, discoverNodeUrls, rpcAnswerCharsMax } from '../../../../web/lib/node-client.ts';
import { NodeNetworkMismatchError, verifiedNetworkOf } from '../../../../web/wallet/wallet-network.ts';

interface WebConfigServer {
  readonly origin: string;
  readonly requests: string[];
  readonly server: Server;
}

/** A real HTTP server answering /web-config.json with `wsPort` and `network`, recording every request path. */
async function webConfigServer(wsPort: number, network: string): Promise<WebConfigServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ws_port: wsPort, network }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

describe('the node a page talks to is its own origin', () => {
  let own: WebConfigServer;
  let attacker: WebConfigServer;
  beforeAll(async () => {
    own = await webConfigServer(18_081, 'regtest');
    attacker = await webConfigServer(19_999, 'testnet');
  });
  afterAll(() => {
    own.server.close();
    attacker.server.close();
  });

  it('ignores ?node=, ?ws= and ?p2p= in the page URL', async () => {
    const query = `?node=${encodeURIComponent(attacker.origin)}&ws=19998&p2p=${encodeURIComponent('ws://127.0.0.1:19997/p2p')}`;
    const location = { origin: own.origin, search: query, hostname: '127.0.0.1', protocol: 'http:' };
    const urls = await discoverNodeUrls(location);
    expect(urls.httpUrl).toBe(own.origin);
    expect(urls.wsUrl).toBe('ws://127.0.0.1:18081/');
    expect(urls.p2pUrl).toBe('ws://127.0.0.1:18081/p2p');
    expect(urls.host).toBe(new URL(own.origin).host);
    expect(urls.network).toBe('regtest');
    expect(attacker.requests).toEqual([]);
    expect(own.requests).toEqual(['/web-config.json']);
  });

  it('takes only a valid port and network name from the origin’s config', async () => {
    const urls = await discoverNodeUrls({ origin: own.origin.replace('127.0.0.1', 'localhost') });
    expect(urls.wsUrl).toBe('ws://localhost:18081/');
    const bad = createServer((_req, res) => res.writeHead(200).end('{"ws_port":"1;x","network":7}'));
    await new Promise<void>((done) => bad.listen(0, '127.0.0.1', done));
    try {
      const fallback = await discoverNodeUrls({ origin: `http://127.0.0.1:${(bad.address() as AddressInfo).port}` });
      expect(fallback.wsUrl).toBe('ws://127.0.0.1:8081/');
      expect(fallback.network).toBeUndefined();
    } finally {
      bad.close();
    }
  });
});

describe('the chain id and address prefix come from the verified network parameters', () => {
  const honest = { network_id: 'regtest', chain_id: regtestParams.chainId, address_prefix: regtestParams.hrp };

  it('takes the page network’s built-in chain id and prefix when get_info agrees', () => {
    const network = verifiedNetworkOf(honest, 'regtest');
    expect([network.name, network.chainId, network.hrp]).toEqual(['regtest', 1338, 'rweft']);
    expect(network.params.chainId).toBe(regtestParams.chainId);
  });

  it('refuses a node whose get_info changes the chain id, the prefix or the network', () => {
    expect(() => verifiedNetworkOf({ ...honest, chain_id: testnetParams.chainId }, 'regtest')).toThrow(NodeNetworkMismatchError);
    expect(() => verifiedNetworkOf({ ...honest, chain_id: testnetParams.chainId }, 'regtest')).toThrow(/chain id 2, but this page's network has chain id 1338; nothing will be signed/);
    expect(() => verifiedNetworkOf({ ...honest, address_prefix: 'tweft' }, 'regtest')).toThrow(/address prefix "tweft"/);
    // A node that claims another network (with that network's own, consistent numbers) is refused too.
    expect(() => verifiedNetworkOf({ network_id: 'testnet', chain_id: testnetParams.chainId, address_prefix: testnetParams.hrp }, 'regtest')).toThrow(/network "testnet"/);
  });

  it('without the origin’s word, still checks get_info against that network’s built-in parameters', () => {
    expect(verifiedNetworkOf(honest, undefined).chainId).toBe(1338);
    expect(() => verifiedNetworkOf({ ...honest, chain_id: 1 }, undefined)).toThrow(NodeNetworkMismatchError);
  });
});

describe('answers over the size limit are refused', () => {
  let wss: WebSocketServer;
  let http: Server;
  let wsUrl: string;
  let httpUrl: string;
  const huge = () => JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'x'.repeat(rpcAnswerCharsMax) });
  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((done) => wss.once('listening', () => done()));
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const call = JSON.parse(String(data)) as { id: number; method: string };
        socket.send(call.method === 'big' ? huge().replace('"id":1', `"id":${call.id}`) : JSON.stringify({ jsonrpc: '2.0', id: call.id, result: 'ok' }));
      });
    });
    wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
    http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(huge()));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    vi.stubGlobal('WebSocket', WebSocket);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
    wss.close();
    http.close();
  });

  it('closes the WebSocket on an oversize answer and fails the call with why; the client reconnects', async () => {
    const client = createNodeClient(wsUrl);
    const states: string[] = [];
    client.onState((state) => states.push(state));
    try {
      expect(await client.request('small')).toBe('ok');
      await expect(client.request('big')).rejects.toThrow(/over the limit of 8388608/);
      await vi.waitFor(() => expect(states.slice(2)).toEqual(['closed', 'connecting', 'open']), { timeout: 10_000 });
      expect(await client.request('small')).toBe('ok');
    } finally {
      client.close();
    }
  });

  it('cancels an oversize HTTP answer', async () => {
    await expect(createHttpClient(httpUrl).request('get_info')).rejects.toThrow(/over the limit/);
  });
});
