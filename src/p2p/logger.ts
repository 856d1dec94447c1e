/**
 * The logging port of the p2p layer: the pino call shape (`info(fields, message)`), so the node hands its pino
 * logger in unchanged and a browser or a test hands in anything with these three methods.
 */
export interface P2pLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export const silentLogger: P2pLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };
