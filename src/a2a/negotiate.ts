/**
 * Service parameters (A2A 1.0 §3.2.6): `A2A-Version` and `A2A-Extensions`. A missing or empty version means 0.3
 * (spec §3.2.6), which this agent does not serve: -32009 unless the endpoint runs lenient, where a missing header
 * is read as 1.0 for curl-style clients. Patch versions never matter ("1.0.1" is "1.0"). Extensions the client
 * lists that the card declares are activated (and echoed back); a required one left out gives -32008.
 */
import { A2aError } from './errors.ts';
import { a2aProtocolVersion, type AgentCard } from './card.ts';

export interface Negotiated {
  readonly version: string;
  /** Extension URIs the client asked for and the card declares. */
  readonly extensions: readonly string[];
}

export function negotiate(card: AgentCard, versionHeader: string | undefined, extensionsHeader: string | undefined, lenient: boolean): Negotiated {
  const raw = versionHeader?.trim() ?? '';
  const version = raw === '' ? (lenient ? a2aProtocolVersion : '0.3') : raw.split('.').slice(0, 2).join('.');
  if (version !== a2aProtocolVersion) {
    throw new A2aError('version_not_supported', `A2A-Version ${raw || '(none, read as 0.3)'}: not supported; this agent speaks ${a2aProtocolVersion}`, {
      requestedVersion: raw,
      supportedVersions: a2aProtocolVersion,
    });
  }
  const requested = (extensionsHeader ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const declared = card.capabilities.extensions ?? [];
  const missing = declared.filter((e) => e.required && !requested.includes(e.uri));
  if (missing.length > 0) {
    throw new A2aError('extension_support_required', `extension required: list ${missing.map((e) => e.uri).join(', ')} in A2A-Extensions`, {
      extensions: missing.map((e) => e.uri).join(','),
    });
  }
  return { version, extensions: requested.filter((uri) => declared.some((e) => e.uri === uri)) };
}
