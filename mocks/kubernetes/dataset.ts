import { z } from 'zod';

/**
 * A cluster as a scenario gives it: bearer tokens, Kubernetes objects in the API's own JSON
 * (namespaces, nodes, deployments, services, config maps, secrets, jobs, events…), the workloads
 * that crash until a config map key exists, container logs, resource usage, kubelet logs and
 * Helm releases. Deployments get their replica sets and pods from the controllers at load.
 */
const Meta = z.object({
  name: z.string().min(1),
  namespace: z.string().optional(),
  labels: z.record(z.string()).optional(),
  annotations: z.record(z.string()).optional(),
  creationTimestamp: z.string().optional(),
}).passthrough();

export const K8sObjectSchema = z.object({ apiVersion: z.string().min(1), kind: z.string().min(1), metadata: Meta }).passthrough();

const Crash = z.object({
  namespace: z.string(),
  deployment: z.string(),
  container: z.string().optional(),
  /** The pods crash while this config map key is missing (the app reads it at startup). */
  requires: z.object({ configMap: z.string(), key: z.string() }),
  exitCode: z.number().int().default(1),
  /** Restarts the pods loaded with the dataset show. */
  restarts: z.number().int().nonnegative().default(5),
  /** What the crashing container prints before it exits. */
  logs: z.string(),
  /** What it prints once it starts cleanly. */
  healthyLogs: z.string().default(''),
}).strict();

export const KubernetesDatasetSchema = z.object({
  tokens: z.array(z.object({ token: z.string().min(1), user: z.string().min(1) }).strict()).default([]),
  objects: z.array(K8sObjectSchema).default([]),
  crashes: z.array(Crash).default([]),
  /** Container logs by deployment (every pod of it at load) or by pod name. */
  logs: z.array(z.object({
    namespace: z.string(), deployment: z.string().optional(), pod: z.string().optional(), container: z.string().optional(),
    current: z.string(), previous: z.string().optional(),
  }).strict()).default([]),
  /** CPU (millicores) and memory (MiB) in use, per pod of a deployment or per pod. */
  usage: z.array(z.object({ namespace: z.string(), deployment: z.string().optional(), pod: z.string().optional(), cpu: z.number().int().nonnegative(), memory: z.number().int().nonnegative() }).strict()).default([]),
  nodeLogs: z.record(z.string()).default({}),
  helmReleases: z.array(z.object({
    name: z.string(), namespace: z.string(), chart: z.string(), version: z.string(), appVersion: z.string().default(''),
    revision: z.number().int().positive().default(1), status: z.enum(['deployed', 'failed', 'superseded', 'uninstalled', 'pending-install', 'pending-upgrade']).default('deployed'),
    values: z.record(z.unknown()).default({}), deployedDaysAgo: z.number().nonnegative().default(7),
  }).strict()).default([]),
}).strict();
export type KubernetesDataset = z.infer<typeof KubernetesDatasetSchema>;
