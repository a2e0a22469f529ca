import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { tempDir } from './journal.js';
import { EXAMPLE_SCENARIO, startWorld } from './world.js';

/** The example scenario's users and their tokens (scenarios/example/github/basic/dataset/github.json). */
export const TOKENS = {
  alice: 'ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  bob: 'ghp_bobBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
  carol: 'ghp_carolCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC',
} as const;

/** A private copy of the example scenario, so a test may change its dataset. */
export function copyExampleScenario(): string {
  const dir = join(tempDir('toolbench-scenario-'), 'basic');
  cpSync(EXAMPLE_SCENARIO, dir, { recursive: true });
  return dir;
}

type Step = (gh: Octokit, client: number, step: number) => Promise<unknown>;

const owner = 'acme';
const repo = 'widgets';

/**
 * Mixed reads and writes, as an agent's MCP server would make them through @octokit/rest. Each
 * client walks this list from its own offset; errors (404, 409, 422) are part of the traffic.
 */
const STEPS: Step[] = [
  (gh) => gh.repos.get({ owner, repo }),
  (gh, c, s) => gh.issues.listForRepo({ owner, repo, state: 'all', per_page: 5, page: 1 + ((c + s) % 4) }),
  (gh, c, s) => gh.issues.create({ owner, repo, title: `Load ${c}.${s}`, body: `Opened by client ${c} at step ${s}.`, labels: ['bug'] }),
  (gh, c, s) => gh.issues.get({ owner, repo, issue_number: 1 + ((c * 7 + s) % 45) }),
  (gh, c, s) => gh.issues.createComment({ owner, repo, issue_number: 1 + ((c + s) % 38), body: `Comment ${c}.${s}` }),
  (gh) => gh.orgs.get({ org: owner }),
  (gh, c, s) => gh.repos.getContent({ owner, repo, path: 'README.md', ...(s % 2 ? { ref: 'main' } : {}) }),
  (gh, c, s) => gh.issues.update({ owner, repo, issue_number: 1 + ((c * 3 + s) % 38), state: s % 2 ? 'closed' : 'open' }),
  (gh) => gh.users.getAuthenticated(),
  (gh, c, s) => gh.issues.addLabels({ owner, repo, issue_number: 1 + ((c + 2 * s) % 38), labels: ['question'] }),
  (gh) => gh.pulls.list({ owner, repo, state: 'all' }),
  (gh, c, s) => gh.search.issuesAndPullRequests({ q: `repo:${owner}/${repo} ${s % 2 ? 'is:open' : 'widget'}`, per_page: 3 }),
  async (gh, c, s) => {
    const main = await gh.git.getRef({ owner, repo, ref: 'heads/main' });
    return gh.git.createRef({ owner, repo, ref: `refs/heads/load-${c}-${s}`, sha: main.data.object.sha });
  },
  (gh) => gh.repos.listBranches({ owner, repo, per_page: 10 }),
  (gh, c, s) => gh.issues.listComments({ owner, repo, issue_number: 1 + (s % 5) }),
  (gh) => gh.rateLimit.get(),
];

const CLIENT_USERS = ['alice', 'bob', 'alice', 'carol', 'bob', 'alice', 'bob', 'alice'] as const;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export interface RecordedTrial {
  journalDir: string;
  scenarioDir: string;
  /** Requests the world served (Octokit may make more than one per step). */
  requests: number;
}

/**
 * Records `total` requests (at least) from `clients` concurrent Octokit clients into a new LevelDB
 * journal, through the world's plain-HTTP GitHub port.
 */
export async function recordGithubTrial(options: { total: number; clients: number; scenarioDir?: string }): Promise<RecordedTrial> {
  const scenarioDir = options.scenarioDir ?? copyExampleScenario();
  const journalDir = join(tempDir('toolbench-journal-'), 'journal');
  const world = await startWorld({ scenario: scenarioDir, journalDir });
  try {
    const perClient = Math.ceil(options.total / options.clients);
    await Promise.all(Array.from({ length: options.clients }, async (_, c) => {
      const gh = new Octokit({ baseUrl: world.urls.github, auth: TOKENS[CLIENT_USERS[c % CLIENT_USERS.length]!], log: quiet });
      for (let s = 0; world.world.clock.current < options.total && s < perClient * 2; s++) {
        await STEPS[(c * 5 + s) % STEPS.length]!(gh, c, s).catch((error: { status?: number }) => {
          if (typeof error.status !== 'number') throw error;
        });
      }
    }));
    return { journalDir, scenarioDir, requests: world.world.clock.current };
  } finally {
    await world.close();
  }
}
