import test from 'ava';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';

// The traps of the slack-go scenarios are real: the near miss (the look-alike thread, message,
// incident or channel) fails the very check written for it. Requests go straight to the world as
// slack-go sends them: form POSTs on the workspace's own host, the person's token in the body.

interface NearMiss {
  scenario: string;
  what: string;
  requests: { method: string; args: Record<string, string> }[];
  answer?: string;
  /** The description of a check that must fail. */
  fails: string;
}

const HOST = 'northwind-labs.slack.com';
const NEAR_MISSES: NearMiss[] = [
  { scenario: 'search-postmortem-owner', what: 'INC-2219\'s postmortem owner',
    requests: [{ method: 'search.all', args: { query: 'checkout postmortem', count: '20' } }], answer: 'owner=Sam Taylor doc=https://docs.northwind.test/pm/inc-2219',
    fails: 'the owner is Luis Romero' },
  { scenario: 'search-postmortem-owner', what: 'the draft notes instead of the doc',
    requests: [{ method: 'search.all', args: { query: 'checkout outage postmortem', count: '20' } }], answer: 'owner=Luis Romero doc=https://docs.northwind.test/drafts/checkout-notes',
    fails: 'the doc is INC-2291\'s postmortem' },
  { scenario: 'unreads-catch-up-mark', what: 'INC-2288, read before the marker',
    requests: [{ method: 'conversations.mark', args: { channel: 'C05NWLINCD', ts: '1717309800.000605' } }], answer: 'incidents=INC-2288,INC-2291,INC-2293,INC-2294',
    fails: 'not INC-2288 (already read)' },
  { scenario: 'unreads-catch-up-mark', what: 'marking #incidents read only up to the first unread',
    requests: [{ method: 'conversations.mark', args: { channel: 'C05NWLINCD', ts: '1717227900.000603' } }], answer: 'incidents=INC-2291,INC-2293,INC-2294',
    fails: '#incidents is read up to its newest message' },
  { scenario: 'thread-reply-release-status', what: 'the reply in the answered 4.1.3 thread',
    requests: [{ method: 'chat.postMessage', args: { channel: 'C05NWLRELS', thread_ts: '1716285600.000703', text: 'The iOS build is still waiting for App Store review.' } }],
    fails: 'Maya\'s reply in Priya\'s 4.2.0 thread mentions iOS' },
  { scenario: 'swap-reaction-deploy-approved', what: 'the eyes taken off payments-web 3.8.0',
    requests: [
      { method: 'reactions.remove', args: { channel: 'C05NWLDEPL', timestamp: '1717668900.000802', name: 'eyes' } },
      { method: 'reactions.add', args: { channel: 'C05NWLDEPL', timestamp: '1717668900.000802', name: 'white_check_mark' } },
    ],
    fails: 'payments-web 3.8.0 keeps Maya\'s eyes' },
  { scenario: 'join-war-room-post', what: 'the post in #general instead',
    requests: [{ method: 'chat.postMessage', args: { channel: 'C05NWLGENL', text: 'On point for the docs site during the 5.0 launch.' } }],
    fails: 'no post in another channel' },
];

for (const miss of NEAR_MISSES) {
  test(`${miss.scenario}: ${miss.what} fails "${miss.fails}"`, async (t) => {
    const dir = `scenarios/collab/slack-go/${miss.scenario}`;
    const credential = loadScenarioManifest(dir).credentials.slack as Record<string, string>;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      for (const request of miss.requests) {
        const response = await opened.world.dispatch({
          host: HOST, method: 'POST', target: `/api/${request.method}`, headers: [['Content-Type', 'application/x-www-form-urlencoded']],
          body: new TextEncoder().encode(new URLSearchParams({ ...request.args, token: credential.user_token! }).toString()),
        });
        const text = new TextDecoder().decode(response.body);
        t.true(response.status < 300 && !text.includes('"ok":false'), `the near miss itself succeeds: ${text.slice(0, 200)}`);
      }
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: miss.answer ?? null, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0);
      // A state expectation is its match count and one check per field (`<description>: <field> …`).
      const checks = result.checks.filter((c) => c.description === miss.fails || c.description.startsWith(`${miss.fails}: `));
      t.true(checks.length > 0, `a check "${miss.fails}"`);
      t.true(checks.some((c) => !c.ok), `"${miss.fails}" catches it: ${JSON.stringify(checks)}`);
    } finally {
      await opened.world.journal.close();
    }
  });
}
