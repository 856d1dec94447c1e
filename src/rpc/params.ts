/**
 * A method's params, parsed once with its zod schema: by-name params as given, by-position params mapped onto the
 * schema's keys in declaration order (the dispatcher's rule, docs/api.md "Params").
 */
import type { z } from 'zod';
import { InvalidParamsError, type ParamIssue } from './errors.ts';
import type { AnyRpcMethod } from './method.ts';

function issuesOf(error: z.ZodError): ParamIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(params)', message: issue.message }));
}

/** By-name params as given; by-position params map onto the schema's keys in declaration order. */
function namedParams(method: AnyRpcMethod, params: unknown): unknown {
  if (params === undefined) return {};
  if (!Array.isArray(params)) return params;
  const names = Object.keys(method.params.shape);
  if (params.length > names.length) {
    throw new InvalidParamsError(`${method.name} takes at most ${names.length} positional params, got ${params.length}`);
  }
  const named: Record<string, unknown> = {};
  params.forEach((value, i) => {
    if (value !== undefined && value !== null) named[names[i]!] = value;
  });
  return named;
}

/** The method's parsed params, or a thrown -32602 listing every issue. */
export function parseParams(method: AnyRpcMethod, params: unknown): unknown {
  const parsed = method.params.safeParse(namedParams(method, params));
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  throw new InvalidParamsError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}
