/**
 * `weft apikey create|list|revoke` and `weft oauth client create|list|delete` (docs/auth.md "Managing keys and
 * clients"). They open the node's auth store at `<datadir>/auth` directly — LMDB allows a second process, so this works
 * while the node runs and takes effect on its next request. The datadir comes from --network / --datadir / --config
 * exactly as for `weft node`.
 */
import { loadConfig } from '../config.ts';
import { parseScopes, scopes as allScopes, type Scope } from '../../src/auth/scopes.ts';
import { systemClock } from '../../src/util/clock.ts';
import { WeftError } from '../../src/errors.ts';
import { createApiKeyStore, type ApiKeyInfo } from './api-keys.ts';
import { openAuthStore } from './access-control.ts';
import { createOAuthClientStore } from './oauth-clients.ts';

export const apikeyUsage = `usage: weft apikey create --scopes SCOPES [--label TEXT] [--require-signature] [--network N] [--datadir DIR]
       weft apikey list [--json] [--network N] [--datadir DIR]
       weft apikey revoke ID [--network N] [--datadir DIR]
       SCOPES: comma- or space-separated, of ${allScopes.join(', ')}`;

export const oauthUsage = `usage: weft oauth client create --redirect-uri URI [--redirect-uri URI ...] --scopes SCOPES [--name TEXT] [--public]
                                [--network N] [--datadir DIR]
       weft oauth client list [--json] [--network N] [--datadir DIR]
       weft oauth client delete ID [--network N] [--datadir DIR]`;

class UsageError extends WeftError {
  constructor(message: string) {
    super('config', message);
  }
}

interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string[]>;
  readonly nodeArgs: string[];
}

const booleanFlags = new Set(['require-signature', 'public', 'json']);
const nodeFlags = new Set(['network', 'datadir', 'config']);

function parse(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  const nodeArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const value = eq !== -1 ? arg.slice(eq + 1) : booleanFlags.has(name) ? 'true' : argv[++i];
    if (value === undefined) throw new UsageError(`option --${name} needs a value`);
    if (nodeFlags.has(name)) nodeArgs.push(`--${name}`, value);
    else flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positional, flags, nodeArgs };
}

function one(p: Parsed, name: string): string | undefined {
  return p.flags.get(name)?.at(-1);
}

function scopesFlag(p: Parsed): Scope[] {
  const text = p.flags.get('scopes')?.join(',');
  if (text === undefined) throw new UsageError('--scopes is required');
  try {
    return parseScopes(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function checkKnown(p: Parsed, known: readonly string[]): void {
  for (const name of p.flags.keys()) if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
}

const describeKey = (k: ApiKeyInfo): string =>
  `${k.id}  ${k.revokedAtMs === null ? 'active ' : 'revoked'}  ${new Date(k.createdAtMs).toISOString()}  ${k.scopes.join(',') || '-'}${k.admin ? '  admin' : ''}${k.requireSignature ? '  signed' : ''}  ${k.label}`;

async function withStore<T>(p: Parsed, run: (kv: ReturnType<typeof openAuthStore>) => Promise<T>): Promise<T> {
  const config = loadConfig(p.nodeArgs);
  const kv = openAuthStore(config.datadir);
  try {
    return await run(kv);
  } finally {
    await kv.close();
  }
}

async function apikey(argv: readonly string[], out: (text: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  const p = parse(rest);
  if (sub === 'create') {
    checkKnown(p, ['scopes', 'label', 'require-signature']);
    const scopes = scopesFlag(p);
    return withStore(p, async (kv) => {
      const { key, info } = await createApiKeyStore(kv, systemClock).create({ label: one(p, 'label') ?? '', scopes, requireSignature: one(p, 'require-signature') === 'true' });
      out(`${key}\n`);
      out(`# id ${info.id}, scopes ${info.scopes.join(',')}${info.requireSignature ? ', requests must be signed' : ''}. Shown once: the node keeps only its hash.\n`);
      return 0;
    });
  }
  if (sub === 'list') {
    checkKnown(p, ['json']);
    return withStore(p, async (kv) => {
      const keys = createApiKeyStore(kv, systemClock).list();
      out(one(p, 'json') ? `${JSON.stringify(keys, null, 2)}\n` : keys.map((k) => `${describeKey(k)}\n`).join(''));
      return 0;
    });
  }
  if (sub === 'revoke') {
    checkKnown(p, []);
    const id = p.positional[0];
    if (id === undefined) throw new UsageError('revoke needs the key id (see `weft apikey list`)');
    return withStore(p, async (kv) => {
      if (!(await createApiKeyStore(kv, systemClock).revoke(id))) throw new UsageError(`no API key with id ${id}`);
      out(`revoked ${id}\n`);
      return 0;
    });
  }
  throw new UsageError(apikeyUsage);
}

async function oauth(argv: readonly string[], out: (text: string) => void): Promise<number> {
  const [noun, sub, ...rest] = argv;
  if (noun !== 'client') throw new UsageError(oauthUsage);
  const p = parse(rest);
  if (sub === 'create') {
    checkKnown(p, ['redirect-uri', 'scopes', 'name', 'public']);
    const scopes = scopesFlag(p);
    return withStore(p, async (kv) => {
      const { info, secret } = await createOAuthClientStore(kv, systemClock).create({ name: one(p, 'name') ?? 'OAuth client', redirectUris: p.flags.get('redirect-uri') ?? [], scopes, public: one(p, 'public') === 'true' });
      out(`client_id=${info.id}\n`);
      if (secret !== null) out(`client_secret=${secret}\n# The secret is shown once: the node keeps only its hash.\n`);
      else out('# A public client: no secret, PKCE (S256) required.\n');
      return 0;
    });
  }
  if (sub === 'list') {
    checkKnown(p, ['json']);
    return withStore(p, async (kv) => {
      const clients = createOAuthClientStore(kv, systemClock).list();
      out(one(p, 'json') ? `${JSON.stringify(clients, null, 2)}\n` : clients.map((c) => `${c.id}  ${c.public ? 'public      ' : 'confidential'}  ${c.scopes.join(',')}  ${c.redirectUris.join(' ')}  ${c.name}\n`).join(''));
      return 0;
    });
  }
  if (sub === 'delete') {
    checkKnown(p, []);
    const id = p.positional[0];
    if (id === undefined) throw new UsageError('delete needs the client id');
    return withStore(p, async (kv) => {
      if (!(await createOAuthClientStore(kv, systemClock).delete(id))) throw new UsageError(`no OAuth client with id ${id}`);
      out(`deleted ${id}\n`);
      return 0;
    });
  }
  throw new UsageError(oauthUsage);
}

/** Runs `weft apikey ...` or `weft oauth ...`; usage and configuration errors exit 2 (the CLI's convention). */
export async function runAuthCommand(command: 'apikey' | 'oauth', argv: readonly string[], io: { out: (t: string) => void; err: (t: string) => void }): Promise<number> {
  try {
    return command === 'apikey' ? await apikey(argv, io.out) : await oauth(argv, io.out);
  } catch (error) {
    if (error instanceof WeftError) {
      io.err(`weft ${command}: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
      return 2;
    }
    throw error;
  }
}
