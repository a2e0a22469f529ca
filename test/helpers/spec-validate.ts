import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { openapiToJsonSchema } from '../../mocks/kit/openapi.js';
import type { OpenApiDocument } from '../../mocks/kit/spec-fallback.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Validates answers against an OpenAPI 3 document's success response schemas, by operationId,
 * with ajv (OpenAPI's `nullable` read as JSON Schema). Returns ajv's errors as text, or null.
 */
export function specValidator(spec: OpenApiDocument, options: {
  /** More formats, or other rules for the defaults' names (Twilio's relative `uri`s and upper-case `currency`). */
  formats?: Readonly<Record<string, RegExp | true>>;
  /** Every property of an object answer must be present (for specs whose schemas require nothing). */
  allProperties?: boolean;
} = {}): (operationId: string, body: unknown) => string | null {
  const doc = openapiToJsonSchema(JSON.parse(JSON.stringify(spec).replaceAll('"#/components/', '"spec#/components/'))) as OpenApiDocument;
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
  // Stripe's own formats: seconds since the epoch, and a currency code.
  ajv.addFormat('unix-time', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
  ajv.addFormat('currency', /^[a-z]{3}$/);
  ajv.addFormat('decimal', /^-?\d+(\.\d+)?$/);
  for (const [name, format] of Object.entries(options.formats ?? {})) ajv.addFormat(name, format);
  ajv.addSchema({ $id: 'spec', components: doc.components ?? {} }, 'spec');
  const schemas = new Map<string, ValidateFunction>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || typeof op.operationId !== 'string') continue;
      const code = Object.keys(op.responses ?? {}).filter((c) => /^2/.test(c)).sort()[0];
      const schema = code ? op.responses[code]?.content?.['application/json']?.schema : undefined;
      if (schema) schemas.set(op.operationId, ajv.compile(options.allProperties && schema.properties ? { ...schema, required: Object.keys(schema.properties) } : schema));
    }
  }
  return (operationId, body) => {
    const validate = schemas.get(operationId);
    if (!validate) return `no success schema for ${operationId}`;
    return validate(body) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
  };
}
