// The isomorphic core stays isomorphic: src/ imports no node:* module, nothing from server/ or web/, no Node-only
// package, and touches no DOM global. Inside src/, lower layers never import higher ones (docs/style.md "The shape").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../vectors.ts';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const srcRoot = resolve(repoRoot, 'src');
const files = walk(srcRoot);
const importRe = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const nodeOnlyPackages = ['lmdb', 'ws', 'hono', '@hono/node-server', 'pino', 'prom-client', '@grpc/grpc-js', 'tiny-secp256k1', 'webgpu', 'idb', 'tsx'];
const domGlobals = /(?<![\w.-])(window|document|localStorage|sessionStorage|indexedDB|navigator)\s*\./;

// Bottom-up layers of src/ (docs/style.md "The shape"): a folder may import only its own layer or lower ones.
const layerOf: Record<string, number> = {
  'errors.ts': 0, 'limits.ts': 0, util: 0,
  codec: 1, crypto: 1,
  // The contract VM (prepare, execute, host ABI) is pure over codecs and crypto; storage comes in through a port.
  vm: 1,
  // Transaction kinds, with the transaction codec (src/kinds/transaction-codec.ts), are pure modules over codecs,
  // crypto and the VM; state reaches them through the view they are handed. The codecs below never name a kind.
  kinds: 2,
  storage: 2,
  consensus: 3, chain: 3,
  // Pruning-point proofs: pure functions over headers and the GHOSTDAG engine, read by chain (joining) and p2p.
  'pruning-proof': 3,
  state: 4,
  mempool: 5, mining: 5, wallet: 5,
  // Access control knows scopes and identities; the RPC layer above it maps each method to its scope.
  auth: 6,
  p2p: 7, rpc: 7,
  a2a: 8,
  // The light client syncs over the p2p protocol (src/p2p messages, Noise session), so it sits above p2p.
  light: 8,
};

function layer(file: string): number {
  const top = relative(srcRoot, file).split('/')[0]!;
  const value = layerOf[top];
  if (value === undefined) throw new Error(`src/${top} has no layer in test/house/layers.test.ts`);
  return value;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importRe)].map((m) => (m[1] ?? m[2])!);
}

describe('isomorphic core (src/)', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(repoRoot, f), f]))('%s imports only portable modules from its own or lower layers', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(code, 'a DOM global').not.toMatch(domGlobals);
    expect(code, 'require()').not.toMatch(/\brequire\(/);
    for (const spec of importsOf(file)) {
      expect(spec.startsWith('node:'), `${spec}: node built-in`).toBe(false);
      expect(nodeOnlyPackages.some((p) => spec === p || spec.startsWith(`${p}/`)), `${spec}: platform package`).toBe(false);
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      expect(target.startsWith(srcRoot + '/'), `${spec}: leaves src/`).toBe(true);
      expect(layer(target), `${spec}: imports a higher layer`).toBeLessThanOrEqual(layer(file));
    }
  });
});
