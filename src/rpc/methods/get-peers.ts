import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { secondsOf } from '../views.ts';

/** Connected peers (Bitcoin Core getpeerinfo, geth admin_peers). */
export const getPeers = defineMethod({
  name: 'get_peers',
  summary: 'Connected peers: id, address, direction, transport, connection time, height and ban score.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({
    count: z.int(),
    peers: z.array(
      z.object({
        id: z.string(),
        address: z.string(),
        direction: z.enum(['inbound', 'outbound']),
        transport: z.enum(['tcp', 'websocket']),
        connected_since: z.int().describe('Unix seconds'),
        height: z.int(),
        ban_score: z.number(),
      }),
    ),
  }),
  run(_params, ctx) {
    const peers = need(ctx, 'peers', 'get_peers').peers();
    return {
      count: peers.length,
      peers: peers.map((p) => ({
        id: p.id,
        address: p.address,
        direction: p.direction,
        transport: p.transport,
        connected_since: secondsOf(p.connectedAtMs),
        height: p.height,
        ban_score: p.banScore,
      })),
    };
  },
});
