/**
 * `weft <command> [flags]`. Commands: `node` (run a full node), `apikey` and `oauth` (docs/auth.md), `contract`
 * (build and deploy a contract, docs/contracts.md).
 * Exit codes: 0 success, 1 runtime failure, 2 usage or configuration error.
 */
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startNode } from './node/start-node.ts';
import { apikeyUsage, oauthUsage, runAuthCommand } from './auth/auth-cli.ts';
import { contractUsage, runContractCommand } from './contract-cli.ts';
import { nodeUsageText } from './node-usage.ts';
import { runtime } from './runtime.ts';
import { WeftError } from '../src/errors.ts';

export const nodeUsage = nodeUsageText();

const usage = `usage: weft <command> [flags]   (weft <command> --help for one command)
${nodeUsage}
${apikeyUsage}
${oauthUsage}
${contractUsage}`;

const commandUsage: Readonly<Record<string, string>> = { node: nodeUsage, apikey: apikeyUsage, oauth: oauthUsage, contract: contractUsage };

/** The host part of a URL a browser on this machine can open: a wildcard bind is reached on loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    // `weft help node` prints that command's usage; `weft` alone is a usage error (exit 2) that still shows it.
    const topic = command === 'help' && rest[0] !== undefined ? commandUsage[rest[0]] : undefined;
    process.stdout.write(`${topic ?? usage}\n`);
    return command === undefined ? 2 : 0;
  }
  // `weft <command> --help` (or -h) anywhere among the flags: that command's usage, exit 0, nothing else runs.
  if (commandUsage[command] !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${commandUsage[command]}\n`);
    return 0;
  }
  if (command === 'apikey' || command === 'oauth') {
    return runAuthCommand(command, rest, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
  }
  if (command === 'contract') {
    return runContractCommand(rest, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
  }
  if (command !== 'node') {
    process.stderr.write(`weft: unknown command '${command}'\n${usage}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`weft: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  // Listened for before the node starts: a SIGTERM that arrives while it is still starting (it may already mine and
  // commit blocks) stops it cleanly once started, instead of killing it with Node's default action.
  const signalled = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  try {
    const node = await startNode(config, logger);
    // Once, when everything listens: where to point a browser, and where the operator's API key is (docs/operations.md).
    const web = `http://${urlHost(config.host)}:${node.httpPort}/`;
    logger.info({ event: 'node_ready', web, apiKeyFile: node.apiCookiePath, runtime }, `ready: open ${web} for the web app; the operator API key is in ${node.apiCookiePath}`);
    const signal = await signalled;
    logger.info({ signal }, 'shutting down');
    await node.close();
    return 0;
  } catch (error) {
    logger.fatal({ err: error, code: error instanceof WeftError ? error.code : undefined }, 'node failed');
    return 1;
  }
}
