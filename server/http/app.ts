/**
 * The node's HTTP surface on port 8080. This first cut serves `/health` (liveness and readiness: sync state,
 * height, tip) and a status page at `/`; the JSON-RPC, REST and web app mount here as they land.
 */
import { Hono } from 'hono';
import type { Chain } from '../../src/chain/chain.ts';
import type { Miner } from '../../src/mining/miner.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';

export interface HttpAppDeps {
  readonly chain: Chain;
  readonly config: NodeConfig;
  readonly miner: Miner | undefined;
}

const statusPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Weft node</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .5rem;font-family:monospace;overflow-wrap:anywhere}</style>
</head><body><h1>Weft node</h1><dl id="status" aria-live="polite"></dl>
<script type="module">
const el = document.getElementById('status');
async function refresh() {
  const health = await (await fetch('/health')).json();
  el.replaceChildren(...Object.entries(health).flatMap(([k, v]) => {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return [dt, dd];
  }));
}
refresh(); setInterval(refresh, 1000);
</script></body></html>`;

export function createHttpApp(deps: HttpAppDeps): Hono {
  const { chain, config, miner } = deps;
  const app = new Hono();

  app.get('/health', (c) => {
    const tip = chain.selectedTip();
    const stats = miner?.stats();
    return c.json({
      status: 'ok',
      network: config.network,
      height: tip.height,
      blocks: chain.blockCount(),
      tip_hash: toHash0x(tip.hash),
      blue_score: tip.header.blueScore,
      tips: chain.tips().length,
      orphans: chain.orphanCount(),
      synced: true,
      peers: 0,
      mining: stats ? { running: stats.running, backend: stats.backend, hashes: stats.hashes, blocks_found: stats.blocksFound } : { running: false },
    });
  });

  app.get('/', (c) => c.html(statusPage));
  return app;
}
