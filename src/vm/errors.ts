/**
 * The VM's errors (docs/contracts.md "Results and faults"). Two families, kept apart on purpose:
 *
 * - `PrepareError`: a module refused at deploy. Deterministic bad input, the same on every node and engine; its
 *   `reason` says which rule (a float op, SIMD, an import outside the ABI, a size limit, …). -40007 on the wire.
 * - `VmFaultError`: this node could not evaluate a call (the engine ran out of stack or memory, or refused a module
 *   prepare had accepted). Never a consensus result: the caller aborts the block and retries or alerts, it does not
 *   mark anything invalid.
 *
 * A call that fails by the contract's own doing (out of gas, a trap, a revert, the stack budget) is no error at all:
 * it is a typed `CallResult` (src/vm/execute.ts), because it is a consensus outcome that still pays for its gas.
 */
import { WeftError } from '../errors.ts';

/** Which deploy rule a module broke. Stable strings: tests and the RPC's error data name them. */
export type PrepareRejection =
  | 'version' // an unknown prepare version
  | 'malformed' // not a Wasm binary: bad magic, truncated, overlong LEB128, a section that does not add up
  | 'invalid' // well-formed but fails Wasm validation (types, indices)
  | 'too-large' // module, section, body or count over its limit (src/limits.ts "Contract VM")
  | 'float' // an f32/f64 type or instruction
  | 'simd' // v128 or the 0xfd prefix
  | 'threads' // atomics (0xfe) or shared memory
  | 'bulk-memory' // 0xfc bulk ops, passive segments, the DataCount section
  | 'reference-types' // externref/funcref values, table ops, typed select
  | 'exceptions' // try/catch/throw, the tag section
  | 'tail-calls' // return_call*
  | 'multi-value' // more than one result, block types by type index
  | 'multi-memory' // a second memory, a memory index in an instruction
  | 'import' // an import outside the host ABI, with the wrong type, or not a function
  | 'start' // a start section (the constructor runs under metering instead)
  | 'memory' // no memory, no maximum, or a maximum above vmMemoryPagesMax
  | 'export'; // an export name the VM reserves (`__weft_*`)

export class PrepareError extends WeftError {
  readonly reason: PrepareRejection;
  constructor(reason: PrepareRejection, message: string, details?: Record<string, unknown>) {
    super('smart_contract_error', `contract module rejected (${reason}): ${message}`, { details: { reason, ...details } });
    this.reason = reason;
  }
}

/** The node, not the contract, failed: an engine resource error or a prepared module the engine refuses. */
export class VmFaultError extends WeftError {
  constructor(message: string, cause?: unknown) {
    super('internal', `contract VM node fault: ${message}`, { cause });
  }
}
