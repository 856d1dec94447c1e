/**
 * Regtest's adjustable consensus (Bitcoin Core's -vbparams idea, docs/consensus.md "Networks"): the depth rules and
 * the header version and the activation of later rule sets. Nodes of one regtest network must agree on them; a node takes them from its flags
 * (server/config.ts) and the tab from its node's `get_info` (`consensus`, web/light/light-node.ts) — on regtest only:
 * every other network's parameters are built in, and nothing a node says can change them.
 */
import { WeftError } from '../errors.ts';
import { regtestParams, type NetworkParams } from './params.ts';

export interface RegtestOverrides {
  readonly headerVersion?: 1 | 2;
  readonly finalityDepth?: number;
  readonly mergeDepth?: number;
  readonly pruningDepth?: number;
  /** DAA score at which rules v2 activate (src/consensus/activation.ts); default never. */
  readonly rulesV2At?: number;
  /** DAA score at which rules v3 (mass re-priced) activate; default never. */
  readonly rulesV3At?: number;
  /** DAA score at which rules v4 (a mass per transaction) activate; default never. */
  readonly rulesV4At?: number;
}

export class RegtestOverrideError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}

/** The bounds of each depth, checked before the rules between them. */
export const regtestDepthBounds = {
  finalityDepth: [2, 1 << 30],
  mergeDepth: [1, 1 << 30],
  pruningDepth: [3, 1 << 30],
} as const;

/**
 * Regtest's parameters with `overrides` applied. Merge depth stays below finality depth (nothing past the finality
 * point is ever merged) and pruning depth above it (every state a reorganisation can return to stays whole); a
 * finality depth alone lifts the pruning depth to at least twice it.
 */
export function regtestParamsWith(overrides: RegtestOverrides): NetworkParams {
  const { headerVersion = regtestParams.headerVersion } = overrides;
  if (headerVersion !== 1 && headerVersion !== 2) throw new RegtestOverrideError(`header version must be 1 or 2, got ${String(headerVersion)}`);
  for (const key of ['finalityDepth', 'mergeDepth', 'pruningDepth'] as const) {
    const value = overrides[key];
    const [min, max] = regtestDepthBounds[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= min && value <= max)) {
      throw new RegtestOverrideError(`${key} must be an integer within ${min}..${max}, got ${String(value)}`);
    }
  }
  const finalityDepth = overrides.finalityDepth ?? regtestParams.finalityDepth;
  const mergeDepth = overrides.mergeDepth ?? regtestParams.mergeDepth;
  const pruningDepth = overrides.pruningDepth ?? Math.max(regtestParams.pruningDepth, 2 * finalityDepth);
  if (mergeDepth >= finalityDepth) throw new RegtestOverrideError(`merge depth (${mergeDepth}) must be below finality depth (${finalityDepth})`);
  if (pruningDepth <= finalityDepth) throw new RegtestOverrideError(`pruning depth (${pruningDepth}) must be above finality depth (${finalityDepth})`);
  const rulesV2 = overrides.rulesV2At ?? regtestParams.activations.rulesV2;
  const rulesV3 = overrides.rulesV3At ?? regtestParams.activations.rulesV3;
  const rulesV4 = overrides.rulesV4At ?? regtestParams.activations.rulesV4;
  for (const [name, at] of [['v2', rulesV2], ['v3', rulesV3], ['v4', rulesV4]] as const) {
    if (!(Number.isSafeInteger(at) && at >= 0)) throw new RegtestOverrideError(`rules ${name} activation must be a DAA score (an integer ≥ 0), got ${String(at)}`);
  }
  const same = headerVersion === regtestParams.headerVersion && finalityDepth === regtestParams.finalityDepth
    && mergeDepth === regtestParams.mergeDepth && pruningDepth === regtestParams.pruningDepth
    && rulesV2 === regtestParams.activations.rulesV2 && rulesV3 === regtestParams.activations.rulesV3
    && rulesV4 === regtestParams.activations.rulesV4;
  const activations = Object.freeze({ ...regtestParams.activations, rulesV2, rulesV3, rulesV4 });
  return same ? regtestParams : Object.freeze({ ...regtestParams, headerVersion, finalityDepth, mergeDepth, pruningDepth, activations });
}
