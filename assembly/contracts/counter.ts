// A counter: one u64 under the variable `count` (key empty). `init` takes an optional start value.
import { Args, Writer, returnValue } from "./sdk/codec";
import { getU64, setU64 } from "./sdk/storage";
import { caller, emit } from "./sdk/context";

const COUNT = "count";
const SCALAR = new Uint8Array(0);

export function init(): void {
  const args = Args.fromInput();
  setU64(COUNT, SCALAR, args.remaining() > 0 ? args.nextU64() : 0);
}

export function increment(): void {
  const next = getU64(COUNT, SCALAR) + 1;
  setU64(COUNT, SCALAR, next);
  emit("incremented", caller());
  returnValue(new Writer().u64(next));
}

export function add(): void {
  const next = getU64(COUNT, SCALAR) + Args.fromInput().nextU64();
  setU64(COUNT, SCALAR, next);
  returnValue(new Writer().u64(next));
}

export function get(): void {
  returnValue(new Writer().u64(getU64(COUNT, SCALAR)));
}
