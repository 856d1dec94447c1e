/** Structured JSON logs (pino) on stdout: one object per line, machine-readable for tests and operators. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'weft' }, timestamp: pino.stdTimeFunctions.isoTime });
}
