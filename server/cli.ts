/**
 * `weft <command> [flags]`. Commands: `node` (run a full node), `apikey` and `oauth` (docs/auth.md).
 * Exit codes: 0 success, 1 runtime failure, 2 usage or configuration error.
 */
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startNode } from './node/start-node.ts';
import { apikeyUsage, oauthUsage, runAuthCommand } from './auth/auth-cli.ts';
import { WeftError } from '../src/errors.ts';

const usage = `usage: weft node [--network mainnet|testnet|devnet|regtest] [--datadir DIR] [--config FILE] [--mine]
                 [--miner-address ADDR] [--threads N] [--rpc-port N] [--ws-port N] [--p2p-port N]
                 [--grpc-port N] [--host ADDR] [--addnode HOST:PORT] [--log-level LEVEL]
                 [--https-port N] [--tls-cert PEM] [--tls-key PEM] [--tls-client-ca PEM]
${apikeyUsage}
${oauthUsage}`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(`${usage}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'apikey' || command === 'oauth') {
    return runAuthCommand(command, rest, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
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
  const logger = createLogger(config.logLevel);
  try {
    const node = await startNode(config, logger);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        void node.close().then(resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  } catch (error) {
    logger.fatal({ err: error, code: error instanceof WeftError ? error.code : undefined }, 'node failed');
    return 1;
  }
}
