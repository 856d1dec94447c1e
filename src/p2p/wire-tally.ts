/**
 * What a node sent its peers, by message type: messages and payload bytes (before Noise's 18 bytes a frame). The
 * network lab's wire bytes split by what carries them (docs/network.md "Where a transfer's wire bytes go"); read at
 * /metrics as `weft_p2p_sent_messages` and `weft_p2p_sent_bytes`.
 */
export interface WireCount {
  messages: number;
  bytes: number;
}

export type WireTally = Map<string, WireCount>;

export function tallySent(tally: WireTally, type: string, bytes: number): void {
  const count = tally.get(type);
  if (count === undefined) tally.set(type, { messages: 1, bytes });
  else {
    count.messages += 1;
    count.bytes += bytes;
  }
}
