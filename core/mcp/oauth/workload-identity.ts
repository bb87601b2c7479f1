import { readFile } from 'node:fs/promises';
import { CrossAppAccessProvider, type OAuthClientInformationMixed } from '@modelcontextprotocol/client';
import type { SecretRegistry } from '../../logging/secrets.js';

/** Where a workload's identity token comes from: the value itself, or a file its platform keeps fresh. */
export interface WorkloadToken {
  value?: string;
  file?: string;
}

/** The SDK's JWT bearer client always sends a secret; a public client (the usual workload) has none. */
class PublicJwtBearerClient extends CrossAppAccessProvider {
  override clientInformation(): OAuthClientInformationMixed {
    const { client_secret: _none, ...client } = super.clientInformation();
    return client;
  }
}

/**
 * Workload identity federation (RFC 7523 JWT bearer): a machine with an identity token from its platform
 * (Kubernetes, a CI runner, a cloud) hands that token to the server's authorization server for an access token,
 * with no person and no stored secret. The token file is read at each sign-in, since platforms rotate it.
 */
export function workloadIdentityProvider(
  clientId: string,
  clientSecret: string | undefined,
  token: WorkloadToken,
  secrets?: SecretRegistry,
): CrossAppAccessProvider {
  const assertion = async () => {
    const value = token.value ?? (await readFile(token.file ?? '', 'utf8')).trim();
    secrets?.add([value]);
    return value;
  };
  const options = { clientId, clientSecret: clientSecret ?? '', clientName: 'hac', assertion };
  return clientSecret === undefined
    ? new PublicJwtBearerClient(options)
    : new CrossAppAccessProvider(options);
}
