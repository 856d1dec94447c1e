/**
 * Node configuration: command-line flags over a `key=value` config file (Bitcoin Core style: `#` comments,
 * `addnode=` repeats) over network defaults. Every key is documented in docs/operations.md.
 */
import { decodeAddress } from '../src/crypto/address.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WeftError } from '../src/errors.ts';
import { getNetworkParams, type NetworkParams } from '../src/consensus/params.ts';
import { regtestDepthBounds, regtestParamsWith, RegtestOverrideError } from '../src/consensus/regtest-overrides.ts';
import { cacheMbDefault, cacheMbMin } from '../src/limits.ts';

export class ConfigError extends WeftError {
  constructor(message: string, hint?: string) {
    super('config', message, hint === undefined ? {} : { hint });
  }
}

type NetworkName = 'mainnet' | 'testnet' | 'devnet' | 'regtest';
type LogFormat = 'auto' | 'json' | 'pretty';

export interface NodeConfig {
  readonly network: NetworkName;
  readonly params: NetworkParams;
  readonly datadir: string;
  readonly mine: boolean;
  readonly minerAddress: string | undefined;
  /** The agent account this node's A2A endpoint settles tasks for (docs/settlement.md); undefined: no settlement. */
  readonly agentAccount: string | undefined;
  /**
   * The session key (scoped for escrow_claim) the node signs its A2A claims with; its private key is in the node
   * wallet. Undefined: claims are signed with the agent account's own key, which the wallet must then hold.
   */
  readonly agentSessionKeyId: number | undefined;
  /** DAA score an escrow must still have before its timeout when a settled task starts (docs/a2a.md); default 60. */
  readonly agentClaimMarginDaa: number | undefined;
  readonly threads: number;
  /** Megabytes for the chain's per-block caches (`--cache-mb`, docs/storage.md "Caches"); default cacheMbDefault. */
  readonly cacheMb: number;
  readonly rpcPort: number;
  readonly wsPort: number;
  readonly p2pPort: number;
  readonly grpcPort: number;
  /** HTTPS (TLS 1.3) port, served only when tlsCert and tlsKey are set. */
  readonly httpsPort: number;
  /** PEM certificate chain and key for HTTPS on httpsPort and for gRPC (docs/api.md "TLS"). */
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  /** PEM CA bundle that client certificates must chain to: gRPC runs (mutual TLS) only when this is set too. */
  readonly tlsClientCa: string | undefined;
  readonly host: string;
  readonly addnode: readonly string[];
  /** Dial only the addnode peers, never the address book's (`--connect-only`, docs/operations.md); default false. */
  readonly connectOnly: boolean;
  /** Dandelion++ stem length for our own transactions (0 = plain diffusion; docs/p2p.md "mixnet_hops"). */
  readonly mixnetHops: number;
  readonly logLevel: string;
  /** `json` (pino lines), `pretty` (human-readable lines), or `auto`: pretty when stdout is a terminal (server/logger.ts). */
  readonly logFormat: LogFormat;
  /**
   * Push-notification receivers allowed past the SSRF guard (server/a2a/push-sender.ts): host names, IP literals or
   * IPv4 CIDR ranges (`10.0.0.0/8`). Empty by default: webhooks on private addresses are refused.
   */
  readonly pushAllowHosts: readonly string[];
  /**
   * Who may frame the widget (widget.html): CSP frame-ancestors sources, `*` (any site, the default) or origins such
   * as `https://shop.example` (server/http/security-headers.ts, docs/widget.md). Every other page refuses framing.
   */
  readonly widgetFrameAncestors?: readonly string[];
  /** Per-identity rate limits and X-RateLimit-* headers (docs/auth.md); off only for private nodes and benchmarks. */
  readonly rateLimits: boolean;
  /** Unlocks the node's wallets for RPC signing; else $WEFT_WALLET_PASSPHRASE, else <datadir>/wallet.secret (docs/wallet.md). */
  readonly walletPassphrase: string | undefined;
  /** SMTP server for alert mails, e.g. smtp://user:pass@mail.example:587 (docs/alerts.md); unset: no alert mails. */
  readonly smtpUrl: string | undefined;
  /** From address of alert mails. */
  readonly alertsFrom: string;
  /** Public base URL of the alerts service for links in mails (default http://<host>:<rpc-port>/alerts). */
  readonly alertsUrl: string | undefined;
  /** Keep every block body, index row and state (docs/storage.md "Pruning"); default false: prune below the pruning point. */
  readonly archive: boolean;
  /** An empty pruned node with peers joins at a peer's proven pruning point (docs/pruning-proof.md "Serving and joining"); default true. */
  readonly fastSync: boolean;
}

/** Flag / config key → how to read it. Config files use the same names without the leading dashes. */
const keys = {
  network: 'string',
  datadir: 'string',
  config: 'string',
  mine: 'boolean',
  'miner-address': 'string',
  'agent-account': 'string',
  'agent-session-key-id': 'integer',
  'agent-claim-margin-daa': 'integer',
  threads: 'integer',
  'cache-mb': 'integer',
  'regtest-merge-depth': 'integer',
  'regtest-finality-depth': 'integer',
  'regtest-pruning-depth': 'integer',
  'regtest-header-version': 'integer',
  'regtest-rules-v2-at': 'integer',
  'regtest-rules-v3-at': 'integer',
  'regtest-rules-v4-at': 'integer',
  archive: 'boolean',
  'fast-sync': 'boolean',
  'rpc-port': 'port',
  'ws-port': 'port',
  'p2p-port': 'port',
  'grpc-port': 'port',
  'https-port': 'port',
  'tls-cert': 'string',
  'tls-key': 'string',
  'tls-client-ca': 'string',
  host: 'string',
  addnode: 'list',
  'connect-only': 'boolean',
  'mixnet-hops': 'integer',
  'log-level': 'string',
  'log-format': 'string',
  'push-allow-hosts': 'list',
  'widget-frame-ancestors': 'list',
  'rate-limits': 'boolean',
  'wallet-passphrase': 'string',
  'smtp-url': 'string',
  'alerts-from': 'string',
  'alerts-url': 'string',
} as const;
type Key = keyof typeof keys;

/** Every flag and config key (`weft node --help` describes each: server/node-usage.ts). */
export const configKeys: readonly string[] = Object.keys(keys);

/** Bitcoin Core's spellings in config files map onto the flag names. */
const aliases: Record<string, Key> = { port: 'p2p-port', rpcport: 'rpc-port', wsport: 'ws-port', grpcport: 'grpc-port', mineraddress: 'miner-address', mixnet_hops: 'mixnet-hops', rpcbind: 'host' };

type Raw = Partial<Record<Key, string | string[]>>;

function setRaw(raw: Raw, name: string, value: string, where: string): void {
  const key = (aliases[name] ?? name) as Key;
  if (!(key in keys)) throw new ConfigError(`unknown option '${name}' in ${where}`, `known options: ${Object.keys(keys).join(', ')}`);
  if (keys[key] === 'list') raw[key] = [...((raw[key] as string[] | undefined) ?? []), value];
  else raw[key] = value;
}

function parseArgs(argv: readonly string[]): Raw {
  const raw: Raw = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const key = (aliases[name] ?? name) as Key;
    if (eq !== -1) setRaw(raw, name, arg.slice(eq + 1), 'the command line');
    else if (keys[key] === 'boolean') setRaw(raw, name, 'true', 'the command line');
    else {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError(`option --${name} needs a value`);
      setRaw(raw, name, value, 'the command line');
    }
  }
  return raw;
}

function parseConfigFile(text: string, path: string): Raw {
  const raw: Raw = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const body = line.replace(/#.*$/, '').trim();
    if (body === '') return;
    const eq = body.indexOf('=');
    if (eq <= 0) throw new ConfigError(`${path}:${i + 1}: expected key=value, got '${body}'`);
    setRaw(raw, body.slice(0, eq).trim(), body.slice(eq + 1).trim(), `${path}:${i + 1}`);
  });
  return raw;
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name} must be an integer, got '${text}'`);
  const n = Number(text);
  if (n < min || n > max) throw new ConfigError(`${name} must be within ${min}..${max}, got ${n}`);
  return n;
}

function boolean(name: string, text: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new ConfigError(`${name} must be true or false, got '${text}'`);
}

function logFormat(text: string | undefined): LogFormat {
  if (text === undefined) return 'auto';
  if (text === 'auto' || text === 'json' || text === 'pretty') return text;
  throw new ConfigError(`log-format must be json, pretty or auto, got '${text}'`);
}

/** `push-allow-hosts`: comma-separated and/or repeated; each a host name, an IP literal or an IPv4 CIDR range. */
/** `agent-account` must be an address of this network: a typo would make every settled task unpayable. */
function agentAccountOf(text: string | undefined, hrp: string): string | undefined {
  if (text === undefined) return undefined;
  try {
    decodeAddress(text, hrp);
  } catch (error) {
    throw new ConfigError(`agent-account ${text}: ${(error as Error).message}`, `expected a ${hrp}1… address`);
  }
  return text;
}

function pushAllowHosts(values: readonly string[]): string[] {
  const hosts = values.flatMap((v) => v.split(',')).map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter((h) => h !== '');
  for (const h of hosts) {
    const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(h);
    const ok = cidr ? cidr[1]!.split('.').every((o) => Number(o) <= 255) && Number(cidr[2]) <= 32 : /^[a-z0-9.:_-]+$/.test(h);
    if (!ok) throw new ConfigError(`push-allow-hosts: '${h}' is not a host name, IP address or IPv4 CIDR range`);
  }
  return hosts;
}

/**
 * `widget-frame-ancestors`: comma-separated and/or repeated CSP sources — `*`, or an origin (`https://shop.example`,
 * `https://*.shop.example`, with an optional port). Nothing that could end the directive (`;`, quotes, spaces).
 * None given: `*`, any site may embed the widget.
 */
function widgetFrameAncestors(values: readonly string[]): string[] {
  const sources = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  for (const source of sources) {
    if (source !== '*' && !/^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:(\d{1,5}|\*))?$/i.test(source)) {
      throw new ConfigError(`widget-frame-ancestors: '${source}' is not * or an origin such as https://shop.example`);
    }
  }
  return sources.length === 0 ? ['*'] : sources;
}

/** Flags win over the config file, which wins over the defaults. */
export function loadConfig(argv: readonly string[], cwd: string = process.cwd()): NodeConfig {
  const flags = parseArgs(argv);
  const configPath = flags.config as string | undefined;
  const file = configPath ? parseConfigFile(readFileSync(resolve(cwd, configPath), 'utf8'), configPath) : {};
  const raw: Raw = {
    ...file,
    ...flags,
    addnode: [...((file.addnode as string[]) ?? []), ...((flags.addnode as string[]) ?? [])],
    'push-allow-hosts': [...((file['push-allow-hosts'] as string[]) ?? []), ...((flags['push-allow-hosts'] as string[]) ?? [])],
    'widget-frame-ancestors': [...((file['widget-frame-ancestors'] as string[]) ?? []), ...((flags['widget-frame-ancestors'] as string[]) ?? [])],
  };
  const str = (k: Key): string | undefined => raw[k] as string | undefined;

  const network = (str('network') ?? 'mainnet') as NetworkName;
  if (!['mainnet', 'testnet', 'devnet', 'regtest'].includes(network)) {
    throw new ConfigError(`network must be mainnet, testnet, devnet or regtest, got '${network}'`);
  }
  const params = regtestOverrides(network, str);
  const port = (k: Key, fallback: number): number => (str(k) === undefined ? fallback : integer(k, str(k)!, 0, 65535));
  return {
    network,
    params,
    datadir: resolve(cwd, str('datadir') ?? `.weft/${network}`),
    mine: str('mine') === undefined ? false : boolean('mine', str('mine')!),
    minerAddress: str('miner-address'),
    agentAccount: agentAccountOf(str('agent-account'), params.hrp),
    agentClaimMarginDaa: str('agent-claim-margin-daa') === undefined ? undefined : integer('agent-claim-margin-daa', str('agent-claim-margin-daa')!, 1, 1_000_000),
    agentSessionKeyId: str('agent-session-key-id') === undefined ? undefined : integer('agent-session-key-id', str('agent-session-key-id')!, 1, Number.MAX_SAFE_INTEGER),
    threads: str('threads') === undefined ? 2 : integer('threads', str('threads')!, 1, 256),
    cacheMb: str('cache-mb') === undefined ? cacheMbDefault : integer('cache-mb', str('cache-mb')!, cacheMbMin, 1 << 20),
    rpcPort: port('rpc-port', params.ports.rpc),
    wsPort: port('ws-port', params.ports.ws),
    p2pPort: port('p2p-port', params.ports.p2p),
    grpcPort: port('grpc-port', params.ports.grpc),
    httpsPort: port('https-port', params.ports.https),
    tlsCert: str('tls-cert') === undefined ? undefined : resolve(cwd, str('tls-cert')!),
    tlsKey: str('tls-key') === undefined ? undefined : resolve(cwd, str('tls-key')!),
    tlsClientCa: str('tls-client-ca') === undefined ? undefined : resolve(cwd, str('tls-client-ca')!),
    host: str('host') ?? '127.0.0.1',
    addnode: (raw.addnode as string[]) ?? [],
    connectOnly: str('connect-only') === undefined ? false : boolean('connect-only', str('connect-only')!),
    mixnetHops: str('mixnet-hops') === undefined ? 0 : integer('mixnet-hops', str('mixnet-hops')!, 0, 16),
    logLevel: str('log-level') ?? 'info',
    logFormat: logFormat(str('log-format')),
    pushAllowHosts: pushAllowHosts((raw['push-allow-hosts'] as string[] | undefined) ?? []),
    widgetFrameAncestors: widgetFrameAncestors((raw['widget-frame-ancestors'] as string[] | undefined) ?? []),
    rateLimits: str('rate-limits') === undefined ? true : boolean('rate-limits', str('rate-limits')!),
    walletPassphrase: str('wallet-passphrase'),
    smtpUrl: str('smtp-url'),
    alertsFrom: str('alerts-from') ?? 'weft-node@localhost',
    alertsUrl: str('alerts-url')?.replace(/\/+$/, ''),
    archive: str('archive') === undefined ? false : boolean('archive', str('archive')!),
    fastSync: str('fast-sync') === undefined ? true : boolean('fast-sync', str('fast-sync')!),
  };
}

/**
 * Regtest only (Bitcoin Core's -vbparams idea, src/consensus/regtest-overrides.ts): tests whose nodes mine apart for
 * an unbounded time lift the depth rules out of reach, and version 2 headers (level parents and the pruning point,
 * docs/pruning-proof.md) are opt-in on a network that otherwise keeps version 1 for its fixtures. Every other
 * network's depths and header version are consensus.
 */
function regtestOverrides(network: NetworkName, str: (k: Key) => string | undefined): NetworkParams {
  const names = ['regtest-header-version', 'regtest-finality-depth', 'regtest-merge-depth', 'regtest-pruning-depth', 'regtest-rules-v2-at', 'regtest-rules-v3-at', 'regtest-rules-v4-at'] as const;
  const given = names.filter((k) => str(k) !== undefined);
  if (given.length === 0) return getNetworkParams(network);
  if (network !== 'regtest') throw new ConfigError(`${given.join(', ')} apply to --network regtest only`);
  const read = (k: Key, [min, max]: readonly [number, number]): number | undefined => (str(k) === undefined ? undefined : integer(k, str(k)!, min, max));
  try {
    return regtestParamsWith({
      headerVersion: read('regtest-header-version', [1, 2]) as 1 | 2 | undefined,
      finalityDepth: read('regtest-finality-depth', regtestDepthBounds.finalityDepth),
      mergeDepth: read('regtest-merge-depth', regtestDepthBounds.mergeDepth),
      pruningDepth: read('regtest-pruning-depth', regtestDepthBounds.pruningDepth),
      rulesV2At: read('regtest-rules-v2-at', [0, Number.MAX_SAFE_INTEGER]),
      rulesV3At: read('regtest-rules-v3-at', [0, Number.MAX_SAFE_INTEGER]),
      rulesV4At: read('regtest-rules-v4-at', [0, Number.MAX_SAFE_INTEGER]),
    });
  } catch (cause) {
    if (cause instanceof RegtestOverrideError) throw new ConfigError(`regtest: ${cause.message}`);
    throw cause;
  }
}
