/**
 * What `toolbench export --har` hides by default, as data. Bodies are not rewritten (they are
 * exported byte for byte); headers and query parameters that carry credentials are.
 */
export const REDACTED = 'REDACTED';

/** Headers whose whole value is a credential (an `Authorization` keeps its scheme). */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/** Any other header whose name says it holds one: `X-Api-Key`, `DD-API-KEY`, `X-Shopify-Access-Token`, `Private-Token`. */
export const SECRET_HEADER_NAME = /(^|[-_])(token|api-?key|apikey|secret|password|session|signature)($|[-_])/i;

/** Query parameters that carry credentials: `access_token`, `api_key`, `client_secret`, `sig`, … */
export const SECRET_QUERY_NAME = /^(access_?token|refresh_?token|id_?token|token|api_?key|apikey|key|secret|client_?secret|password|passwd|auth|sig|signature|code|session|x-amz-(security-token|signature|credential))$|(_token|_key|_secret|_password)$/i;

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.includes(lower) || SECRET_HEADER_NAME.test(lower);
}

/** The header's value with its secret part replaced; cookie names and attributes stay. */
export function redactHeaderValue(name: string, value: string): string {
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization': {
      const scheme = /^([A-Za-z][A-Za-z0-9-]*)\s+\S/.exec(value);
      return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
    }
    case 'cookie':
      return value.split(';').map((pair) => redactPair(pair.trim())).join('; ');
    case 'set-cookie': {
      const [first, ...attributes] = value.split(';');
      return [redactPair(first!.trim()), ...attributes.map((a) => a.trim())].join('; ');
    }
    default:
      return REDACTED;
  }
}

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  return eq === -1 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
}

export function isSecretQueryParam(name: string): boolean {
  return SECRET_QUERY_NAME.test(name);
}

/** The target with secret query values replaced; everything else keeps its exact bytes. */
export function redactTarget(target: string): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const hash = target.indexOf('#', q);
  const query = target.slice(q + 1, hash === -1 ? undefined : hash);
  const redacted = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = safeDecode(eq === -1 ? part : part.slice(0, eq));
    return eq !== -1 && isSecretQueryParam(name) ? `${part.slice(0, eq)}=${REDACTED}` : part;
  }).join('&');
  return target.slice(0, q + 1) + redacted + (hash === -1 ? '' : target.slice(hash));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
