import { WeftError } from '../errors.ts';

/** -40005 Mining error (the seed's table): a mining operation failed, with the reason. */
export class MiningError extends WeftError {
  constructor(message: string, options: { details?: unknown; hint?: string; cause?: unknown } = {}) {
    super('mining_error', message, options);
  }
}
