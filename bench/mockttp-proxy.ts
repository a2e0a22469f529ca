/**
 * mockttp as a recording HTTPS-intercepting proxy, in a process of its own (forked by
 * bench/run.ts): it answers CONNECT, terminates TLS with a leaf from its own CA, records every
 * request (`recordTraffic`, its default) and forwards it to the world's plain GitHub port.
 *
 *   fork('bench/mockttp-proxy.ts', [worldUrl]) → message {port, ca}
 */
import { generateCACertificate, getLocal } from 'mockttp';

const worldUrl = process.argv[2];
if (!worldUrl) throw new Error('usage: mockttp-proxy.ts WORLD_URL');

const ca = await generateCACertificate({ bits: 2048 });
const server = getLocal({ https: { key: ca.key, cert: ca.cert }, recordTraffic: true });
await server.start({ startPort: 20000, endPort: 60000 });
await server.forAnyRequest().thenForwardTo(worldUrl);
process.send?.({ port: server.port, ca: ca.cert });
process.on('disconnect', () => {
  server.stop().finally(() => process.exit(0));
});
