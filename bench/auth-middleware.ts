// Cost of access control per request: the same route in-process (app.request, no socket) on a bare Hono app (the
// baseline) and behind the node's middleware (authenticate → rate limit → timeout) with an API key, and anonymous.
// Usage: npx tsx bench/auth-middleware.ts [requests=20000]
import { Hono } from 'hono';
import { createAccessControl } from '../server/auth/access-control.ts';
import { createMemoryStore } from '../src/storage/memory-store.ts';
import { createManualClock } from '../src/util/clock.ts';

const n = Number(process.argv[2] ?? 20_000);
// A clock that moves 1 s per request: buckets refill faster than they drain, so every request takes the pass path.
const clock = createManualClock(Date.now());
const access = createAccessControl({ kv: createMemoryStore(), clock });
const { key } = await access.keys.create({ label: 'bench', scopes: ['read_balance'] });
const bare = new Hono();
bare.get('/x', (c) => c.json({ ok: 1 }));
const guarded = new Hono();
guarded.use('*', ...access.middleware);
guarded.get('/x', (c) => c.json({ ok: 1 }));

async function rate(app: Hono, headers: Record<string, string>): Promise<number> {
  const began = performance.now();
  for (let i = 0; i < n; i++) {
    clock.advance(1_000);
    const res = await app.request('/x', { headers });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
  }
  return n / ((performance.now() - began) / 1000);
}

await rate(bare, {});
await rate(guarded, { 'x-api-key': key });
const baseline = await rate(bare, {});
const withKey = await rate(guarded, { 'x-api-key': key });
const anonymous = await rate(guarded, {});
console.log(
  JSON.stringify({
    requests: n,
    baseline_bare_hono_rps: Math.round(baseline),
    api_key_rps: Math.round(withKey),
    anonymous_rps: Math.round(anonymous),
    ratio_api_key_vs_baseline: Number((withKey / baseline).toFixed(2)),
    ratio_anonymous_vs_baseline: Number((anonymous / baseline).toFixed(2)),
  }),
);
