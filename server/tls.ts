/**
 * TLS material for the node's encrypted ports (docs/design.md "Node APIs and access"): HTTPS on 8443 with TLS 1.3 only (the seed's port
 * table), and mutual TLS for gRPC on 8082. Files are PEM; a missing or unreadable file is a ConfigError naming it.
 */
import { readFileSync } from 'node:fs';
import type { SecureContextOptions } from 'node:tls';
import { ConfigError, type NodeConfig } from './config.ts';

export interface TlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** CA bundle client certificates must chain to (gRPC mutual TLS); absent: HTTPS only. */
  readonly clientCa: Buffer | undefined;
}

function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (cause) {
    throw new ConfigError(`cannot read ${what} '${path}': ${(cause as Error).message}`);
  }
}

/** The configured material, or undefined when --tls-cert/--tls-key are not both given. */
export function loadTlsMaterial(config: Pick<NodeConfig, 'tlsCert' | 'tlsKey' | 'tlsClientCa'>): TlsMaterial | undefined {
  if (config.tlsCert === undefined && config.tlsKey === undefined) {
    if (config.tlsClientCa !== undefined) throw new ConfigError('--tls-client-ca needs --tls-cert and --tls-key');
    return undefined;
  }
  if (config.tlsCert === undefined || config.tlsKey === undefined) throw new ConfigError('--tls-cert and --tls-key go together');
  return {
    cert: readPem(config.tlsCert, 'TLS certificate'),
    key: readPem(config.tlsKey, 'TLS key'),
    clientCa: config.tlsClientCa === undefined ? undefined : readPem(config.tlsClientCa, 'TLS client CA'),
  };
}

/** HTTPS server options: TLS 1.3 only (RFC 8446), as the seed's port table says. */
export function httpsServerOptions(material: TlsMaterial): SecureContextOptions & { minVersion: 'TLSv1.3'; maxVersion: 'TLSv1.3' } {
  return { cert: material.cert, key: material.key, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' };
}
