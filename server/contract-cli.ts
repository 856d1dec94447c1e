/**
 * `weft contract build|deploy` (docs/contracts.md "The weft contract command"): build an AssemblyScript contract
 * with the flags the example contracts use (assembly/contracts/build-contracts.mjs, so asc's output passes prepare
 * as it is), and deploy a built module through a running node's `deploy_smart_contract`. Deploy authenticates with
 * `--api-key`, else the node's admin key in `<datadir>/api.cookie` (the datadir from --network / --datadir exactly
 * as for `weft node`), and talks to `--rpc` (default the node's own RPC port on loopback).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { toHex } from '../src/util/bytes.ts';
import { loadConfig } from './config.ts';

export const contractUsage = `usage: weft contract build SOURCE.ts [--out FILE.wasm]
       weft contract deploy FILE.wasm --from ADDR --gas-limit N [--gas-price UNITS] [--params JSON] [--value UNITS]
                            [--rpc URL] [--api-key KEY] [--network N] [--datadir DIR]`;

const buildScript = resolve(dirname(fileURLToPath(import.meta.url)), '../assembly/contracts/build-contracts.mjs');

interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Splits `--flag value` pairs (and bare positionals); a flag without its value is a usage error. */
function parseFlags(args: readonly string[]): { positional: string[]; flags: Map<string, string>; rest: string[] } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const rest: string[] = [];
  const ours = new Set(['--out', '--from', '--gas-limit', '--gas-price', '--params', '--value', '--rpc', '--api-key']);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) positional.push(arg);
    else if (ours.has(arg)) {
      const value = args[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      flags.set(arg, value);
    } else rest.push(arg, ...(args[i + 1] !== undefined && !args[i + 1]!.startsWith('--') ? [args[++i]!] : []));
  }
  return { positional, flags, rest };
}

async function build(source: string, out: string, io: Io): Promise<number> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [buildScript, source, out]);
    io.out(stdout);
    return 0;
  } catch (error) {
    io.err(`weft contract build: ${(error as { stderr?: string }).stderr || (error as Error).message}\n`);
    return 1;
  }
}

const networks = ['mainnet', 'testnet', 'devnet', 'regtest'] as const;
const namesNode = (args: readonly string[]) => args.some((a) => ['--network', '--datadir', '--config'].some((f) => a === f || a.startsWith(`${f}=`)));

type NodeTarget = { readonly rpc: string; readonly apiKey: string; readonly note?: string } | { readonly problem: string };

/** Whether something answers JSON-RPC at `rpc` within half a second. */
async function answers(rpc: string): Promise<boolean> {
  try {
    const res = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"get_block_height","id":1}', signal: AbortSignal.timeout(500) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Which node to deploy through, and its operator key: the node `--network` / `--datadir` / `--config` name (as for
 * `weft node`); without them, the one running here — the network whose datadir holds an api.cookie (and, when
 * several do, whose RPC port answers) — said so on stderr. A missing key is explained, never a raw ENOENT.
 */
async function nodeTarget(configArgs: readonly string[], flags: Map<string, string>): Promise<NodeTarget> {
  const explicit = namesNode(configArgs);
  const configs = explicit ? [loadConfig([...configArgs])] : networks.map((n) => loadConfig(['--network', n, ...configArgs]));
  const rpcOf = (c: (typeof configs)[number]) => flags.get('--rpc') ?? `http://127.0.0.1:${c.rpcPort}/`;
  const given = flags.get('--api-key');
  if (given !== undefined) return { rpc: rpcOf(configs[0]!), apiKey: given, ...(explicit || flags.has('--rpc') ? {} : { note: `no --network given: sending to ${rpcOf(configs[0]!)} (${configs[0]!.network}'s port)` }) };
  const withKey = configs.filter((c) => existsSync(join(c.datadir, 'api.cookie')));
  if (withKey.length === 0) {
    if (explicit) {
      const c = configs[0]!;
      return { problem: `no operator API key at ${join(c.datadir, 'api.cookie')}: no node of --network ${c.network} has run with that datadir here. Start it (weft node with the same --network/--datadir), or pass --api-key KEY` };
    }
    const where = [...new Set(configs.map((c) => dirname(c.datadir)))].join(', ');
    return { problem: `no running node found: none of ${networks.join(', ')} has an api.cookie under ${where}. Start one (npm start runs devnet), pass --network / --datadir as for weft node, or --api-key KEY` };
  }
  let chosen = withKey[0]!;
  if (withKey.length > 1) {
    const live = [];
    for (const c of withKey) if (await answers(rpcOf(c))) live.push(c);
    if (live.length !== 1) return { problem: `${withKey.map((c) => c.network).join(' and ')} have nodes here (${live.length} answering): pass --network to choose` };
    chosen = live[0]!;
  }
  const apiKey = readFileSync(join(chosen.datadir, 'api.cookie'), 'utf8').trim();
  return { rpc: rpcOf(chosen), apiKey, ...(explicit ? {} : { note: `using --network ${chosen.network}: its node's key is in ${join(chosen.datadir, 'api.cookie')}` }) };
}

async function deploy(file: string, flags: Map<string, string>, configArgs: readonly string[], io: Io): Promise<number> {
  const from = flags.get('--from');
  const gasLimit = Number(flags.get('--gas-limit'));
  if (from === undefined || !Number.isSafeInteger(gasLimit) || gasLimit < 1) {
    io.err(`weft contract deploy: --from ADDR and --gas-limit N are required\n${contractUsage}\n`);
    return 2;
  }
  if (!existsSync(file)) {
    io.err(`weft contract deploy: ${file}: no such file (weft contract build SOURCE.ts --out ${file} makes it)\n`);
    return 1;
  }
  const target = await nodeTarget(configArgs, flags);
  if ('problem' in target) {
    io.err(`weft contract deploy: ${target.problem}\n`);
    return 1;
  }
  if (target.note) io.err(`weft contract deploy: ${target.note}\n`);
  const { rpc, apiKey } = target;
  const params = {
    bytecode: `0x${toHex(readFileSync(file))}`,
    constructor_params: JSON.parse(flags.get('--params') ?? '[]') as unknown[],
    gas_limit: gasLimit,
    gas_price_units: Number(flags.get('--gas-price') ?? 1),
    deployer_address: from,
    value: Number(flags.get('--value') ?? 0),
  };
  let response: Response;
  try {
    response = await fetch(rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'deploy_smart_contract', params, id: 1 }),
    });
  } catch (error) {
    const why = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    io.err(`weft contract deploy: no node answers at ${rpc} (${why}): is \`weft node\` running there? (--rpc URL names another)\n`);
    return 1;
  }
  const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  if (answer.error) {
    io.err(`weft contract deploy: ${answer.error.code} ${answer.error.message}${answer.error.data ? ` ${JSON.stringify(answer.error.data)}` : ''}\n`);
    return 1;
  }
  io.out(`${JSON.stringify(answer.result, null, 2)}\n`);
  return 0;
}

export async function runContractCommand(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseFlags(args);
  } catch (error) {
    io.err(`weft contract: ${(error as Error).message}\n${contractUsage}\n`);
    return 2;
  }
  const [action, file] = parsed.positional;
  if (action === 'build' && file !== undefined) return build(file, parsed.flags.get('--out') ?? file.replace(/\.ts$/, '') + '.wasm', io);
  if (action === 'deploy' && file !== undefined) {
    try {
      return await deploy(file, parsed.flags, parsed.rest, io);
    } catch (error) {
      io.err(`weft contract deploy: ${(error as Error).message}\n`);
      return 1;
    }
  }
  io.err(`${contractUsage}\n`);
  return 2;
}
