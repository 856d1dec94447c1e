/**
 * `weft node --help`: every flag of server/config.ts in one line each (a test holds the two to the same set), so an
 * operator finds --archive, --fast-sync and the regtest overrides without reading docs/operations.md first.
 */
import { cacheMbDefault } from '../src/limits.ts';

/** Flag → [value placeholder ('' for a boolean), one line: what it does and its default]. */
const nodeFlagHelp: Readonly<Record<string, readonly [string, string]>> = {
  network: ['NAME', 'mainnet, testnet, devnet or regtest (default mainnet)'],
  datadir: ['DIR', 'where the node keeps its data (default ./.weft/<network>)'],
  config: ['FILE', 'read key=value settings (the flag names without dashes) from FILE; flags win'],
  mine: ['', 'mine with this node (default off)'],
  'miner-address': ['ADDR', "where mined coins go (default the node wallet's first address)"],
  threads: ['N', 'mining threads (default 2)'],
  'cache-mb': ['N', `memory for block and state caches, MiB (default ${cacheMbDefault})`],
  archive: ['', 'keep every block, index row and state instead of pruning below the pruning point'],
  'fast-sync': ['BOOL', "an empty node joins at a peer's proven pruning point (default true; false syncs from genesis)"],
  'rpc-port': ['N', 'HTTP port: JSON-RPC, REST, the web app, A2A (default per network)'],
  'ws-port': ['N', 'WebSocket JSON-RPC and subscriptions port (default per network)'],
  'p2p-port': ['N', 'peer-to-peer port (default per network)'],
  'grpc-port': ['N', 'gRPC port (default per network)'],
  'https-port': ['N', 'HTTPS port, with --tls-cert and --tls-key (default per network)'],
  'tls-cert': ['PEM', 'certificate for HTTPS and gRPC'],
  'tls-key': ['PEM', 'private key of --tls-cert'],
  'tls-client-ca': ['PEM', 'CA whose client certificates gRPC accepts (mTLS)'],
  'widget-frame-ancestors': ['ORIGIN,...', 'sites that may frame /widget.html (default any site; the other pages never)'],
  host: ['ADDR', 'address every port binds to (default 127.0.0.1)'],
  addnode: ['HOST:PORT', 'a peer to connect to (repeatable)'],
  'connect-only': ['', 'dial only the --addnode peers, never addresses other peers tell of (default off)'],
  'mixnet-hops': ['N', 'Dandelion++ stem hops for this node’s own transactions, 0–16 (default 0)'],
  'log-level': ['LEVEL', 'trace, debug, info, warn, error or fatal (default info)'],
  'log-format': ['FORMAT', 'json, pretty or auto: pretty on a terminal, JSON when piped (default auto)'],
  'push-allow-hosts': ['HOST,...', 'private hosts A2A push notifications may reach (repeatable)'],
  'rate-limits': ['BOOL', 'per-caller rate limits on the APIs (default true)'],
  'wallet-passphrase': ['TEXT', "encrypts the node wallet's keys at rest"],
  'smtp-url': ['URL', 'mail server for alerts (smtp://user:pass@host:port)'],
  'alerts-from': ['ADDR', 'sender address of alert mails (default weft-node@localhost)'],
  'alerts-url': ['URL', 'public base URL of the alerts service for links in mails'],
  'agent-account': ['ADDR', "the A2A agent's account that on-chain settlement pays"],
  'agent-session-key-id': ['N', "the session key of --agent-account the node signs claims with"],
  'agent-claim-margin-daa': ['N', 'DAA scores before an escrow times out that the node claims by'],
  'regtest-header-version': ['1|2', 'regtest only: the header version blocks carry (default 1)'],
  'regtest-finality-depth': ['N', 'regtest only: finality depth (default 100)'],
  'regtest-merge-depth': ['N', 'regtest only: merge depth, below the finality depth (default 50)'],
  'regtest-pruning-depth': ['N', 'regtest only: pruning depth'],
  'regtest-rules-v2-at': ['N', 'regtest only: the DAA score rules v2 activate at (default never)'],
  'regtest-rules-v3-at': ['N', 'regtest only: the DAA score rules v3 (mass re-priced) activate at (default never)'],
  'regtest-rules-v4-at': ['N', 'regtest only: the DAA score rules v4 (a mass per transaction) activate at (default never)'],
};

/** The usage text: a synopsis, then one aligned line per flag. */
export function nodeUsageText(): string {
  const rows = Object.entries(nodeFlagHelp).map(([flag, [value]]) => `--${flag}${value ? ` ${value}` : ''}`);
  const width = Math.max(...rows.map((r) => r.length)) + 2;
  const lines = Object.values(nodeFlagHelp).map(([, text], i) => `  ${rows[i]!.padEnd(width)}${text}`);
  return [
    'usage: weft node [flags]',
    ...lines,
    '  Every flag is also a config-file key (key=value); docs/operations.md describes each one.',
  ].join('\n');
}
