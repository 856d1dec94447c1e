// A real `weft node` on a copy of a generated regtest datadir (test/helpers/regtest-dag.ts), every port 0, for the
// web app's e2e tests: its HTTP URL (serving dist/web), its admin API key, and a stop function.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeProcess, type NodeProcess } from '../../test/helpers/node-process.ts';
import { regtestDatadir, type RegtestDatadirOptions } from '../../test/helpers/regtest-dag.ts';

export interface RegtestNode {
  readonly node: NodeProcess;
  readonly url: string;
  readonly wsPort: number;
  readonly apiKey: string;
  readonly datadir: string;
  stop(): Promise<void>;
}

/** With `datadir` options, start it with the matching `--regtest-*` flags in `extraArgs`. */
export async function startRegtestNode(blocks: number, extraArgs: readonly string[] = [], datadir?: RegtestDatadirOptions): Promise<RegtestNode> {
  const source = await regtestDatadir(blocks, datadir);
  const copy = mkdtempSync(join(tmpdir(), 'weft-e2e-web-'));
  cpSync(source, copy, { recursive: true });
  const node = startNodeProcess(['--network', 'regtest', '--datadir', copy, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', ...extraArgs]);
  const http = await node.waitFor((l) => l.msg === 'http listening', 120_000);
  const ws = await node.waitFor((l) => l.msg === 'websocket listening', 120_000);
  const apiKey = readFileSync(join(copy, 'api.cookie'), 'utf8').trim();
  return {
    node, datadir: copy, apiKey, url: (http.url as string).replace(/\/$/, ''), wsPort: ws.port as number,
    async stop() {
      node.child.kill('SIGTERM');
      await node.exited;
      rmSync(copy, { recursive: true, force: true });
    },
  };
}
