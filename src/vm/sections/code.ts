/**
 * The code section (WebAssembly core 1.0 §5.5.13): one body per declared function, each under the body-size cap.
 * Only where each body lies is recorded; the bodies themselves are scanned by code-scan.ts.
 */
import { vmFunctionBodyBytesMax } from '../../limits.ts';
import { malformed, readBytes, readU32, type WasmCursor } from '../wasm-cursor.ts';
import type { ModuleReaderState } from './reader-state.ts';
import { reject } from './section-rules.ts';

/** Section 10. */
export function readCodeSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = readU32(s);
  if (n !== (m.definedFuncs ?? 0)) malformed(`${n} function bodies for ${m.definedFuncs ?? 0} functions`, s.pos);
  for (let i = 0; i < n; i++) {
    const size = readU32(s);
    if (size > vmFunctionBodyBytesMax) reject('too-large', `function ${i}'s body is ${size} bytes`);
    const start = s.pos;
    readBytes(s, size);
    m.bodies.push({ start, end: s.pos });
  }
}
