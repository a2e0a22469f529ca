import test from 'ava';
import { openWorld } from '../scenarios/world.js';
import type { HeaderList } from '../mocks/core/http.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';

// The traps of the Slack scenarios are real: a near miss (the look-alike thread, person, channel
// or customer) fails the very check written for it, not only the required-call check. Requests
// go straight to the world, as the server would send them.

interface NearMiss {
  scenario: string;
  what: string;
  requests: { method: string; target: string; body?: unknown; host?: string; headers?: HeaderList }[];
  answer?: string;
  /** The description of a check that must fail. */
  fails: string;
}

const post = (method: string, body: unknown) => ({ method: 'POST', target: `/api/${method}`, body });
const NEAR_MISSES: NearMiss[] = [
  { scenario: 'collab/slack/incident-thread-update', what: 'the update in last week\'s checkout thread',
    requests: [post('chat.postMessage', { channel: 'C04ORB0INC', thread_ts: '1717578000.000100', text: 'Mitigated after the rollback to v3.40.2.' })],
    fails: 'not in last week\'s checkout latency thread' },
  { scenario: 'collab/slack/incident-thread-update', what: 'the update as a new channel message',
    requests: [post('chat.postMessage', { channel: 'C04ORB0INC', text: 'Mitigated after the rollback to v3.40.2.' })],
    fails: 'no new channel-level message' },
  { scenario: 'collab/slack/react-release-approval', what: 'the reaction on Grace Kimball\'s QA sign-off',
    requests: [post('reactions.add', { channel: 'C04LUM0REL', timestamp: '1717956000.000300', name: 'white_check_mark' })],
    fails: 'no reaction on any other message' },
  { scenario: 'collab/slack/welcome-new-hire', what: 'welcoming Sam O\'Connor',
    requests: [post('chat.postMessage', { channel: 'C04NWL0GEN', text: 'Please welcome <@U04NWL0019> to the Backend team!' })],
    fails: 'no mention of another Sam by the bot' },
  { scenario: 'collab/slack/welcome-new-hire', what: 'the welcome in #general-announcements',
    requests: [post('chat.postMessage', { channel: 'C04NWL0GAN', text: 'Please welcome <@U04NWL0029> to the Backend team!' })],
    fails: 'not in the look-alike #general-announcements' },
  { scenario: 'collab/slack/escalation-status', what: 'the archived Hooli escalation',
    requests: [{ method: 'GET', target: '/api/conversations.history?channel=C04KST0E23' }], answer: 'customer=Hooli owner=Carlos Ruiz',
    fails: 'the customer is Initech' },
  { scenario: 'collab/slack/timezone-answer-in-thread', what: 'Lena Fisher\'s time zone',
    requests: [post('chat.postMessage', { channel: 'C04PNS0DSG', thread_ts: '1718006400.000100', text: 'She is in Australia/Sydney.' })],
    fails: 'no reply by the bot giving Sydney time' },
  { scenario: 'collab/cross/slack-report-github-issue', what: 'the comment on the closed duplicate #49',
    requests: [{ method: 'POST', host: 'api.github.com', target: '/repos/sable/analytics/issues/49/comments', body: { body: 'Initech hit this too (ZD-48213).' },
      headers: [['Authorization', 'token ghp_theolXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'], ['Content-Type', 'application/json']] }],
    fails: 'no comment about the ticket on any other issue' },
];

for (const miss of NEAR_MISSES) {
  test(`${miss.scenario}: ${miss.what} fails "${miss.fails}"`, async (t) => {
    const dir = `scenarios/${miss.scenario}`;
    const manifest = loadScenarioManifest(dir);
    const credential = manifest.credentials.slack;
    const token = typeof credential === 'object' ? credential.token : credential;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      for (const request of miss.requests) {
        const response = await opened.world.dispatch({
          host: request.host ?? 'slack.com', method: request.method, target: request.target,
          headers: request.headers ?? [['Authorization', `Bearer ${token}`], ['Content-Type', 'application/json']],
          body: new TextEncoder().encode(request.body === undefined ? '' : JSON.stringify(request.body)),
        });
        const text = new TextDecoder().decode(response.body);
        t.true(response.status < 300 && !text.includes('"ok":false'), `the near miss itself succeeds: ${text.slice(0, 200)}`);
      }
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: miss.answer ?? null, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0);
      const check = result.checks.find((c) => c.description === miss.fails);
      t.truthy(check, `a check "${miss.fails}"`);
      t.false(check!.ok, `"${miss.fails}" catches it`);
    } finally {
      await opened.world.journal.close();
    }
  });
}
