import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { authenticate, bearer } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { defineService } from '../kit/define.js';
import { KubernetesDatasetSchema, type KubernetesDataset } from './dataset.js';
import { kubernetesOperations, type K8sCtx } from './handlers.js';
import { loadKubernetes } from './load.js';
import { renderStatus, status } from './model.js';

/**
 * A Kubernetes API server (v1.31): discovery, OpenAPI v3, and the core, apps, batch, events,
 * networking and metrics resources over one generic REST engine (list with label and field
 * selectors and limit/continue pages, get, create, update, merge / strategic merge / JSON patch,
 * server-side apply, delete with garbage collection, bounded watches), the scale, status, log,
 * exec and node proxy subresources, server-side Table printing, and controllers that turn
 * deployments into replica sets and running pods at once. Errors are `Status` objects.
 * docs/kubernetes-mock.md.
 */

function k8sContext(req: ServiceRequest, ctx: ServiceContext): K8sCtx {
  const tokens = ctx.store.collection<{ token: string; user: string }>('tokens');
  const found = authenticate(req, [bearer()], (secret) => tokens.get(secret));
  return { ctx, user: found.kind === 'ok' ? found.principal.user : null, badToken: found.kind === 'bad' };
}

/** Bearer tokens of the dataset; anonymous callers may read only `/version` and the health checks. */
const auth: Middleware<K8sCtx> = (req, c, next, matched) => {
  if (c.user) return next();
  const open = matched && (matched.name === 'version' || matched.name === 'healthz');
  if (c.badToken || !open) throw status(401, 'Unauthorized', 'Unauthorized');
  return next();
};

/** API priority and fairness's 429: a Status with `retryAfterSeconds`, and `Retry-After`. */
function k8sFault(order: FaultOrder, _req: ServiceRequest, _ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderStatus(status(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: order.retryAfter }, [['Retry-After', String(order.retryAfter)]]));
  }
  if (order.kind === '503') return renderStatus(status(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', { retryAfterSeconds: order.retryAfter }, [['Retry-After', String(order.retryAfter)]]));
  if (order.kind === 'timeout') return renderStatus(status(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', { retryAfterSeconds: 1 }));
  return renderStatus(status(order.kind === 'reset' || order.kind === '502' ? 502 : 500, 'InternalError', 'Internal error occurred: the server could not complete the request'));
}

export const kubernetesService = defineService<KubernetesDataset, K8sCtx>({
  id: 'kubernetes',
  version: '2',
  dataset: KubernetesDatasetSchema,
  load: loadKubernetes,
  context: k8sContext,
  operations: kubernetesOperations,
  errors: (error) => renderStatus(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': return status(400, 'BadRequest', detail.issues?.[0]?.message ?? 'invalid request');
      case 'malformed_body': return status(400, 'BadRequest', `error decoding from json: ${detail.message ?? 'malformed body'}`);
      case 'unauthenticated': return status(401, 'Unauthorized', 'Unauthorized');
      case 'method_not_allowed': return status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
      case 'payload_too_large': return status(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
      case 'internal_error': return status(500, 'InternalError', 'Internal error occurred: the server could not complete the request');
      case 'not_found': return status(404, 'NotFound', 'the server could not find the requested resource', {});
    }
  },
  middleware: [auth],
  fault: k8sFault,
  volatile: {
    // The revision counter, uids and resourceVersions move with every write; controllers' pods
    // and replica sets carry seeded names and hashes; logs and usage follow the pods.
    tokens: '*', cluster: '*', crash_rules: '*', logs: '*', usage: '*', node_logs: '*',
    replicasets: '*', pods: '*', events: '*', 'events.k8s.io': '*',
    deployments: ['metadata.resourceVersion', 'metadata.generation', 'metadata.annotations', 'status'],
    configmaps: ['metadata.resourceVersion', 'metadata.uid', 'metadata.creationTimestamp'],
    services: ['metadata.resourceVersion', 'metadata.uid', 'metadata.creationTimestamp', 'spec.clusterIP', 'spec.clusterIPs'],
    secrets: ['metadata.resourceVersion', 'metadata.uid', 'metadata.creationTimestamp'],
    namespaces: ['metadata.resourceVersion', 'metadata.uid', 'metadata.creationTimestamp'],
    jobs: ['metadata.resourceVersion', 'status'],
    nodes: ['metadata.resourceVersion'],
  },
});
