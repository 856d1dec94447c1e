/**
 * The host functions with effects beyond storage (docs/contracts.md "Host ABI"): value sent out of the contract,
 * events, and BLAKE3. Transfers and events are buffered in the call and applied only if it succeeds.
 */
import { AddressType, addressBytes } from '../../crypto/address.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { vmEventDataBytesMax, vmEventsMax, vmEventTopicBytesMax, vmHashInputBytesMax } from '../../limits.ts';
import type { HostGas } from '../gas-schedule.ts';
import { HostTrapSignal, type HostCall } from '../host-functions.ts';
import { charge, region, write } from './call-memory.ts';

// Read once: under tsx each read of an imported binding is a getter call, and these are read on every host call.
const max = Object.freeze({
  eventDataBytes: vmEventDataBytesMax,
  events: vmEventsMax,
  eventTopicBytes: vmEventTopicBytesMax,
  hashInputBytes: vmHashInputBytesMax,
});

const isAddressType = (type: number): boolean => Object.values(AddressType).includes(type as never);

/** Sends `amount` base units (u64) to the 33-byte address at `to`, out of what the call may spend. */
export function transferValue(c: HostCall, g: HostGas, to: number, amount: bigint): void {
  charge(c, g.transfer);
  const recipient = region(c, to, addressBytes).slice();
  if (!isAddressType(recipient[0]!)) throw new HostTrapSignal(`transfer to an address of unknown type ${recipient[0]}`);
  const units = BigInt.asUintN(64, amount);
  if (units > c.spendable) throw new HostTrapSignal(`transfer of ${units} with ${c.spendable} spendable`);
  c.spendable -= units;
  c.transfers.push({ to: recipient, amount: units });
}

export function emitEvent(c: HostCall, g: HostGas, tp: number, tl: number, dp: number, dl: number): void {
  charge(c, g.eventBase + g.eventByte * ((tl >>> 0) + (dl >>> 0)));
  if (tl >>> 0 > max.eventTopicBytes || dl >>> 0 > max.eventDataBytes) throw new HostTrapSignal('an event over its size limit');
  if (c.events.length >= max.events) throw new HostTrapSignal(`more than ${max.events} events`);
  c.events.push({ topic: region(c, tp, tl).slice(), data: region(c, dp, dl).slice() });
}

export function blake3Hash(c: HostCall, g: HostGas, ptr: number, len: number, out: number): void {
  charge(c, g.hashBase + g.hashByte * (len >>> 0));
  if (len >>> 0 > max.hashInputBytes) throw new HostTrapSignal(`hashing ${len >>> 0} bytes`);
  write(c, out, blake3(region(c, ptr, len)));
}
