import { badRequest } from './model.js';

/**
 * Kubernetes' protobuf wire format, for the request bodies typed client-go clients send
 * (`application/vnd.kubernetes.protobuf`: Helm's release Secrets): the `k8s\0` magic, a
 * runtime.Unknown envelope, then the object. Decoded for Secrets and ConfigMaps (ObjectMeta's
 * name, generateName, namespace, resourceVersion, labels, annotations); other kinds answer 415.
 */

type Field = { no: number; wire: number; value: bigint | Uint8Array };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw badRequest('unexpected end of protobuf data');
      const b = buf[i++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, value: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw badRequest(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const text = (v: bigint | Uint8Array) => (typeof v === 'bigint' ? String(v) : new TextDecoder().decode(v));
const bytesOf = (v: bigint | Uint8Array) => (typeof v === 'bigint' ? new Uint8Array(0) : v);

function map(entries: Field[], binary: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const kv = fields(bytesOf(e.value));
    const key = text(kv.find((f) => f.no === 1)?.value ?? new Uint8Array(0));
    const value = kv.find((f) => f.no === 2)?.value ?? new Uint8Array(0);
    out[key] = binary ? Buffer.from(bytesOf(value)).toString('base64') : text(value);
  }
  return out;
}

function objectMeta(buf: Uint8Array): Record<string, unknown> {
  const f = fields(buf);
  const meta: Record<string, unknown> = {};
  const str = (no: number, name: string) => { const v = f.find((x) => x.no === no); if (v && text(v.value) !== '') meta[name] = text(v.value); };
  str(1, 'name'); str(2, 'generateName'); str(3, 'namespace'); str(6, 'resourceVersion');
  const labels = map(f.filter((x) => x.no === 11), false);
  const annotations = map(f.filter((x) => x.no === 12), false);
  if (Object.keys(labels).length) meta.labels = labels;
  if (Object.keys(annotations).length) meta.annotations = annotations;
  return meta;
}

export function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').startsWith('application/vnd.kubernetes.protobuf');
}

/** The JSON object a protobuf body stands for; null for a kind this mock cannot decode. */
export function decodeProtobuf(body: Uint8Array): Record<string, unknown> | null {
  if (body.length < 4 || body[0] !== 0x6b || body[1] !== 0x38 || body[2] !== 0x73 || body[3] !== 0) throw badRequest('provided protobuf data does not begin with the k8s magic prefix');
  const envelope = fields(body.subarray(4));
  const typeMeta = fields(bytesOf(envelope.find((f) => f.no === 1)?.value ?? new Uint8Array(0)));
  const apiVersion = text(typeMeta.find((f) => f.no === 1)?.value ?? new Uint8Array(0));
  const kind = text(typeMeta.find((f) => f.no === 2)?.value ?? new Uint8Array(0));
  const raw = fields(bytesOf(envelope.find((f) => f.no === 2)?.value ?? new Uint8Array(0)));
  const metadata = objectMeta(bytesOf(raw.find((f) => f.no === 1)?.value ?? new Uint8Array(0)));
  if (apiVersion === 'v1' && kind === 'Secret') {
    const type = raw.find((f) => f.no === 3);
    return { apiVersion, kind, metadata, data: map(raw.filter((f) => f.no === 2), true), ...(type ? { type: text(type.value) } : {}) };
  }
  if (apiVersion === 'v1' && kind === 'ConfigMap') {
    const binary = map(raw.filter((f) => f.no === 3), true);
    return { apiVersion, kind, metadata, data: map(raw.filter((f) => f.no === 2), false), ...(Object.keys(binary).length ? { binaryData: binary } : {}) };
  }
  return null;
}
