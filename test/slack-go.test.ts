import test from 'ava';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../catalog/stack.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { tempDir } from './helpers/journal.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { testCaDir } from './helpers/proxy.js';

// slack-go (slack-mcp-server 1.3.0, the Go binary) and server-slack on one world: the Go server's
// startup against the mock, one workspace for both servers, and Slack's 429 reaching its calls.

const SCENARIO = 'scenarios/example/slack/two-servers';
const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((part) => part.text).join('\n');
const body = (entry: JournalEntry) => new TextDecoder().decode(entry.response.body);

let stack: Awaited<ReturnType<typeof startStack>>;
const clients: Record<string, Client> = {};
test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  for (const endpoint of ['slack', 'slack-go']) {
    clients[endpoint] = new Client({ name: 'test-agent', version: '1.0.0' });
    await clients[endpoint]!.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp[endpoint]!)));
  }
});
test.after.always(async () => {
  for (const client of Object.values(clients)) await client.close();
  await stack?.close();
});

test.serial('slack-go starts against the mock: auth.test on slack.com, then its workspace host; 19 tools', async (t) => {
  const { tools } = await clients['slack-go']!.listTools();
  t.is(tools.length, 19);
  t.true(['conversations_add_message', 'reactions_add', 'reactions_remove', 'attachment_get_data', 'conversations_mark'].every((name) => tools.some((tool) => tool.name === name)),
    'the add-message, reaction, attachment and mark tools are on');
  const startup = (await journalEntries(stack.world.journal)).filter((e) => e.attribution?.kind === 'startup' && e.attribution.client === 'slack-go');
  t.deepEqual(startup.map((e) => `${e.host} ${e.operation?.name} ${e.operation?.via} ${e.response.status}`), [
    'slack.com auth.test handler 200',
    'slack.com auth.test handler 200',
    'example-co.slack.com users.list handler 200',
    'example-co.slack.com client.userBoot handler 200',
    'example-co.slack.com conversations.list handler 200',
  ]);
  t.like(JSON.parse(body(startup[0]!)), { ok: true, url: 'https://example-co.slack.com/', user_id: 'U01EXAMPL01' });
  const boot = JSON.parse(body(startup[3]!));
  t.like(boot, { ok: true, self: { id: 'U01EXAMPL01', name: 'alice' }, team: { id: 'T01EXAMPLE', domain: 'example-co' } });
  t.true(boot.channels.every((c: { members: string[] }) => c.members.includes('U01EXAMPL01')), 'the boot lists the caller\'s channels');
});

test.serial('one workspace: what server-slack posts, slack-go reads, and the other way round', async (t) => {
  const posted = await clients.slack!.callTool({ name: 'slack_post_message', arguments: { channel_id: 'C01EXENGIN', text: 'Bot here: the v1.3 deploy is queued' } });
  t.like(JSON.parse(text(posted)), { ok: true, message: { user: 'U01EXAMBOT1' } });
  const history = text(await clients['slack-go']!.callTool({ name: 'conversations_history', arguments: { channel_id: 'C01EXENGIN', limit: '5' } }));
  t.regex(history, /U01EXAMBOT1,helper,Helper Bot,C01EXENGIN,,Bot here: the v1\.3 deploy is queued/);

  const reply = text(await clients['slack-go']!.callTool({ name: 'conversations_add_message', arguments: { channel_id: 'C01EXENGIN', text: 'Alice here: *thanks*, watching it' } }));
  const ts = /ts=(\d{10}\.\d{6})/.exec(reply)?.[1];
  t.truthy(ts, reply);
  const seen = JSON.parse(text(await clients.slack!.callTool({ name: 'slack_get_channel_history', arguments: { channel_id: 'C01EXENGIN', limit: 3 } })));
  // Markdown goes as blocks only; the message's text comes from them (mrkdwn: *x* is _x_).
  t.like(seen.messages[0], { ts, user: 'U01EXAMPL01', text: 'Alice here: _thanks_, watching it' });
  t.like(stack.world.state(['slack']).slack!.messages![`C01EXENGIN/${ts}`], { user: 'U01EXAMPL01', text: 'Alice here: _thanks_, watching it' });

  const found = text(await clients['slack-go']!.callTool({ name: 'conversations_search_messages', arguments: { search_query: 'deploy queued', filter_in_channel: '#engineering' } }));
  t.regex(found, /Bot here: the v1\.3 deploy is queued/, 'search sees the bot\'s post too');
});

test('Slack\'s 429 (ratelimited, Retry-After) reaches slack-go\'s calls', async (t) => {
  const dir = join(tempDir('toolbench-slack-go-'), 'scenario');
  cpSync(SCENARIO, dir, { recursive: true, dereference: true });
  writeFileSync(join(dir, 'scenario.toml'), `${readFileSync(join(SCENARIO, 'scenario.toml'), 'utf8')}
[[faults]]
service = "slack"
route = "/api/conversations.history"
kind = 429
nth = [1]
retry_after = 2
`);
  const faulty = await startStack({ scenarioDir: dir, ports: 'ephemeral', caDir: testCaDir(), endpoints: true });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  t.teardown(async () => { await client.close(); await faulty.close(); });
  await client.connect(new StreamableHTTPClientTransport(new URL(faulty.addresses().mcp['slack-go']!)));
  const result = await client.callTool({ name: 'conversations_history', arguments: { channel_id: 'C01EXENGIN', limit: '5' } });
  const calls = (await journalEntries(faulty.world.journal)).filter((e) => e.attribution?.endpoint === 'slack-go' && e.attribution.tool === 'conversations_history');
  const limited = calls[0]!;
  t.is(limited.response.status, 429);
  t.deepEqual(JSON.parse(body(limited)), { ok: false, error: 'ratelimited' });
  t.true(limited.response.headers.some(([name, value]) => name.toLowerCase() === 'retry-after' && value === '2'));
  // slack-go does not retry a history read: the agent is told, with slack-go's reading of Retry-After.
  t.is(calls.length, 1);
  t.true(result.isError === true);
  t.regex(text(result), /slack rate limit exceeded, retry after 2s/);
});
