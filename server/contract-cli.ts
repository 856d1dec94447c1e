/**
 * `weft contract build|deploy` (docs/contracts.md "The weft contract command"): build an AssemblyScript contract
 * with the flags the example contracts use (assembly/contracts/build-contracts.mjs, so asc's output passes prepare
 * as it is), and deploy a built module through a running node's `deploy_smart_contract`. Deploy authenticates with
 * `--api-key`, else the node's admin key in `<datadir>/api.cookie` (the datadir from --network / --datadir exactly
 * as for `weft node`), and talks to `--rpc` (default the node's own RPC port on loopback).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

async function deploy(file: string, flags: Map<string, string>, configArgs: readonly string[], io: Io): Promise<number> {
  const from = flags.get('--from');
  const gasLimit = Number(flags.get('--gas-limit'));
  if (from === undefined || !Number.isSafeInteger(gasLimit) || gasLimit < 1) {
    io.err(`weft contract deploy: --from ADDR and --gas-limit N are required\n${contractUsage}\n`);
    return 2;
  }
  const config = loadConfig([...configArgs]);
  const rpc = flags.get('--rpc') ?? `http://127.0.0.1:${config.rpcPort}/`;
  const apiKey = flags.get('--api-key') ?? readFileSync(join(config.datadir, 'api.cookie'), 'utf8').trim();
  const params = {
    bytecode: `0x${toHex(readFileSync(file))}`,
    constructor_params: JSON.parse(flags.get('--params') ?? '[]') as unknown[],
    gas_limit: gasLimit,
    gas_price_units: Number(flags.get('--gas-price') ?? 1),
    deployer_address: from,
    value: Number(flags.get('--value') ?? 0),
  };
  const response = await fetch(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'deploy_smart_contract', params, id: 1 }),
  });
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
