/**
 * prepare(bytes, version): the deploy-time pass that turns contract bytes into the module every node runs
 * (docs/contracts.md "Prepare"). It validates the module against the version's rules (module-reader.ts for sections,
 * code-scan.ts for bodies, then the engine's own Wasm validation for types) and instruments it (instrument.ts). It is
 * pure and byte-for-byte deterministic, so the prepared module is the same in Node and in a browser tab, and it is
 * cached by (BLAKE3 of the code, version). A refused module throws PrepareError and nothing else.
 */
import { blake3 } from '../crypto/blake3.ts';
import { assert } from '../errors.ts';
import { vmModuleBytesMax, vmPreparedCacheEntriesMax } from '../limits.ts';
import { toHex } from '../util/bytes.ts';
import { scanBody } from './code-scan.ts';
import { PrepareError } from './errors.ts';
import { gasScheduleV1, type GasSchedule } from './gas-schedule.ts';
import { instrumentModule, type InstrumentOptions } from './instrument.ts';
import { readModule } from './module-reader.ts';
import { ExportKind } from './wasm-module.ts';

/** The newest prepare version; a change to rules, instrumentation or gas is a new version (activated at a height). */
export const vmVersionLatest = 1;

const schedules: ReadonlyMap<number, GasSchedule> = new Map([[1, gasScheduleV1]]);

export interface PreparedContract {
  readonly version: number;
  /** BLAKE3 of the original bytes: the code's identity in state (namespace contract_code). */
  readonly codeHash: Uint8Array;
  /** The instrumented module. */
  readonly code: Uint8Array<ArrayBuffer>;
  /** Length of the original bytes: what the per-call code charge counts, so gas does not follow the instrumenter. */
  readonly originalBytes: number;
  readonly schedule: GasSchedule;
  readonly memoryPages: number;
  /**
   * Exported functions of type () → (), sorted: the entry points (a call may use those not starting with `__`); the
   * prepared module runs entry point i as `__weft_call(i)`.
   */
  readonly entryPoints: readonly string[];
}

/** The gas schedule of a prepare version; PrepareError('version') for one this node does not know. */
function gasScheduleOf(version: number): GasSchedule {
  const schedule = schedules.get(version);
  if (!schedule) throw new PrepareError('version', `prepare version ${version} is unknown (latest: ${vmVersionLatest})`);
  return schedule;
}

const cache = new Map<string, PreparedContract>();

/** Validates and instruments `bytes` under `version`; the same (code, version) returns the same cached object. */
export function prepare(bytes: Uint8Array, version: number = vmVersionLatest): PreparedContract {
  gasScheduleOf(version);
  if (bytes.length > vmModuleBytesMax) throw new PrepareError('too-large', `the module is ${bytes.length} bytes, at most ${vmModuleBytesMax}`);
  const key = `${version}:${toHex(blake3(bytes))}`;
  const hit = cache.get(key);
  if (hit) return hit;

  const prepared = prepareModule(bytes, version);
  if (cache.size >= vmPreparedCacheEntriesMax) cache.delete(cache.keys().next().value!);
  cache.set(key, prepared);
  return prepared;
}

/**
 * prepare() without the cache: the pure function itself (tests call it twice to see identical bytes). `options` is
 * for tests and benches only (instrument.ts): a node never sets it.
 */
export function prepareModule(bytes: Uint8Array, version: number = vmVersionLatest, options: InstrumentOptions = {}): PreparedContract {
  const schedule = gasScheduleOf(version);
  if (bytes.length > vmModuleBytesMax) throw new PrepareError('too-large', `the module is ${bytes.length} bytes, at most ${vmModuleBytesMax}`);
  const codeHash = blake3(bytes);
  const module = readModule(bytes);
  const bodies = module.bodies.map((range, i) =>
    scanBody(
      { bytes, types: module.types, funcTypes: module.funcTypes, globalCount: module.globalCount, hasTable: module.tableEntries !== undefined, schedule },
      range,
      module.importedFuncs + i,
    ),
  );
  // Types, stack shapes and the rest of Wasm validation: the engine's validator, which the spec makes deterministic
  // for this feature set, and whose implementation limits are far above ours (src/limits.ts "Contract VM").
  if (!WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>)) throw new PrepareError('invalid', 'the module fails WebAssembly validation');
  const entries = module.exports
    .filter((e) => {
      if (e.kind !== ExportKind.func) return false;
      const type = module.types[module.funcTypes[e.index]!]!;
      return type.params.length === 0 && type.results.length === 0;
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const code = instrumentModule(module, bodies, entries, options);
  assert(WebAssembly.validate(code), 'the instrumented module of a valid module must validate');
  const entryPoints = Object.freeze(entries.map((e) => e.name));
  return Object.freeze({ version, codeHash, code, originalBytes: bytes.length, schedule, memoryPages: module.memoryPages, entryPoints });
}
