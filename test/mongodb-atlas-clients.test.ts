import test from 'ava';
import { startStack, type Stack } from '../catalog/stack.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { atlasSpec } from '../mocks/mongodb-atlas/fallback.js';
import type { OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';

// MongoDB Atlas has no official JavaScript SDK in node_modules (the real mongodb-mcp-server is
// driven over MCP by the conformance suite and the scenarios): clients nobody here wrote drive
// the mock through the proxy instead. Python's urllib exchanges a service account's client
// credentials for a token at /api/oauth/token, then lists, creates and deletes through the Admin
// API; curl checks the versioned media types; every answer is validated against Atlas's OpenAPI
// description (mocks/mongodb-atlas/spec). And the 429 fault.

const CLIENT_ID = 'mdb_sa_id_conformance000000000000';
const CLIENT_SECRET = 'mdb_sa_sk_conformance_00000000000000000000000000';
const PROD = '65b2a1c3d4e5f60718293a01';
const SANDBOX = '65b2a1c3d4e5f60718293a05';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/mongodb-atlas/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['atlas-py', 'atlas-curl'] });
});
test.after.always(async () => {
  await stack?.close();
});

const PY = `
import base64, json, os, urllib.request, urllib.error, urllib.parse
BASE = "https://cloud.mongodb.com"
basic = base64.b64encode((os.environ["ID"] + ":" + os.environ["SECRET"]).encode()).decode()
req = urllib.request.Request(BASE + "/api/oauth/token", data=b"grant_type=client_credentials", method="POST",
    headers={"Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"})
with urllib.request.urlopen(req) as r: token = json.loads(r.read())
out = {"token": [token["token_type"], token["expires_in"], len(token["access_token"]) > 20]}
bodies = []
def call(method, path, body=None, accept="application/vnd.atlas.2025-03-12+json", auth=True):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": accept, "Content-Type": "application/json"}
    if auth: headers["Authorization"] = "Bearer " + token["access_token"]
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            raw = r.read()
            parsed = json.loads(raw) if raw else None
            bodies.append([method, path, r.status, r.headers.get("Content-Type"), parsed])
            return r.status, parsed
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read())
_, orgs = call("GET", "/api/atlas/v2/orgs")
out["orgs"] = [o["name"] for o in orgs["results"]]
_, projects = call("GET", "/api/atlas/v2/orgs/" + orgs["results"][0]["id"] + "/groups?itemsPerPage=2&pageNum=2")
out["page2"] = [[p["name"] for p in projects["results"]], projects["totalCount"], [l["rel"] for l in projects["links"]]]
_, clusters = call("GET", "/api/atlas/v2/groups/${PROD}/clusters")
out["clusters"] = [[c["name"], c["replicationSpecs"][0]["regionConfigs"][0]["electableSpecs"]["instanceSize"], c["stateName"]] for c in clusters["results"]]
status, added = call("POST", "/api/atlas/v2/groups/${SANDBOX}/accessList", [{"cidrBlock": "192.0.2.0/24", "comment": "urllib"}])
out["added"] = [status, sorted(e["cidrBlock"] for e in added["results"])]
out["deleted"] = call("DELETE", "/api/atlas/v2/groups/${SANDBOX}/accessList/" + urllib.parse.quote("192.0.2.0/24", safe=""))[0]
out["gone"] = call("GET", "/api/atlas/v2/groups/${SANDBOX}/accessList/" + urllib.parse.quote("192.0.2.0/24", safe=""))
out["user"] = call("POST", "/api/atlas/v2/groups/${PROD}/databaseUsers", {"username": "py-reader", "databaseName": "admin", "password": "pw-123456", "roles": [{"roleName": "read", "databaseName": "reports"}]})
out["duplicate"] = call("POST", "/api/atlas/v2/groups/${PROD}/databaseUsers", {"username": "py-reader", "databaseName": "admin", "password": "pw-123456", "roles": [{"roleName": "read", "databaseName": "reports"}]})
out["paused"] = call("PATCH", "/api/atlas/v2/groups/${PROD}/clusters/payments-reporting", {"paused": True})[1]["paused"]
out["pause_again"] = call("PATCH", "/api/atlas/v2/groups/${PROD}/clusters/payments-reporting", {"paused": True})
out["missing_group"] = call("GET", "/api/atlas/v2/groups/65b2a1c3d4e5f60718293aff")
out["old_version"] = call("GET", "/api/atlas/v2/groups/${PROD}/clusters", accept="application/vnd.atlas.2023-02-01+json")
out["anonymous"] = call("GET", "/api/atlas/v2/orgs", auth=False)
out["bad_secret"] = None
try:
    urllib.request.urlopen(urllib.request.Request(BASE + "/api/oauth/token", data=b"grant_type=client_credentials", method="POST",
        headers={"Authorization": "Basic " + base64.b64encode(b"mdb_sa_id_conformance000000000000:nope").decode(), "Content-Type": "application/x-www-form-urlencoded"}))
except urllib.error.HTTPError as e: out["bad_secret"] = [e.code, json.loads(e.read())]
out["bodies"] = bodies
print(json.dumps(out))
`;

/**
 * The spec with each answer's one versioned media type read as JSON, for the validator, and its
 * patterns' `\\:` escapes (fine in Java's regexes, invalid in a JavaScript `u` regex) as `:`.
 */
function asJsonSpec(spec: OpenApiDocument): OpenApiDocument {
  return JSON.parse(JSON.stringify(spec)
    .replace(/"application\/vnd\.atlas\.\d{4}-\d{2}-\d{2}\+json"/g, '"application/json"')
    .replaceAll('\\\\:', ':')) as OpenApiDocument;
}

const OPERATIONS: Record<string, string> = {
  'GET /api/atlas/v2/orgs': 'listOrgs', 'GET /api/atlas/v2/orgs/:id/groups': 'getOrgGroups', 'GET /api/atlas/v2/groups/:id/clusters': 'listClusters',
  'POST /api/atlas/v2/groups/:id/accessList': 'createAccessListEntry', 'POST /api/atlas/v2/groups/:id/databaseUsers': 'createDatabaseUser',
  'PATCH /api/atlas/v2/groups/:id/clusters/:name': 'updateCluster',
};

test('Python urllib through the proxy: a client-credentials token, then orgs, a second page of projects, clusters, an access list entry added and removed, a user, a pause; Atlas\'s errors; answers valid against the OpenAPI', async (t) => {
  const result = await run('python3', ['-c', PY], { HTTPS_PROXY: stack.proxy!.proxy.urlFor('atlas-py'), SSL_CERT_FILE: stack.caPath!, ID: CLIENT_ID, SECRET: CLIENT_SECRET });
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.token, ['Bearer', 3600, true]);
  t.deepEqual(out.orgs, ['acme-corp', 'acme-labs']);
  t.deepEqual(out.page2, [['payments-prod-eu', 'analytics'], 5, ['previous', 'self', 'next']]);
  t.deepEqual(out.clusters, [['payments-main', 'M40', 'IDLE'], ['payments-reporting', 'M30', 'IDLE']]);
  t.deepEqual(out.added, [201, ['0.0.0.0/0', '192.0.2.0/24']]);
  t.is(out.deleted, 204);
  t.deepEqual(out.gone, [404, { detail: `IP address 192.0.2.0/24 not on Atlas access list for group ${SANDBOX}.`, error: 404, errorCode: 'ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND', parameters: ['192.0.2.0/24', SANDBOX], reason: 'Not Found' }]);
  t.is(out.user[0], 201);
  t.false('password' in out.user[1], 'the password is never answered');
  t.deepEqual(out.duplicate, [409, { detail: 'The specified user already exists.', error: 409, errorCode: 'USER_ALREADY_EXISTS', parameters: [], reason: 'Conflict' }]);
  t.true(out.paused);
  t.like(out.pause_again, [409, { errorCode: 'CANNOT_UPDATE_PAUSED_CLUSTER' }]);
  t.like(out.missing_group, [404, { errorCode: 'GROUP_NOT_FOUND', parameters: ['65b2a1c3d4e5f60718293aff'] }]);
  t.like(out.old_version, [406, { errorCode: 'INVALID_VERSION_DATE', reason: 'Not Acceptable' }]);
  t.like(out.anonymous, [401, { errorCode: 'UNAUTHORIZED', detail: 'You are not authorized for this resource.' }]);
  t.deepEqual(out.bad_secret, [401, { error: 'invalid_client', error_description: 'Invalid client credentials.' }]);

  const validate = specValidator(asJsonSpec(atlasSpec));
  for (const [method, path, status, contentType, body] of out.bodies as [string, string, number, string, unknown][]) {
    const template = path.split('?')[0]!.replace(/\/groups\/[0-9a-f]{24}/, '/groups/:id').replace(/\/orgs\/[0-9a-f]{24}/, '/orgs/:id').replace(/\/clusters\/[^/]+$/, '/clusters/:name');
    const operation = OPERATIONS[`${method} ${template}`];
    if (!operation) continue;
    t.regex(contentType, /^application\/vnd\.atlas\.\d{4}-\d{2}-\d{2}\+json/, `${method} ${path}: a versioned media type`);
    t.is(validate(operation, body), null, `${method} ${path} (${status}) against ${operation}`);
  }
});

const DIGEST_PY = `
import json, os, urllib.request, urllib.error
mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
mgr.add_password(None, "https://cloud.mongodb.com/", os.environ["PUB"], os.environ["PRIV"])
opener = urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(mgr))
def get(path, o=opener):
    req = urllib.request.Request("https://cloud.mongodb.com" + path, headers={"Accept": "application/vnd.atlas.2025-03-12+json"})
    try:
        with o.open(req) as r: return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        body = e.read()
        return e.code, e.headers.get("WWW-Authenticate"), json.loads(body) if body else None
out = {}
status, groups = get("/api/atlas/v2/groups?itemsPerPage=1")
out["groups"] = [status, groups["results"][0]["name"], groups["totalCount"]]
out["cluster"] = get("/api/atlas/v2/groups/${PROD}/clusters/payments-main")[1]["stateName"]
wrong = urllib.request.HTTPPasswordMgrWithDefaultRealm()
wrong.add_password(None, "https://cloud.mongodb.com/", os.environ["PUB"], "not-the-key")
out["wrong"] = get("/api/atlas/v2/groups", urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(wrong)))
print(json.dumps(out))
`;

test('Python urllib with a programmatic API key: HTTP Digest (the 401 challenge, then the signed request), and a wrong private key refused', async (t) => {
  const result = await run('python3', ['-c', DIGEST_PY], { HTTPS_PROXY: stack.proxy!.proxy.urlFor('atlas-py'), SSL_CERT_FILE: stack.caPath!, PUB: 'qzjvbwpe', PRIV: '7c6e0d4a-1b2f-4e8a-9c3d-5f6a7b8c9d0e' });
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.groups, [200, 'payments-prod', 6]);
  t.is(out.cluster, 'IDLE');
  t.is(out.wrong[0], 401);
  t.regex(out.wrong[1], /^Digest realm="MMS Public API", domain="", nonce="\d+\.[0-9a-f]{32}", algorithm=MD5, qop="auth", stale=false$/);
});

test('curl through the proxy: the token with -u, a versioned Accept answered with the resource\'s own version (clusters 2024-08-05, orgs 2023-01-01), and --digest with an API key', async (t) => {
  const env = { HTTPS_PROXY: stack.proxy!.proxy.urlFor('atlas-curl') };
  const token = await run('curl', ['-sS', '--cacert', stack.caPath!, '-u', `${CLIENT_ID}:${CLIENT_SECRET}`, '-d', 'grant_type=client_credentials', 'https://cloud.mongodb.com/api/oauth/token'], env);
  const accessToken = (JSON.parse(token.stdout) as { access_token: string }).access_token;
  const head = (path: string) => run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{content_type}', '--cacert', stack.caPath!, '-H', `Authorization: Bearer ${accessToken}`,
    '-H', 'Accept: application/vnd.atlas.2025-03-12+json', `https://cloud.mongodb.com${path}`], env);
  t.is((await head(`/api/atlas/v2/groups/${PROD}/clusters`)).stdout, '200 application/vnd.atlas.2024-08-05+json;charset=utf-8');
  t.is((await head('/api/atlas/v2/orgs')).stdout, '200 application/vnd.atlas.2023-01-01+json;charset=utf-8');
  t.is((await head(`/api/atlas/v2/groups/${SANDBOX}/flexClusters`)).stdout, '200 application/vnd.atlas.2024-11-13+json;charset=utf-8');
  // A programmatic API key with curl's own HTTP Digest.
  const digest = await run('curl', ['-sS', '--cacert', stack.caPath!, '--digest', '-u', 'qzjvbwpe:7c6e0d4a-1b2f-4e8a-9c3d-5f6a7b8c9d0e', '-H', 'Accept: application/vnd.atlas.2025-03-12+json',
    `https://cloud.mongodb.com/api/atlas/v2/groups/${PROD}`], env);
  t.like(JSON.parse(digest.stdout), { id: PROD, name: 'payments-prod', clusterCount: 2 });
});

test('an injected 429 is Atlas\'s RATE_LIMITED envelope with Retry-After and RateLimit headers', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/mongodb-atlas/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ operation: 'listClusters', kind: '429', nth: [1], retry_after: 7 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const url = `${new URL(listening.services['mongodb-atlas']!.url).origin}/api/atlas/v2/groups/${PROD}/clusters`;
    const headers = { Authorization: 'Bearer mdb-conformance-access-token', Accept: 'application/vnd.atlas.2025-03-12+json' };
    const limited = await fetch(url, { headers });
    t.is(limited.status, 429);
    t.deepEqual(await limited.json(), { detail: 'You have exceeded the rate limit. Please try again later.', error: 429, errorCode: 'RATE_LIMITED', parameters: [], reason: 'Too Many Requests' });
    t.is(limited.headers.get('retry-after'), '7');
    t.is(limited.headers.get('ratelimit-remaining'), '0');
    t.is((await fetch(url, { headers })).status, 200);
  } finally {
    await listening.close();
    await world.journal.close();
  }
});

test('every handler\'s answer to a read of the conformance world is valid against Atlas\'s OpenAPI, in the versioned media type of its operation', async (t) => {
  const { header, services } = prepareWorld({ scenarioDir: 'mocks/mongodb-atlas/conformance' });
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header) });
  const validate = specValidator(asJsonSpec(atlasSpec));
  const AN = '65b2a1c3d4e5f60718293a04';
  const reads: [string, string][] = [
    ['listGroups', '/api/atlas/v2/groups'], ['getGroup', `/api/atlas/v2/groups/${PROD}`], ['listClusterDetails', '/api/atlas/v2/clusters'],
    ['getCluster', `/api/atlas/v2/groups/${PROD}/clusters/payments-main`], ['getCluster', `/api/atlas/v2/groups/${SANDBOX}/clusters/Cluster0`],
    ['listFlexClusters', `/api/atlas/v2/groups/${SANDBOX}/flexClusters`], ['getFlexCluster', `/api/atlas/v2/groups/${SANDBOX}/flexClusters/demo-flex`],
    ['listDatabaseUsers', `/api/atlas/v2/groups/${PROD}/databaseUsers`], ['getDatabaseUser', `/api/atlas/v2/groups/${PROD}/databaseUsers/admin/payments-api`],
    ['listAccessListEntries', `/api/atlas/v2/groups/${PROD}/accessList`], ['getAccessListEntry', `/api/atlas/v2/groups/${PROD}/accessList/10.20.0.0%2F16`],
    ['listAlerts', `/api/atlas/v2/groups/${AN}/alerts?status=OPEN`], ['getEncryptionAtRest', `/api/atlas/v2/groups/${PROD}/encryptionAtRest`],
    ['listClusterSuggestedIndexes', `/api/atlas/v2/groups/${PROD}/clusters/payments-main/performanceAdvisor/suggestedIndexes`],
    ['listDropIndexSuggestions', `/api/atlas/v2/groups/${PROD}/clusters/payments-main/performanceAdvisor/dropIndexSuggestions`],
    ['listSchemaAdvice', `/api/atlas/v2/groups/${PROD}/clusters/payments-main/performanceAdvisor/schemaAdvice`],
    ['listStreamWorkspaces', `/api/atlas/v2/groups/${AN}/streams`], ['getStreamWorkspace', `/api/atlas/v2/groups/${AN}/streams/clickstream`],
    ['listStreamConnections', `/api/atlas/v2/groups/${AN}/streams/clickstream/connections`], ['getStreamProcessors', `/api/atlas/v2/groups/${AN}/streams/clickstream/processors`],
    ['getStreamProcessor', `/api/atlas/v2/groups/${AN}/streams/clickstream/processor/sessionize`], ['getAccountDetails', `/api/atlas/v2/groups/${AN}/streams/accountDetails?cloudProvider=aws&regionName=US_EAST_1`],
  ];
  try {
    for (const [operation, target] of reads) {
      const response = await world.dispatch({ host: 'cloud.mongodb.com', method: 'GET', target, body: new Uint8Array(),
        headers: [['Authorization', 'Bearer mdb-conformance-access-token'], ['Accept', 'application/vnd.atlas.2025-03-12+json']] });
      const text = new TextDecoder().decode(response.body);
      t.is(response.status, 200, `${target}: ${text}`);
      const contentType = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      t.regex(contentType ?? '', /^application\/vnd\.atlas\.\d{4}-\d{2}-\d{2}\+json;charset=utf-8$/, target);
      t.is(validate(operation, JSON.parse(text)), null, `${target} against ${operation}`);
    }
  } finally {
    await world.journal.close();
  }
});
