import type { AnswerCheck } from '../expectations.js';
import type { CheckResult } from './state.js';

export function gradeAnswer(checks: readonly AnswerCheck[], answer: string | null): CheckResult[] {
  return checks.map((check) => {
    const text = answer ?? '';
    const fold = (s: string) => (check.case_sensitive ? s : s.toLowerCase());
    let ok: boolean;
    let description: string;
    if (check.contains !== undefined) {
      ok = fold(text).includes(fold(check.contains));
      description = `answer contains ${JSON.stringify(check.contains)}`;
    } else if (check.not_contains !== undefined) {
      ok = !fold(text).includes(fold(check.not_contains));
      description = `answer does not contain ${JSON.stringify(check.not_contains)}`;
    } else if (check.regex !== undefined) {
      ok = new RegExp(check.regex, check.case_sensitive ? '' : 'i').test(text);
      description = `answer matches /${check.regex}/`;
    } else {
      ok = fold(text.trim()) === fold(check.equals!.trim());
      description = `answer equals ${JSON.stringify(check.equals)}`;
    }
    return { kind: 'answer', ok, description: check.description || description, detail: answer === null ? 'no answer file' : `${text.length} characters` };
  });
}
