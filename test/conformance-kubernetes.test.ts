import test from 'ava';
import { z } from 'zod';
import { sweepTools } from '../catalog/sweep.js';
import { sweep } from '../mocks/kubernetes/conformance.js';
import { conformance } from './helpers/conformance.js';
import { testCaDir } from './helpers/proxy.js';

// The Kubernetes API server mock through the conformance suite (test/helpers/conformance.ts):
// determinism, seeds, Status error and fault shapes, volatile fields, and all 23 + 23 tools of
// kubernetes-mcp-server (client-go) and mcp-server-kubernetes (kubectl) through MCP.

const NS = ['shop', 'payments', 'staging', 'monitoring', 'nowhere'];
const DEPLOYMENTS = ['storefront', 'catalog', 'cart', 'ledger', 'missing'];
const PLURALS = ['pods', 'configmaps', 'services', 'secrets', 'events'];
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((m) => `${m} /*path`);

conformance(test, {
  service: 'kubernetes',
  sweep,
  headers: [['Authorization', 'Bearer k8s-conformance-token']],
  skipRoutes: ALL_METHODS,
  count: 120,
  requests: [
    (random) => ({ method: 'GET', target: random.pick(['/api', '/apis', '/version', '/api/v1', '/apis/apps/v1', '/apis/batch/v1', '/openapi/v3', '/apis/nope/v1', '/openapi/v2']) }),
    (random) => ({ method: 'GET', target: `/api/v1/namespaces/${random.pick(NS)}/${random.pick(PLURALS)}?limit=${random.int(1, 4)}` }),
    (random) => ({ method: 'GET', target: `/api/v1/pods?labelSelector=${encodeURIComponent(random.pick(['app=storefront', 'app in (cart,catalog)', '!app', 'app!=ledger']))}` }),
    (random) => ({ method: 'GET', target: `/api/v1/pods?fieldSelector=${encodeURIComponent(random.pick(['status.phase=Running', 'spec.nodeName=ip-10-0-1-34.eu-west-1.compute.internal', 'bogus.field=1']))}` }),
    (random) => ({ method: 'GET', target: `/apis/apps/v1/namespaces/${random.pick(NS)}/deployments/${random.pick(DEPLOYMENTS)}${random.pick(['', '/scale', '/status'])}` }),
    (random) => ({ method: 'GET', target: `/apis/apps/v1/namespaces/shop/deployments`, headers: [['Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json']] as [string, string][] }),
    (random) => ({ method: 'PATCH', target: `/apis/apps/v1/namespaces/${random.pick(NS)}/deployments/${random.pick(DEPLOYMENTS)}/scale`, body: JSON.stringify({ spec: { replicas: random.int(-1, 5) } }), headers: [['Content-Type', 'application/merge-patch+json']] as [string, string][] }),
    (random, i) => ({ method: 'POST', target: `/api/v1/namespaces/${random.pick(NS)}/configmaps`, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: random.pick([`gen-${i}`, 'storefront-config', 'Bad_Name']) }, data: { k: String(i) } }), headers: [['Content-Type', 'application/json']] as [string, string][] }),
    (random) => ({ method: 'PATCH', target: `/api/v1/namespaces/shop/configmaps/${random.pick(['storefront-config', 'catalog-config', 'nope'])}`, body: JSON.stringify(random.pick([{ data: { LOG_LEVEL: 'warn' } }, [{ op: 'add', path: '/data/X', value: '1' }]])), headers: [['Content-Type', random.pick(['application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json', 'text/plain'])]] as [string, string][] }),
    (random) => ({ method: 'DELETE', target: `/api/v1/namespaces/shop/pods/${random.pick(['storefront-nope', 'cart-nope'])}` }),
    (random) => ({ method: 'GET', target: `/api/v1/namespaces/${random.pick(NS)}/pods?watch=true&labelSelector=app%3Dcart` }),
    (random) => ({ method: 'GET', target: `/apis/metrics.k8s.io/v1beta1/${random.pick(['nodes', 'namespaces/shop/pods'])}` }),
    (random) => ({ method: 'GET', target: `/api/v1/nodes/${random.pick(['ip-10-0-1-34.eu-west-1.compute.internal', 'ip-10-0-9-9'])}/proxy/stats/summary` }),
  ],
  seeded: {
    patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, /-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, /containerd:\/\/[bcdfghjklmnpqrstvwxz2456789]{16}/g],
  },
  errorShape: z.object({
    kind: z.literal('Status'), apiVersion: z.literal('v1'), metadata: z.object({}).strict(), status: z.literal('Failure'),
    message: z.string(), reason: z.string(), details: z.object({ name: z.string().optional(), group: z.string().optional(), kind: z.string().optional(), causes: z.array(z.object({ reason: z.string(), message: z.string(), field: z.string().optional() })).optional(), retryAfterSeconds: z.number().optional(), uid: z.string().optional() }).strict().optional(),
    code: z.number().int(),
  }).strict(),
});
