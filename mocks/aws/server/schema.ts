import { z } from 'zod';

/**
 * The JSON Schema of a tool's zod input (the small subset the AWS tools use: strings, numbers,
 * booleans, enums, arrays, string maps, free-form objects; optional and described fields), so the
 * zod schema that checks arguments is also what `tools/list` shows.
 */
export function jsonSchema(schema: z.ZodTypeAny): Record<string, unknown> {
  const described = (out: Record<string, unknown>, s: z.ZodTypeAny) => (s.description ? { ...out, description: s.description } : out);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return described(jsonSchema(schema.unwrap()), schema);
  if (schema instanceof z.ZodDefault) return described({ ...jsonSchema(schema._def.innerType), default: schema._def.defaultValue() }, schema);
  if (schema instanceof z.ZodString) return described({ type: 'string' }, schema);
  if (schema instanceof z.ZodNumber) return described({ type: schema.isInt ? 'integer' : 'number' }, schema);
  if (schema instanceof z.ZodBoolean) return described({ type: 'boolean' }, schema);
  if (schema instanceof z.ZodEnum) return described({ type: 'string', enum: schema.options }, schema);
  if (schema instanceof z.ZodArray) return described({ type: 'array', items: jsonSchema(schema.element) }, schema);
  if (schema instanceof z.ZodRecord) return described({ type: 'object', additionalProperties: jsonSchema(schema.valueSchema) }, schema);
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return described({}, schema);
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    const required = Object.entries(shape).filter(([, s]) => !s.isOptional()).map(([k]) => k);
    return described({ type: 'object', properties: Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, jsonSchema(s)])), ...(required.length > 0 ? { required } : {}) }, schema);
  }
  throw new Error(`jsonSchema: unsupported zod type ${schema.constructor.name}`);
}
