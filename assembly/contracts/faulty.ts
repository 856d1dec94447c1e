// A contract that misbehaves on purpose, one way per method: the VM tests run it to see each failure told apart.
import { Args } from "./sdk/codec";
import { setU64 } from "./sdk/storage";
import { revert } from "./sdk/context";

const SCALAR = new Uint8Array(0);

/** Never returns: stopped by gas. */
export function loop_forever(): void {
  let i: u64 = 0;
  while (true) {
    i++;
    setU64("spin", SCALAR, i);
  }
}

/** A busy loop without host calls: stopped by the inline metering alone. */
export function spin(): void {
  let x: u64 = Args.fromInput().nextU64();
  while (x != 1) x = x & 1 ? x * 3 + 1 : x >> 1;
}

function depth(n: u64): u64 {
  return n == 0 ? 0 : depth(n - 1) + 1;
}

/** Recurses as deep as its argument says: unbounded recursion stops on the stack budget. */
export function recurse(): void {
  const n = depth(Args.fromInput().nextU64());
  if (n == 0) revert("zero");
}

/** Writes, then reverts: the write must not survive. */
export function write_then_revert(): void {
  setU64("written", SCALAR, 42);
  revert("changed my mind");
}

/** A Wasm trap: integer division by zero. */
export function divide_by_zero(): void {
  const d = Args.fromInput().nextU64();
  setU64("quotient", SCALAR, 100 / d);
}
