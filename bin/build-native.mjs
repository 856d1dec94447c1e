#!/usr/bin/env node
// `npm run build`'s native step: compiles server/crypto/native/secp256k1-verify.c against the system's libsecp256k1
// (Debian: `apt-get install libsecp256k1-dev`) into build/native/secp256k1-verify.node, the node's fastest BIP340
// verifier (docs/transactions.md "Signature backends"). Optional: without a C compiler, Node's headers or the
// library, it says why and exits 0, and the node verifies on Wasm libsecp256k1 with the same answers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'server/crypto/native/secp256k1-verify.c');
const output = join(root, 'build/native/secp256k1-verify.node');
const nodeHeaders = [join(dirname(process.execPath), '../include/node'), '/usr/include/node', '/usr/local/include/node'].find((dir) =>
  existsSync(join(dir, 'node_api.h')),
);
const libraryHeader = ['/usr/include/secp256k1_schnorrsig.h', '/usr/local/include/secp256k1_schnorrsig.h'].find((path) => existsSync(path));
const compiler = process.env.CC ?? 'cc';

const skip = (why) => {
  rmSync(output, { force: true });
  console.log(`build-native: skipped (${why}); signatures are verified on Wasm libsecp256k1`);
};

if (nodeHeaders === undefined) skip("Node's headers (node_api.h) are not installed");
else if (libraryHeader === undefined) skip('libsecp256k1 with its schnorrsig module is not installed: apt-get install libsecp256k1-dev');
else {
  mkdirSync(dirname(output), { recursive: true });
  const args = ['-O2', '-Wall', '-Wextra', '-shared', '-fPIC', `-I${nodeHeaders}`, source, '-lsecp256k1', '-o', output];
  const result = spawnSync(compiler, args, { encoding: 'utf8' });
  if (result.error !== undefined) skip(`${compiler} did not run: ${result.error.message}`);
  else if (result.status !== 0) skip(`${compiler} failed: ${result.stderr.trim().split('\n').slice(0, 5).join(' / ')}`);
  else console.log(`build-native: ${output.slice(root.length)} (libsecp256k1 from ${dirname(libraryHeader)})`);
}
