import test from 'ava';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isToolbenchError } from '../mocks/core/errors.js';
import { JqlError, parseJql } from '../mocks/atlassian/jira/jql.js';
import { openWorld } from '../scenarios/world.js';
import { tempDir } from './helpers/journal.js';

// The Atlassian dataset's one-line errors (file section and field named), and JQL parsing edge cases.

const WORLD = 'mocks/atlassian/conformance';

async function loadWith(edit: (data: Record<string, any>) => void): Promise<string> {
  const dir = join(tempDir('toolbench-atlassian-dataset-'), 'world');
  cpSync(WORLD, dir, { recursive: true });
  const file = join(dir, 'dataset', 'atlassian.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(data);
  writeFileSync(file, JSON.stringify(data));
  try {
    const { world } = await openWorld({ scenarioDir: dir });
    await world.journal.close();
    return 'loaded';
  } catch (error) {
    if (!isToolbenchError(error)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

test('bad datasets name the section, record and field in one line', async (t) => {
  const cases: [(d: Record<string, any>) => void, RegExp][] = [
    [(d) => { d.jira.issues[3].status = 'Blocked'; }, /jira\.issues\[3\]\.status: no status "Blocked" in the workflow/],
    [(d) => { d.jira.issues[4].assignee = 'nobody@larkspur.example'; }, /jira\.issues\[4\]\.assignee: no user "nobody@larkspur.example"/],
    [(d) => { d.jira.issues[5].sprint = 'Sprint 99'; }, /jira\.issues\[5\]\.sprint: no sprint "Sprint 99"/],
    [(d) => { d.confluence.pages[2].parent = 'Nowhere'; }, /confluence\.pages\[2\]\.parent: no earlier page "Nowhere" in ENG/],
    [(d) => { d.tokens[0].email = 'ghost@larkspur.example'; }, /tokens\[0\]\.email: no user with email ghost@larkspur.example/],
  ];
  for (const [edit, expected] of cases) {
    const outcome = await loadWith(edit);
    t.regex(outcome, /^TB_ERR_DATASET: /);
    t.regex(outcome, expected);
    t.false(outcome.includes('\n'), 'one line');
  }
});

test('JQL: precedence, lists, functions, ORDER BY, and Jira\'s parse errors', (t) => {
  const q = parseJql('project = ENG AND (status = "In Progress" OR labels in (a, b)) AND NOT assignee is EMPTY ORDER BY priority DESC, key');
  t.is(q.where?.kind, 'and');
  t.deepEqual(q.orderBy, [{ field: 'priority', direction: 'DESC' }, { field: 'key', direction: null }]);
  const sprint = parseJql('sprint in openSprints() AND text ~ "export*"');
  t.like(sprint.where, { kind: 'and' });
  t.deepEqual(parseJql('ORDER BY created DESC'), { where: null, orderBy: [{ field: 'created', direction: 'DESC' }] });
  t.throws(() => parseJql('project = ENG status = Done'), { instanceOf: JqlError, message: /Expecting either 'OR' or 'AND' but got 'status'/ });
  t.throws(() => parseJql('summary ~ "unfinished'), { instanceOf: JqlError, message: /has not been completed/ });
  t.throws(() => parseJql('assignee is currentUser()'), { instanceOf: JqlError, message: /can only be used with the EMPTY/ });
  t.throws(() => parseJql('status was Done'), { instanceOf: JqlError });
});
