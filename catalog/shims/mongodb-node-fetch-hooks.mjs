// Resolve hook for mongodb-node-fetch.mjs: `node-fetch` imported by @mongodb-js/mcp-fetch is
// resolved as devtools-proxy-support's own import of it (one copy, as in a hoisted install).
const FROM = '/@mongodb-js/mcp-fetch/';
const TO = '/@mongodb-js/devtools-proxy-support/';

export async function resolve(specifier, context, next) {
  if (specifier === 'node-fetch' && context.parentURL?.includes(FROM)) {
    return next(specifier, { ...context, parentURL: context.parentURL.replace(FROM, TO) });
  }
  return next(specifier, context);
}
