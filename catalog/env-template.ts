import type { EndpointEntry } from './schema.js';

/**
 * `{{name}}` placeholders in an endpoint's command, args and env. Every placeholder must be
 * known: a typo fails the start with its name, rather than handing a server a literal `{{…}}`.
 * A value may be a table (a scenario credential such as `{ key_id, secret }`): `{{credential}}`
 * then names nothing, and each field is `{{credential.key_id}}`.
 */
export type TemplateValue = string | Readonly<Record<string, string>>;
export type TemplateVars = Record<string, TemplateValue | undefined>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\s*\}\}/g;

export function renderTemplate(text: string, vars: TemplateVars, where: string): string {
  return text.replace(PLACEHOLDER, (_match, name: string, field: string | undefined) => {
    const value = vars[name];
    if (value === undefined) {
      const known = Object.keys(vars).filter((key) => vars[key] !== undefined).sort();
      throw new TemplateError(`${where}: {{${name}}} has no value here (known: ${known.join(', ')})`);
    }
    return pick(value, name, field, where);
  });
}

/** A placeholder's text: the string itself, or one field of a table. */
function pick(value: TemplateValue, name: string, field: string | undefined, where: string): string {
  if (typeof value === 'string') {
    if (field === undefined) return value;
    throw new TemplateError(`${where}: {{${name}.${field}}} names field ${field}, but ${name} is a single string here, not a table; use {{${name}}}`);
  }
  const fields = Object.keys(value).sort();
  if (field === undefined) {
    throw new TemplateError(`${where}: {{${name}}} is a table here (fields ${fields.join(', ')}); name one field, as in {{${name}.${fields[0]}}}`);
  }
  const picked = value[field];
  if (picked === undefined) throw new TemplateError(`${where}: {{${name}.${field}}}: the ${name} has no field ${field} (it has ${fields.join(', ')})`);
  return picked;
}

/**
 * What is wrong with `value` as `name` in these templates (by where each is, e.g.
 * `endpoints.aws.env.AWS_ACCESS_KEY_ID`), checked before anything starts; other placeholders
 * are left alone.
 */
export function placeholderProblems(templates: Record<string, string>, name: string, value: TemplateValue | undefined): string[] {
  const problems: string[] = [];
  for (const [where, text] of Object.entries(templates)) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match[1] !== name) continue;
      if (value === undefined) {
        problems.push(`${where}: {{${name}${match[2] ? `.${match[2]}` : ''}}} has no value`);
        continue;
      }
      try {
        pick(value, name, match[2], where);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return problems;
}

export function renderEnv(env: Record<string, string>, vars: TemplateVars, where: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, renderTemplate(value, vars, `${where}.env.${key}`)]));
}

/**
 * The fields of `name` the templates use: `null` if none, `[]` if it is used whole
 * (`{{credential}}`), else the field names (`{{credential.key_id}}`).
 */
export function fieldsUsed(templates: readonly string[], name: string): string[] | null {
  let used: string[] | null = null;
  for (const text of templates) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match[1] !== name) continue;
      used ??= [];
      if (match[2] !== undefined && !used.includes(match[2])) used.push(match[2]);
    }
  }
  return used;
}

/**
 * A stand-in credential for starting an endpoint without a scenario (capturing its tool list):
 * a string, or a table with every field its templates use.
 */
export function placeholderCredential(endpoint: EndpointEntry, value = 'toolbench-capture-only'): TemplateValue {
  if (endpoint.capture_credential !== undefined) return endpoint.capture_credential;
  const fields = fieldsUsed(Object.values(endpointTemplates(endpoint)), 'credential');
  return fields && fields.length > 0 ? Object.fromEntries(fields.map((field) => [field, value])) : value;
}

/** Every command, argument and env template of an endpoint, by where it is in the catalog. */
export function endpointTemplates(endpoint: EndpointEntry): Record<string, string> {
  const where = `endpoints.${endpoint.id}`;
  return {
    [`${where}.command`]: endpoint.command,
    ...Object.fromEntries(endpoint.args.map((arg, i) => [`${where}.args[${i}]`, arg])),
    ...Object.fromEntries(Object.entries(endpoint.env).map(([key, value]) => [`${where}.env.${key}`, value])),
  };
}
