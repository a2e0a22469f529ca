/**
 * `{{name}}` placeholders in an endpoint's command, args and env. Every placeholder must be
 * known: a typo fails the start with its name, rather than handing a server a literal `{{…}}`.
 */
export type TemplateVars = Record<string, string | undefined>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

export function renderTemplate(text: string, vars: TemplateVars, where: string): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_match, name: string) => {
    const value = vars[name];
    if (value === undefined) {
      const known = Object.keys(vars).filter((key) => vars[key] !== undefined).sort();
      throw new TemplateError(`${where}: {{${name}}} has no value here (known: ${known.join(', ')})`);
    }
    return value;
  });
}

export function renderEnv(env: Record<string, string>, vars: TemplateVars, where: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, renderTemplate(value, vars, `${where}.env.${key}`)]));
}
