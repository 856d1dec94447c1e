// A third party's project: @weft/client installed as a dependency (npm links a local path; the package's
// `exports` name its TypeScript entry), imported by its package name and run with tsx against a real node.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRpcTestNode, type RpcTestNode } from '../../../test/helpers/rpc-node.ts';

const repo = resolve(import.meta.dirname, '../../..');
let t: RpcTestNode;
let project: string;

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  project = mkdtempSync(join(tmpdir(), 'weft-client-user-'));
  mkdirSync(join(project, 'node_modules', '@weft'), { recursive: true });
  symlinkSync(join(repo, 'packages/client'), join(project, 'node_modules', '@weft', 'client'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', dependencies: { '@weft/client': 'file:../client' } }));
  writeFileSync(
    join(project, 'use.ts'),
    [
      "import { BlockNotFoundError, createClient, http } from '@weft/client';",
      'const client = createClient({ transport: http(process.argv[2]!) });',
      'const info = await client.getInfo();',
      'const refused = await client.getBlock({ height: 9_999_999 }).catch((e: unknown) => e);',
      'console.log(JSON.stringify({ network: info.network_id, notFound: refused instanceof BlockNotFoundError }));',
    ].join('\n'),
  );
});
afterAll(async () => {
  await t?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

it('is imported by its package name and calls the node', async () => {
  const tsx = join(repo, 'node_modules/tsx/dist/cli.mjs');
  const { stdout } = await promisify(execFile)(process.execPath, [tsx, 'use.ts', t.base], { cwd: project, timeout: 60_000 });
  expect(JSON.parse(stdout.trim())).toEqual({ network: 'regtest', notFound: true });
});
