import type { LoadContext } from '../core/service.js';
import type { ElasticsearchDataset } from './dataset.js';
import { mapDynamically } from './fields.js';
import { dbOf, docKey, type IndexDoc } from './model.js';

/** Fills the store from the dataset: the cluster, API keys, indices (mappings extended by their documents) and documents in order. */
export function loadElasticsearch(data: ElasticsearchDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  db.cluster.put('cluster', { name: data.cluster.name, uuid: ctx.ids.opaqueBase64('cluster-uuid', data.cluster.name, 22), region: data.cluster.region });
  for (const key of data.api_keys) db.api_keys.put(key.encoded, { id: key.id, name: key.name, encoded: key.encoded, role: key.role });
  for (const spec of data.indices) {
    let properties = spec.mappings.properties;
    const dynamic = spec.mappings.dynamic === undefined ? true : spec.mappings.dynamic === 'strict' ? 'strict' : spec.mappings.dynamic === true || spec.mappings.dynamic === 'true';
    if (dynamic === true) for (const doc of spec.documents) properties = mapDynamically(properties, withoutId(doc));
    const index: IndexDoc = {
      name: spec.name, uuid: ctx.ids.opaqueBase64('index-uuid', spec.name, 22), created: ctx.epochMs, aliases: spec.aliases,
      shards: spec.settings.number_of_shards, replicas: spec.settings.number_of_replicas, dynamic, properties, nextSeq: spec.documents.length,
    };
    db.indices.put(spec.name, index);
    spec.documents.forEach((doc, order) => {
      const id = typeof doc._id === 'string' ? doc._id : ctx.ids.opaqueBase64('doc-id', `${spec.name}/${order}`, 20);
      db.docs.put(docKey(spec.name, id), { index: spec.name, id, source: withoutId(doc), version: 1, seqNo: order, order });
    });
  }
}

function withoutId(doc: Record<string, unknown>): Record<string, unknown> {
  const { _id: _ignored, ...source } = doc;
  return source;
}
