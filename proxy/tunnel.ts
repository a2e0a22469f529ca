import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Opens the outbound connection of a passthrough tunnel. The only place the proxy ever reaches
 * beyond the machine, and only for the catalog's passthrough hosts; injectable so tests can
 * point it at loopback.
 */
export type Connector = (host: string, port: number) => Socket;

export const connectToInternet: Connector = (host, port) => connect({ host, port });

/**
 * Pipes `client` to `host:port` raw (nothing decrypted, nothing journaled). `first` is data the
 * client already sent; `onOpen` runs once the outbound connection is up (to answer CONNECT),
 * `onFail` if it cannot be opened.
 */
export function openTunnel(client: Duplex, connector: Connector, host: string, port: number,
  handlers: { first?: Buffer; onOpen?: () => void; onFail: (error: Error) => void }): void {
  client.pause(); // until the outbound side is up; pipe() resumes it
  const upstream = connector(host, port);
  let open = false;
  upstream.once('connect', () => {
    open = true;
    handlers.onOpen?.();
    if (handlers.first && handlers.first.length > 0) upstream.write(handlers.first);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  upstream.on('error', (error) => {
    if (!open) handlers.onFail(error);
    else client.destroy();
  });
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}
