// mongodb-mcp-server's @mongodb-js/mcp-fetch builds node-fetch `Request`s and hands them to the
// fetch of @mongodb-js/devtools-proxy-support. A standalone install hoists one node-fetch 3 for
// both; in toolbench's node_modules the hoisted node-fetch is 2.x (other servers need it), so npm
// nests a separate node-fetch 3.3.2 under each package, and the fetch rejects the other copy's
// Request ("Invalid URL": brand checks are per copy). This loader resolves mcp-fetch's `node-fetch`
// from devtools-proxy-support, as the hoisted layout does; the server itself runs unmodified.
import { register } from 'node:module';

register(new URL('./mongodb-node-fetch-hooks.mjs', import.meta.url));
