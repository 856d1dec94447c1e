#!/usr/bin/env node
// The last step of `npm run build`: every compressible file of the built web app (dist/web) gets a brotli (.br, quality
// 11) and a gzip (.gz, level 9) copy beside it, made once here so the node serves them by content negotiation
// (server/http/precompressed.ts) without compressing per request. A copy that would not be smaller is not written.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Types worth compressing (images like PNG are compressed already). */
export const compressibleExtensions = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.wasm', '.wgsl', '.txt', '.map']);
/** Below this, the headers cost more than compression saves. */
export const compressMinBytes = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes the .br and .gz copies under `root`; returns what it wrote, with the sizes. */
export function compressTree(root) {
  const written = [];
  for (const path of [...files(root)]) {
    if (path.endsWith('.br') || path.endsWith('.gz')) {
      rmSync(path); // a copy from an older build of a file that may have changed or gone
      continue;
    }
  }
  for (const path of files(root)) {
    if (!compressibleExtensions.has(extname(path)) || statSync(path).size < compressMinBytes) continue;
    const bytes = readFileSync(path);
    const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${path}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz);
    written.push({ path, bytes: bytes.length, br: br.length, gz: gz.length });
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? 'dist/web');
  const written = compressTree(root);
  const sum = (k) => written.reduce((n, w) => n + w[k], 0);
  console.log(`compressed ${written.length} files under ${root}: ${sum('bytes')} bytes → ${sum('br')} brotli, ${sum('gz')} gzip`);
}
