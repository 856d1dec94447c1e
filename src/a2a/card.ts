/**
 * The Agent Card (A2A 1.0 §4.4, a2a.proto AgentCard) plus the agent seed's optional chain fields: top-level
 * `protocolVersion`, `capabilities.chainOnChainSettlement`, `skills[].chainBaseCost`, `chainIdentity`, and the
 * `chainSignatureSecurityScheme` member of `securitySchemes`. Each chain field is omitted when absent so that a
 * plain A2A client never sees it. The chain extension is also declared in `capabilities.extensions` under a
 * versioned URI, which is how A2A 1.0 clients discover and activate it (A2A-Extensions header).
 */
import { blake3 } from '../crypto/blake3.ts';
import { toHex } from '../util/bytes.ts';
import type { A2aAuthConfig } from './auth.ts';
import { cardSignerNames } from './chain-signature.ts';
import type { JsonObject } from './types.ts';

export const a2aProtocolVersion = '1.0';
/** The chain extension (docs/a2a.md "Chain extension"). A breaking change gets a new version segment. */
export const chainExtensionUri = 'https://weft.dev/a2a/extensions/chain/v1';

export interface AgentInterface {
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
  /** Chain extension: the base cost of the skill in base units (integer). */
  readonly chainBaseCost?: number;
}

export interface AgentExtension {
  readonly uri: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly params?: JsonObject;
}

export interface AgentCapabilities {
  readonly streaming?: boolean;
  readonly pushNotifications?: boolean;
  readonly extendedAgentCard?: boolean;
  readonly extensions?: readonly AgentExtension[];
  readonly chainOnChainSettlement?: boolean;
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
  readonly protocolVersion?: string;
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
  readonly chainIdentity?: ChainIdentity;
  readonly signatures?: readonly AgentCardSignature[];
}

export interface CardOptions {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  /** JSON-RPC endpoint URL, HTTP+JSON base URL, gRPC target (host:port); an absent one is not advertised. */
  readonly jsonRpcUrl?: string;
  readonly restUrl?: string;
  readonly grpcUrl?: string;
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

/** securitySchemes (1.0 oneof-by-member form) and the requirement list: any one scheme suffices. */
export function securityOf(auth: A2aAuthConfig): Pick<AgentCard, 'securitySchemes' | 'securityRequirements'> {
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
  if (auth.mtls) schemes.mtls = { mtlsSecurityScheme: { description: 'client certificate on the TLS port' } };
  if (auth.chainSignature) {
    schemes.chainSignature = {
      chainSignatureSecurityScheme: { chainId: auth.chainSignature.chainId, allowedSigners: auth.chainSignature.allowedSigners.map((s) => cardSignerNames[s]) },
    };
  }
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
  const extensions: AgentExtension[] = o.chain
    ? [
        {
          uri: chainExtensionUri,
          description: 'Weft chain extension: chain-signature auth, agent identity, on-chain settlement metadata (metadata.chainSettlement)',
          required: o.chain.extensionRequired ?? false,
          params: { chainId: o.chain.chainId, network: o.chain.network },
        },
      ]
    : [];
  return compactObject({
    protocolVersion: a2aProtocolVersion,
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
      chainOnChainSettlement: o.chain?.onChainSettlement,
    }),
    ...securityOf(o.auth),
    defaultInputModes: o.defaultInputModes,
    defaultOutputModes: o.defaultOutputModes,
    skills: o.skills,
    chainIdentity: o.chain?.identity,
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
