/**
 * Cloud instance-metadata endpoints. Cloud SDKs and telemetry libraries probe them at startup to
 * learn whether they run in a cloud (and for credentials). Offline they would wait for a
 * connection timeout; the proxy refuses them at once with a 404 and journals them as blocked.
 */
export const CLOUD_METADATA_HOSTS: readonly string[] = [
  '169.254.169.254', // AWS, Azure, GCP, DigitalOcean, Oracle, OpenStack IMDS
  '[fd00:ec2::254]', // AWS IMDS over IPv6
  '169.254.170.2', // AWS ECS task metadata and credentials
  '100.100.100.200', // Alibaba Cloud
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data', // AWS's old name for the IMDS
  'instance-data.ec2.internal',
  'metadata.azure.com',
];

const METADATA = new Set(CLOUD_METADATA_HOSTS);

/** Whether `host` (lower case, no port; IPv6 in brackets) is a cloud-metadata endpoint. */
export function isCloudMetadataHost(host: string): boolean {
  return METADATA.has(host) || METADATA.has(`[${host}]`);
}
