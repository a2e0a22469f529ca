// @kubernetes/client-node 1.3.0 (unmodified; the copy mcp-server-kubernetes installs: the 2.0
// devDependency needs Node 22.19 through its undici 8, and this project runs on Node 20) against the kubeconfig in
// KUBECONFIG, reaching https://kubernetes.toolbench.test through the preload and the proxy:
// namespaces, pods by label, a deployment and its scale (merge patch), a config map created,
// strategic-merge-patched and listed in pages, pod logs, a bounded watch, and the Status
// errors (404, 409, 422). Prints one JSON object.
import * as k8s from '../../node_modules/mcp-server-kubernetes/node_modules/@kubernetes/client-node/dist/index.js';

const kc = new k8s.KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG);
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const out = {};
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { code: e.code, body: typeof e.body === 'string' ? JSON.parse(e.body) : e.body }; }
};

out.namespaces = (await core.listNamespace()).items.map((n) => n.metadata.name);
const pods = await core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app=storefront' });
out.pods = { count: pods.items.length, phases: [...new Set(pods.items.map((p) => p.status.phase))], nodes: pods.items.every((p) => p.spec.nodeName.startsWith('ip-10-0-')) };
const dep = await apps.readNamespacedDeployment({ name: 'cart', namespace: 'shop' });
out.deployment = { replicas: dep.spec.replicas, ready: dep.status.readyReplicas, image: dep.spec.template.spec.containers[0].image, revision: dep.metadata.annotations['deployment.kubernetes.io/revision'] };
const scaled = await apps.patchNamespacedDeploymentScale({ name: 'cart', namespace: 'shop', body: { spec: { replicas: 4 } } },
  k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
out.scaled = { kind: scaled.kind, replicas: scaled.spec.replicas, selector: scaled.status.selector };
const after = await apps.readNamespacedDeployment({ name: 'cart', namespace: 'shop' });
out.afterScale = { ready: after.status.readyReplicas, updated: after.status.updatedReplicas, observed: after.status.observedGeneration === after.metadata.generation };
const cm = await core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'sdk-settings', labels: { owner: 'sdk' } }, data: { a: '1' } } });
out.created = { rv: typeof cm.metadata.resourceVersion, uid: /^[0-9a-f-]{36}$/.test(cm.metadata.uid) };
const patched = await core.patchNamespacedConfigMap({ name: 'sdk-settings', namespace: 'shop', body: { data: { b: '2' } } },
  k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch));
out.patched = patched.data;
const page1 = await core.listNamespacedConfigMap({ namespace: 'shop', limit: 2 });
const page2 = await core.listNamespacedConfigMap({ namespace: 'shop', limit: 2, _continue: page1.metadata._continue });
out.pages = { first: page1.items.map((c) => c.metadata.name), second: page2.items.map((c) => c.metadata.name), remaining: page1.metadata.remainingItemCount };
out.log = await core.readNamespacedPodLog({ name: pods.items[0].metadata.name, namespace: 'shop', tailLines: 1 });
const events = [];
await new Promise((resolve, reject) => {
  new k8s.Watch(kc).watch('/api/v1/namespaces/shop/configmaps', { labelSelector: 'owner=sdk' }, (type, obj) => events.push(`${type} ${obj.metadata.name}`), (err) => (err ? reject(err) : resolve())).catch(reject);
});
out.watch = events;
out.errors = {
  missing: await errorOf(apps.readNamespacedDeployment({ name: 'nope', namespace: 'shop' })),
  duplicate: await errorOf(core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'sdk-settings' } } })),
  invalid: await errorOf(apps.patchNamespacedDeploymentScale({ name: 'cart', namespace: 'shop', body: { spec: { replicas: -1 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch))),
};
process.stdout.write(JSON.stringify(out));
