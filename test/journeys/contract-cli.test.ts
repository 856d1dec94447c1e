// `weft contract build` and `weft contract deploy` against a real node: the build gives byte for byte what
// `npm run build` gives for the same source (same asc flags), deploy puts it on chain through deploy_smart_contract
// with the node's admin key, and bad invocations exit 2 with the usage.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAddress } from '../../src/crypto/address.ts';
import { runContractCommand } from '../../server/contract-cli.ts';
import { contractBytes } from '../helpers/vm-contracts.ts';
import { startRpcTestNode, type RpcTestNode } from '../helpers/rpc-node.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

describe('weft contract', () => {
  let t: RpcTestNode;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-contract-cli-'));
    t = await startRpcTestNode([], false);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds a contract exactly as npm run build does, and deploys it through the node', async () => {
    const wasm = join(dir, 'counter.wasm');
    const built = capture();
    expect(await runContractCommand(['build', 'assembly/contracts/counter.ts', '--out', wasm], built.io)).toBe(0);
    expect(new Uint8Array(readFileSync(wasm))).toEqual(contractBytes('counter'));

    const deployer = (await t.rpc('create_address', {})).body.result.address as string;
    for (let i = 0; i < 2; i++) await t.mine({ miner: decodeAddress(deployer, 'rweft') });
    const apiKey = readFileSync(t.node.apiCookiePath, 'utf8').trim();
    const deployed = capture();
    const code = await runContractCommand(['deploy', wasm, '--from', deployer, '--gas-limit', '2000000', '--params', '[5]', '--rpc', `${t.base}/api/v1/rpc`, '--api-key', apiKey], deployed.io);
    expect(deployed.err.join('')).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(deployed.out.join(''));
    expect(result.contract_address).toMatch(/^rweft1/);
    expect((await t.rpc('get_transaction', { hash: result.transaction_hash })).body.result.kind).toBe('contract_deploy');
  }, 120_000);

  it('refuses a deploy the node refuses, and bad invocations with the usage', async () => {
    const refused = capture();
    const wasm = join(dir, 'counter.wasm');
    const code = await runContractCommand(['deploy', wasm, '--from', 'rweft1nope', '--gas-limit', '10', '--rpc', `${t.base}/api/v1/rpc`, '--api-key', 'x'], refused.io);
    expect(code).toBe(1);
    expect(refused.err.join('')).toMatch(/-32001|-40002|Unauthorized|address/i);
    const usage = capture();
    expect(await runContractCommand(['deploy', wasm], usage.io)).toBe(2);
    expect(usage.err.join('')).toMatch(/--from ADDR and --gas-limit N are required/);
    expect(await runContractCommand(['frobnicate'], usage.io)).toBe(2);
    expect(await runContractCommand(['build', 'x.ts', '--out'], usage.io)).toBe(2);
  });

  it('finds the node running here without --network, says which it assumed, and explains a missing key (never a raw ENOENT)', async () => {
    const wasm = join(dir, 'counter.wasm');
    const deployer = (await t.rpc('create_address', {})).body.result.address as string;
    for (let i = 0; i < 2; i++) await t.mine({ miner: decodeAddress(deployer, 'rweft') });
    const home = mkdtempSync(join(tmpdir(), 'weft-contract-home-'));
    const cwd = process.cwd();
    try {
      process.chdir(home);
      const none = capture();
      expect(await runContractCommand(['deploy', wasm, '--from', deployer, '--gas-limit', '2000000'], none.io)).toBe(1);
      expect(none.err.join('')).toMatch(/no running node found: none of mainnet, testnet, devnet, regtest has an api\.cookie under .*npm start runs devnet/);
      const named = capture();
      expect(await runContractCommand(['deploy', wasm, '--from', deployer, '--gas-limit', '2000000', '--network', 'devnet'], named.io)).toBe(1);
      expect(named.err.join('')).toMatch(/no operator API key at .*\.weft\/devnet\/api\.cookie: no node of --network devnet has run/);
      for (const e of [none, named]) expect(e.err.join('')).not.toMatch(/ENOENT/);

      // A devnet datadir with the key of the running node: found, and said so.
      mkdirSync(join(home, '.weft', 'devnet'), { recursive: true });
      writeFileSync(join(home, '.weft', 'devnet', 'api.cookie'), readFileSync(t.node.apiCookiePath));
      const found = capture();
      const code = await runContractCommand(['deploy', wasm, '--from', deployer, '--gas-limit', '2000000', '--params', '[5]', '--rpc', `${t.base}/api/v1/rpc`], found.io);
      expect(found.err.join('')).toMatch(/using --network devnet: its node's key is in .*\.weft\/devnet\/api\.cookie/);
      expect(code).toBe(0);
      expect(JSON.parse(found.out.join('')).contract_address).toMatch(/^rweft1/);
    } finally {
      process.chdir(cwd);
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it('says plainly when no node answers at the RPC URL', async () => {
    const missing = capture();
    expect(await runContractCommand(['deploy', join(dir, 'nothing.wasm'), '--from', 'rweft1x', '--gas-limit', '10'], missing.io)).toBe(1);
    expect(missing.err.join('')).toMatch(/nothing\.wasm: no such file \(weft contract build SOURCE\.ts --out/);
    writeFileSync(join(dir, 'down.wasm'), contractBytes('counter'));
    const down = capture();
    expect(await runContractCommand(['deploy', join(dir, 'down.wasm'), '--from', 'rweft1x', '--gas-limit', '10', '--rpc', 'http://127.0.0.1:4/', '--api-key', 'k'], down.io)).toBe(1);
    expect(down.err.join('')).toMatch(/no node answers at http:\/\/127\.0\.0\.1:4\/ \(ECONNREFUSED\): is `weft node` running there\?/);
  });
});
