import test from 'ava';
import { startStack, type Stack } from '../catalog/stack.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';

// CircleCI has no official Node SDK: clients nobody here wrote drive the mock through the proxy
// instead. Python's urllib (HTTPS_PROXY, the CA as SSL_CERT_FILE) walks project → pipelines →
// workflow → jobs → tests, triggers a pipeline and reruns a failed workflow; curl reads a job's
// v1.1 details with basic auth and a step's raw output. And the 429 fault.

const TOKEN = 'CCIPAT_conformance_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/circleci/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['circleci-py', 'circleci-curl'] });
});
test.after.always(async () => {
  await stack?.close();
});

const PY = `
import json, os, urllib.request, urllib.error
def call(method, path, body=None, host="circleci.com"):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request("https://" + host + path, data=data, method=method, headers={"Circle-Token": os.environ["T"], "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r: return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read())
out = {}
_, project = call("GET", "/api/v2/project/gh/acme/payments-api")
out["project"] = [project["slug"], project["organization_name"], project["vcs_info"]["default_branch"]]
_, pipelines = call("GET", "/api/v2/project/gh/acme/payments-api/pipeline?branch=release%2F2.4")
p = pipelines["items"][0]
out["pipeline"] = [p["number"], p["vcs"]["branch"], p["vcs"]["commit"]["subject"]]
_, workflows = call("GET", "/api/v2/pipeline/" + p["id"] + "/workflow")
w = workflows["items"][0]
out["workflow"] = [w["name"], w["status"]]
_, jobs = call("GET", "/api/v2/workflow/" + w["id"] + "/job")
out["jobs"] = [[j["name"], j["status"]] for j in jobs["items"]]
failed = [j for j in jobs["items"] if j["status"] == "failed"][0]
_, tests = call("GET", "/api/v2/project/gh/acme/payments-api/%d/tests" % failed["job_number"])
out["failing"] = [[t["name"], t["message"]] for t in tests["items"] if t["result"] == "failure"]
out["run"] = call("POST", "/api/v2/project/gh/acme/payments-api/pipeline/run", {"checkout": {"branch": "release/2.4"}, "config": {"branch": "release/2.4"}})[0]
status, rerun = call("POST", "/api/v2/workflow/" + w["id"] + "/rerun", {"from_failed": True})
out["rerun"] = status
_, again = call("GET", "/api/v2/workflow/" + rerun["workflow_id"] + "/job")
out["rerun_jobs"] = [[j["name"], j["status"]] for j in again["items"]]
out["missing"] = call("GET", "/api/v2/project/gh/acme/nope")
out["compile"] = call("POST", "/api/v2/compile-config-with-defaults", {"config_yaml": "version: 2.1\\nworkflows:\\n  w:\\n    jobs:\\n      - build\\n"}, host="api.circleci.com")[1]["errors"]
print(json.dumps(out))
`;

test('Python urllib through the proxy: project, pipelines by branch, workflow, jobs, failing tests; a pipeline run and a rerun from failed; CircleCI\'s errors', async (t) => {
  const result = await run('python3', ['-c', PY], { HTTPS_PROXY: stack.proxy!.proxy.urlFor('circleci-py'), SSL_CERT_FILE: stack.caPath!, T: TOKEN });
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.project, ['gh/acme/payments-api', 'acme', 'main']);
  t.deepEqual(out.pipeline, [105, 'release/2.4', 'Release 2.4.1']);
  t.deepEqual(out.workflow, ['build-test-deploy', 'failed']);
  t.deepEqual(out.jobs, [['lint', 'success'], ['unit-tests', 'success'], ['integration-tests', 'failed'], ['build-image', 'not_run']]);
  t.deepEqual(out.failing, [['refunds an order', 'Error: connect ECONNREFUSED 127.0.0.1:5432']]);
  t.is(out.run, 201);
  t.is(out.rerun, 202);
  t.deepEqual(out.rerun_jobs, [['integration-tests', 'queued'], ['build-image', 'queued']]);
  t.deepEqual(out.missing, [404, { message: 'Project not found' }]);
  t.deepEqual(out.compile, [{ message: "Job 'build' does not exist in the config." }]);
});

test('curl through the proxy: v1.1 job details with basic auth and a failed step\'s raw output from the private API; no token is 401', async (t) => {
  const env = { HTTPS_PROXY: stack.proxy!.proxy.urlFor('circleci-curl') };
  const details = await run('curl', ['-sS', '--cacert', stack.caPath!, '-u', `${TOKEN}:`, 'https://circleci.com/api/v1.1/project/gh/acme/storefront/1026'], env);
  const job = JSON.parse(details.stdout);
  t.like(job, { build_num: 1026, status: 'failed', branch: 'feature/gift-wrap', workflows: { job_name: 'unit-tests' } });
  const failed = job.steps.flatMap((s: { actions: { failed: boolean | null; step: number }[] }) => s.actions).find((a: { failed: boolean | null }) => a.failed === true);
  const raw = await run('curl', ['-sS', '--cacert', stack.caPath!, '-H', `Circle-Token: ${TOKEN}`, `https://circleci.com/api/private/output/raw/gh/acme/storefront/1026/error/0/${failed.step}`], env);
  t.is(raw.stdout, "TypeError: Cannot read properties of undefined (reading 'price')\n");
  const anonymous = await run('curl', ['-sS', '-w', '\n%{http_code}', '--cacert', stack.caPath!, 'https://circleci.com/api/v2/me'], env);
  t.is(anonymous.stdout, '{"message":"You must log in first."}\n401');
});

test('an injected 429 is CircleCI\'s "Rate limit exceeded" with Retry-After and its rate-limit headers', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/circleci/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ operation: 'listPipelinesForProject', kind: '429', nth: [1], retry_after: 9 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const url = `${new URL(listening.services.circleci!.url).origin}/api/v2/project/gh/acme/storefront/pipeline`;
    const limited = await fetch(url, { headers: { 'Circle-Token': TOKEN } });
    t.is(limited.status, 429);
    t.deepEqual(await limited.json(), { message: 'Rate limit exceeded' });
    t.is(limited.headers.get('retry-after'), '9');
    t.is(limited.headers.get('x-ratelimit-remaining'), '0');
    t.is((await fetch(url, { headers: { 'Circle-Token': TOKEN } })).status, 200);
  } finally {
    await listening.close();
    await world.journal.close();
  }
});
