/**
 * The Agent Card (A2A 1.0 §4.4, a2a.proto AgentCard). It validates against the A2A 1.0 schema, which allows no
 * fields of its own: the agent seed's chain fields — `protocolVersion`, `chainOnChainSettlement`, `chainIdentity`,
 * `chainBaseCost` per skill and the `chainSignatureSecurityScheme` — therefore live in the `params` of the chain
 * extension in `capabilities.extensions` (where A2A puts custom data, spec §4.6), under the seed's names, each omitted
 * when absent. The extension's versioned URI is how A2A 1.0 clients discover and activate it (A2A-Extensions).
 * docs/a2a.md "Agent Card".
 */
import { blake3 } from '../crypto/blake3.ts';
import { toHex } from '../util/bytes.ts';
import type { A2aAuthConfig } from './auth.ts';
import { cardSignerNames } from './chain-signature.ts';
import type { JsonObject } from './types.ts';

export const a2aProtocolVersion = '1.0';
/** The chain extension (docs/a2a.md "Chain extension"). A breaking change gets a new version segment. */
export const chainExtensionUri = 'https://weft.dev/a2a/extensions/chain/v1';

interface AgentInterface {
  readonly url: string;
  readonly protocolBinding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | string;
  readonly protocolVersion: string;
  readonly tenant?: string;
}

export interface AgentSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
  /**
   * Chain extension: the base cost of the skill in base units (integer). An input of buildAgentCard only: the card
   * carries it in the chain extension's `params.skills[] = {id, chainBaseCost}`, never on the skill itself.
   */
  readonly chainBaseCost?: number;
}

interface AgentExtension {
  readonly uri: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly params?: JsonObject;
}

interface AgentCapabilities {
  readonly streaming?: boolean;
  readonly pushNotifications?: boolean;
  readonly extendedAgentCard?: boolean;
  readonly extensions?: readonly AgentExtension[];
}

export interface ChainIdentity {
  readonly agentAccount: string;
  readonly controller: string;
  readonly reputationScoreBps?: number;
}

export interface AgentCardSignature {
  readonly protected: string;
  readonly signature: string;
  readonly header?: JsonObject;
}

export interface AgentCard {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly supportedInterfaces: readonly AgentInterface[];
  readonly provider?: { readonly url: string; readonly organization: string };
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly capabilities: AgentCapabilities;
  readonly securitySchemes?: Readonly<Record<string, JsonObject>>;
  readonly securityRequirements?: readonly { readonly schemes: Readonly<Record<string, { readonly list: readonly string[] }>> }[];
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  readonly skills: readonly AgentSkill[];
  readonly signatures?: readonly AgentCardSignature[];
}

/** The chain extension's `params` (docs/a2a.md "Agent Card"): the seed's chain card fields under their own names. */
interface ChainExtensionParams {
  readonly chainId: number;
  readonly network: string;
  /** The seed's top-level Agent Card `protocolVersion`. */
  readonly protocolVersion: string;
  /** The seed's `capabilities.chainOnChainSettlement`. */
  readonly chainOnChainSettlement?: boolean;
  /** The seed's `securitySchemes` member `chainSignatureSecurityScheme` (headers: docs/a2a.md "Chain signature"). */
  readonly chainSignatureSecurityScheme?: { readonly chainId: number; readonly allowedSigners: readonly string[] };
  readonly chainIdentity?: ChainIdentity;
  /** The seed's `skills[].chainBaseCost`, by skill id. */
  readonly skills?: readonly { readonly id: string; readonly chainBaseCost: number }[];
  /** Interfaces with security of their own (A2A 1.0's AgentInterface has no place for it): gRPC needs mutual TLS. */
  readonly interfaceSecurityRequirements?: readonly {
    readonly url: string;
    readonly protocolBinding: string;
    readonly securityRequirements: readonly { readonly schemes: Readonly<Record<string, { readonly list: readonly string[] }>> }[];
  }[];
}

export interface CardOptions {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  /** JSON-RPC endpoint URL, HTTP+JSON base URL, gRPC target (host:port); an absent one is not advertised. */
  readonly jsonRpcUrl?: string;
  readonly restUrl?: string;
  readonly grpcUrl?: string;
  /**
   * The gRPC interface accepts only mutually authenticated TLS (the node's gRPC port): the card declares the `mtls`
   * scheme for it and names it in the chain extension's `interfaceSecurityRequirements`.
   */
  readonly grpcMutualTls?: boolean;
  readonly provider?: { readonly url: string; readonly organization: string };
  readonly documentationUrl?: string;
  readonly streaming: boolean;
  readonly pushNotifications: boolean;
  readonly extendedAgentCard: boolean;
  readonly auth: A2aAuthConfig;
  readonly skills: readonly AgentSkill[];
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  readonly chain?: {
    readonly chainId: number;
    readonly network: string;
    readonly onChainSettlement?: boolean;
    readonly identity?: ChainIdentity;
    /** Mark the chain extension required (clients must list it in A2A-Extensions, else -32008). */
    readonly extensionRequired?: boolean;
  };
}

const compactObject = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The `mtls` scheme's description when the gRPC interface requires it. */
const grpcMtlsDescription = (grpcUrl: string) =>
  `mutual TLS: required on the GRPC interface ${grpcUrl} (a client certificate chained to the node's client CA); the HTTP interfaces do not use it`;

/**
 * securitySchemes (1.0 oneof-by-member form) and the requirement list: any one scheme suffices. The chain signature
 * is not an A2A 1.0 scheme type, so it is declared in the chain extension's params (chainExtensionParams), not here.
 */
function securityOf(auth: A2aAuthConfig, grpcMtlsUrl?: string): Pick<AgentCard, 'securitySchemes' | 'securityRequirements'> {
  const schemes: Record<string, JsonObject> = {};
  if (auth.apiKey) schemes.apiKey = { apiKeySecurityScheme: { location: auth.apiKey.location, name: auth.apiKey.name } };
  if (auth.bearer) schemes.bearer = { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } };
  if (auth.basic) schemes.basic = { httpAuthSecurityScheme: { scheme: 'Basic' } };
  if (auth.oauth) {
    const o = auth.oauth;
    schemes.oauth2 = {
      oauth2SecurityScheme: {
        flows: { authorizationCode: { authorizationUrl: o.authorizationUrl, tokenUrl: o.tokenUrl, refreshUrl: o.tokenUrl, scopes: o.scopes, pkceRequired: true } },
        oauth2MetadataUrl: o.metadataUrl,
      },
    };
  }
  if (auth.openIdConnectUrl) schemes.oidc = { openIdConnectSecurityScheme: { openIdConnectUrl: auth.openIdConnectUrl } };
  if (grpcMtlsUrl !== undefined) schemes.mtls = { mtlsSecurityScheme: { description: grpcMtlsDescription(grpcMtlsUrl) } };
  else if (auth.mtls) schemes.mtls = { mtlsSecurityScheme: { description: 'client certificate on the TLS port' } };
  const names = Object.keys(schemes);
  if (names.length === 0) return {};
  if (!auth.required) return { securitySchemes: schemes };
  return { securitySchemes: schemes, securityRequirements: names.map((n) => ({ schemes: { [n]: { list: n === 'oauth2' ? Object.keys(auth.oauth?.scopes ?? {}) : [] } } })) };
}

export function buildAgentCard(o: CardOptions): AgentCard {
  const interfaces: AgentInterface[] = [];
  if (o.jsonRpcUrl) interfaces.push({ url: o.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: a2aProtocolVersion });
  if (o.restUrl) interfaces.push({ url: o.restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: a2aProtocolVersion });
  if (o.grpcUrl) interfaces.push({ url: o.grpcUrl, protocolBinding: 'GRPC', protocolVersion: a2aProtocolVersion });
  const grpcMtlsUrl = o.grpcUrl && o.grpcMutualTls ? o.grpcUrl : undefined;
  const extensions: AgentExtension[] = o.chain
    ? [
        {
          uri: chainExtensionUri,
          description: 'Weft chain extension: chain-signature auth, agent identity, on-chain settlement metadata (metadata.chainSettlement)',
          required: o.chain.extensionRequired ?? false,
          params: chainExtensionParams(o, grpcMtlsUrl) as unknown as JsonObject,
        },
      ]
    : [];
  return compactObject({
    name: o.name,
    description: o.description,
    version: o.version,
    supportedInterfaces: interfaces,
    provider: o.provider,
    documentationUrl: o.documentationUrl,
    capabilities: compactObject({
      streaming: o.streaming,
      pushNotifications: o.pushNotifications,
      extendedAgentCard: o.extendedAgentCard,
      extensions: extensions.length > 0 ? extensions : undefined,
    }),
    ...securityOf(o.auth, grpcMtlsUrl),
    defaultInputModes: o.defaultInputModes,
    defaultOutputModes: o.defaultOutputModes,
    skills: o.skills.map(({ chainBaseCost: _cost, ...skill }) => skill),
  });
}

/** The chain extension's params: the seed's chain fields, each omitted when absent. */
function chainExtensionParams(o: CardOptions, grpcMtlsUrl?: string): ChainExtensionParams {
  const chain = o.chain!;
  const signature = o.auth.chainSignature;
  const costs = o.skills.filter((s) => s.chainBaseCost !== undefined).map((s) => ({ id: s.id, chainBaseCost: s.chainBaseCost! }));
  return compactObject({
    chainId: chain.chainId,
    network: chain.network,
    protocolVersion: a2aProtocolVersion,
    chainOnChainSettlement: chain.onChainSettlement,
    chainSignatureSecurityScheme: signature
      ? { chainId: signature.chainId, allowedSigners: signature.allowedSigners.map((s) => cardSignerNames[s]) }
      : undefined,
    chainIdentity: chain.identity,
    skills: costs.length > 0 ? costs : undefined,
    interfaceSecurityRequirements: grpcMtlsUrl === undefined
      ? undefined
      : [{ url: grpcMtlsUrl, protocolBinding: 'GRPC', securityRequirements: [{ schemes: { mtls: { list: [] } } }] }],
  });
}

/** RFC 8785 (JCS) canonical JSON: keys sorted by UTF-16 code units, ECMAScript number and string forms. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as JsonObject)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** A strong ETag over the canonical card (A2A 1.0 §8.6 caching). */
export function cardEtag(card: AgentCard): string {
  return `"${toHex(blake3(new TextEncoder().encode(canonicalJson(card)))).slice(0, 32)}"`;
}
