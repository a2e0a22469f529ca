import { z } from 'zod';

/**
 * The MongoDB Atlas dataset (`<scenario>/dataset/mongodb-atlas.json`, and the background world in
 * scenarios/baseline/dataset/mongodb-atlas.json): the single source of truth for its format.
 * Records are written the way a person describes an Atlas account (a cluster's size, provider and
 * region); the loader expands them into the Admin API's own documents.
 */
const ObjectIdString = z.string().regex(/^[a-f0-9]{24}$/, 'must be a 24-hex-digit ObjectId');
const Iso = z.string().datetime({ offset: true });

const ServiceAccount = z.object({
  /** OAuth client id (`mdb_sa_id_…`) and secret (`mdb_sa_sk_…`), exchanged at /api/oauth/token. */
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  name: z.string().min(1).default('MCP service account'),
}).strict();

const Org = z.object({ id: ObjectIdString, name: z.string().min(1), isDeleted: z.boolean().default(false) }).strict();

const Project = z.object({
  id: ObjectIdString,
  name: z.string().min(1),
  orgId: ObjectIdString,
  created: Iso.optional(),
  tags: z.array(z.object({ key: z.string(), value: z.string() }).strict()).default([]),
}).strict();

const InstanceSize = z.enum(['M0', 'M10', 'M20', 'M30', 'M40', 'M50', 'M60', 'M80', 'M140', 'M200']);
const ClusterState = z.enum(['IDLE', 'CREATING', 'UPDATING', 'DELETING', 'REPAIRING']);

const Cluster = z.object({
  id: ObjectIdString.optional(),
  projectId: ObjectIdString,
  name: z.string().regex(/^[a-zA-Z0-9-]+$/),
  /** M0 is a free (shared-tier) cluster; M10 and up are dedicated. */
  instanceSize: InstanceSize.default('M10'),
  provider: z.enum(['AWS', 'GCP', 'AZURE']).default('AWS'),
  region: z.string().default('US_EAST_1'),
  /** Further regions of a multi-region replica set, after `region`. */
  extraRegions: z.array(z.string()).default([]),
  clusterType: z.enum(['REPLICASET', 'SHARDED']).default('REPLICASET'),
  paused: z.boolean().default(false),
  state: ClusterState.default('IDLE'),
  mongoDBVersion: z.string().default('8.0.12'),
  diskSizeGB: z.number().positive().optional(),
  backupEnabled: z.boolean().default(true),
  terminationProtectionEnabled: z.boolean().default(false),
  computeAutoScaling: z.boolean().default(false),
  created: Iso.optional(),
  tags: z.array(z.object({ key: z.string(), value: z.string() }).strict()).default([]),
}).strict();

const FlexCluster = z.object({
  id: ObjectIdString.optional(),
  projectId: ObjectIdString,
  name: z.string().regex(/^[a-zA-Z0-9-]+$/),
  provider: z.enum(['AWS', 'GCP', 'AZURE']).default('AWS'),
  region: z.string().default('US_EAST_1'),
  state: ClusterState.default('IDLE'),
  mongoDBVersion: z.string().default('8.0.12'),
  created: Iso.optional(),
}).strict();

const Role = z.object({ roleName: z.string().min(1), databaseName: z.string().min(1), collectionName: z.string().optional() }).strict();

const DatabaseUser = z.object({
  projectId: ObjectIdString,
  username: z.string().min(1),
  /** The authentication database: `admin` for SCRAM users, `$external` for X.509, LDAP, IAM. */
  databaseName: z.string().default('admin'),
  roles: z.array(Role).min(1),
  /** Clusters the user is limited to; empty: every cluster of the project. */
  clusters: z.array(z.string()).default([]),
  description: z.string().optional(),
  deleteAfterDate: Iso.optional(),
}).strict();

const AccessEntry = z.object({
  projectId: ObjectIdString,
  ipAddress: z.string().ip({ version: 'v4' }).optional(),
  cidrBlock: z.string().optional(),
  comment: z.string().default(''),
  deleteAfterDate: Iso.optional(),
}).strict().refine((e) => (e.ipAddress === undefined) !== (e.cidrBlock === undefined), 'give exactly one of ipAddress or cidrBlock');

const Alert = z.object({
  id: ObjectIdString.optional(),
  projectId: ObjectIdString,
  eventTypeName: z.string().min(1),
  status: z.enum(['OPEN', 'TRACKING', 'CLOSED']).default('OPEN'),
  clusterName: z.string().optional(),
  hostnameAndPort: z.string().optional(),
  replicaSetName: z.string().optional(),
  metricName: z.string().optional(),
  currentValue: z.object({ number: z.number(), units: z.string() }).strict().optional(),
  created: Iso,
  updated: Iso.optional(),
  resolved: Iso.optional(),
  acknowledgementComment: z.string().optional(),
  acknowledgingUsername: z.string().optional(),
}).strict();

/** Performance Advisor's findings for one cluster, in the API's own shapes. */
const Advisor = z.object({
  projectId: ObjectIdString,
  clusterName: z.string().min(1),
  suggestedIndexes: z.array(z.record(z.unknown())).default([]),
  shapes: z.array(z.record(z.unknown())).default([]),
  hiddenIndexes: z.array(z.record(z.unknown())).default([]),
  redundantIndexes: z.array(z.record(z.unknown())).default([]),
  unusedIndexes: z.array(z.record(z.unknown())).default([]),
  recommendations: z.array(z.record(z.unknown())).default([]),
  /** Slow query log lines (`{line, namespace, opType?, replicaState?}`) of the cluster's first node. */
  slowQueries: z.array(z.record(z.unknown())).default([]),
}).strict();

/** An Atlas Stream Processing workspace with its connections and processors (the API's own shapes for those). */
const StreamWorkspace = z.object({
  projectId: ObjectIdString,
  name: z.string().regex(/^[a-zA-Z0-9_-]+$/),
  provider: z.enum(['AWS', 'GCP', 'AZURE']).default('AWS'),
  region: z.string().default('VIRGINIA_USA'),
  tier: z.string().default('SP30'),
  /** `{name, type, …}`: Kafka, Cluster, Sample, … as the API describes them. */
  connections: z.array(z.object({ name: z.string().min(1), type: z.string().min(1) }).passthrough()).default([]),
  /** `{name, pipeline, state?}`; state CREATED, STARTED or STOPPED (default STOPPED). */
  processors: z.array(z.object({ name: z.string().min(1), pipeline: z.array(z.record(z.unknown())), state: z.enum(['CREATED', 'STARTED', 'STOPPED', 'FAILED']).default('STOPPED') }).passthrough()).default([]),
}).strict();

const KnowledgeSource = z.object({
  id: z.string().min(1),
  type: z.string().default('tech-docs'),
  versions: z.array(z.object({ label: z.string(), isCurrent: z.boolean() }).strict()).default([]),
}).strict();

const KnowledgeDocument = z.object({
  url: z.string().url(),
  title: z.string().min(1),
  text: z.string().min(1),
  dataSource: z.string().min(1),
  version: z.string().optional(),
  tags: z.array(z.string()).default([]),
}).strict();

export const MongodbAtlasDatasetSchema = z.object({
  serviceAccounts: z.array(ServiceAccount).default([]),
  /** Programmatic API keys (the legacy HTTP Digest credentials: public key as user, private key as password). */
  apiKeys: z.array(z.object({ publicKey: z.string().min(1), privateKey: z.string().min(1), description: z.string().default('') }).strict()).default([]),
  /** Access tokens already issued to a service account (a client that logged in before the epoch); valid an hour from the epoch unless `expiresAt`. */
  accessTokens: z.array(z.object({ token: z.string().min(1), clientId: z.string().min(1), expiresAt: Iso.optional() }).strict()).default([]),
  orgs: z.array(Org).default([]),
  projects: z.array(Project).default([]),
  clusters: z.array(Cluster).default([]),
  flexClusters: z.array(FlexCluster).default([]),
  databaseUsers: z.array(DatabaseUser).default([]),
  accessList: z.array(AccessEntry).default([]),
  alerts: z.array(Alert).default([]),
  performanceAdvisor: z.array(Advisor).default([]),
  /** The caller's public address as /api/private/ipinfo reports it (the "current IP" of the tools). */
  currentIpv4Address: z.string().ip({ version: 'v4' }).default('203.0.113.24'),
  /** Customer-key encryption-at-rest configurations by project id, in the API's shape (`{awsKms: {enabled, valid}}`). */
  encryptionAtRest: z.record(z.record(z.unknown())).default({}),
  /** MongoDB Assistant's knowledge base (knowledge.mongodb.com). */
  knowledge: z.object({ sources: z.array(KnowledgeSource).default([]), documents: z.array(KnowledgeDocument).default([]) }).strict().default({}),
  streamWorkspaces: z.array(StreamWorkspace).default([]),
  /** Records of the spec fallback's collections (stream private links), keyed by the spec's collection path. */
  spec: z.record(z.array(z.record(z.unknown()))).default({}),
}).strict();
export type MongodbAtlasDataset = z.infer<typeof MongodbAtlasDatasetSchema>;
export type ClusterRecord = z.infer<typeof Cluster>;
export type FlexClusterRecord = z.infer<typeof FlexCluster>;
