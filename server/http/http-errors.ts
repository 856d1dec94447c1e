/**
 * REST errors (docs/api.md "REST errors"): the status and the `reason` come from the error's kind in the one table
 * (src/errors.ts); no code switch here. JSON-RPC endpoints themselves answer 200 for JSON-RPC-level errors
 * (docs/design.md "Node APIs and access"); access refusals, 413 and 504 carry the table's status on every route.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { reasonOf, toWireError, type WireError } from '../../src/rpc/errors.ts';

/**
 * The REST error body (docs/api.md "REST errors"): `{"error": {code, message, reason, data?}}` — the JSON-RPC code
 * and message, a snake_case `reason` for machines, and the particulars. Never a JSON-RPC envelope.
 */
export function restErrorBody(wire: WireError): { error: Record<string, unknown> } {
  const { object } = wire;
  return { error: { code: object.code, message: object.message, reason: reasonOf(wire), ...(object.data === undefined ? {} : { data: object.data }) } };
}

/** A REST error with its kind's status. */
export function restError(c: Context, error: unknown): Response {
  const wire = toWireError(error);
  return c.json(restErrorBody(wire), wire.row.http as ContentfulStatusCode);
}

/** GET routes of the REST API (not JSON-RPC, which answers envelopes): their failures are REST-shaped. */
export function isRestRequest(c: Context): boolean {
  return c.req.method !== 'POST' && c.req.path.startsWith('/api/v1/');
}
