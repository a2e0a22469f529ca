/**
 * Just enough DER (X.690) to walk a certificate's structure: tag, content bounds, children.
 * Node's X509Certificate parses certificates natively but exposes no Name Constraints, and
 * node-forge's full parser is what this replaces on the load path.
 */
export interface Tlv {
  tag: number;
  /** First byte of the content. */
  start: number;
  /** One past the last byte of the content. */
  end: number;
}

/** The TLV at `offset` of `der`; throws on a truncated or non-DER length. */
export function readTlv(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset];
  let lengthByte = der[offset + 1];
  if (tag === undefined || lengthByte === undefined) throw new Error('truncated DER');
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte DER tags are not used in certificates');
  let start = offset + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = der[start + i];
      if (lengthByte === undefined) throw new Error('truncated DER');
      length = length * 256 + lengthByte;
    }
    start += count;
  }
  const end = start + length;
  if (end > der.length) throw new Error('truncated DER');
  return { tag, start, end };
}

/** The TLVs inside a constructed `parent`. */
export function childrenOf(der: Uint8Array, parent: Tlv): Tlv[] {
  const children: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end;) {
    const child = readTlv(der, offset);
    children.push(child);
    offset = child.end;
  }
  return children;
}

export const DER = {
  OCTET_STRING: 0x04,
  OID: 0x06,
  /** [n] constructed, context-specific. */
  context: (n: number) => 0xa0 | n,
  /** [n] primitive, context-specific (an implicit IA5String for a dNSName). */
  contextPrimitive: (n: number) => 0x80 | n,
} as const;

/** The content bytes of `tlv`. */
export function contentOf(der: Uint8Array, tlv: Tlv): Uint8Array {
  return der.subarray(tlv.start, tlv.end);
}
