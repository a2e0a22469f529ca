// A minimal agent of your own, in Node, with the official MCP SDK (docs/agents.md). It does what
// a model-driven agent does, with the model's decisions written out for the example scenario:
// read the instruction, connect to every endpoint in the MCP config, list the tools, call them,
// write the final answer. Replace `decide` with your model loop.
//
//   npx toolbench record --scenario scenarios/example/github/basic -- node docs/examples/agent.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const instruction = process.env.TOOLBENCH_INSTRUCTION;
const config = JSON.parse(readFileSync(process.env.TOOLBENCH_MCP_CONFIG, 'utf8'));

// One client per endpoint; every tool, named endpoint.tool as a model would see them.
const clients = {};
const tools = [];
for (const [name, server] of Object.entries(config.mcpServers)) {
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients[name] = client;
  for (const tool of (await client.listTools()).tools) tools.push({ endpoint: name, ...tool });
}
process.stdout.write(`my-agent: ${tools.length} tools on ${Object.keys(clients).length} endpoint(s)\n`);

// Where your model goes: given the instruction and the tools, choose the next call (or stop).
function decide(instructionText, history) {
  if (history.length === 0) {
    return { endpoint: 'github', tool: 'create_issue', arguments: {
      owner: 'acme', repo: 'widgets', title: 'Add a CONTRIBUTING guide', labels: ['documentation'],
      body: 'Please add contribution guidelines: setup, tests, and how to send a pull request.',
    } };
  }
  const issue = JSON.parse(history[0].content[0].text);
  return { answer: `I opened issue #${issue.number}, "${issue.title}".` };
}

const history = [];
for (;;) {
  const step = decide(instruction, history);
  if (step.answer !== undefined) {
    writeFileSync(process.env.TOOLBENCH_ANSWER_FILE, step.answer);
    break;
  }
  const result = await clients[step.endpoint].callTool({ name: step.tool, arguments: step.arguments });
  if (result.isError) throw new Error(`${step.tool} failed: ${JSON.stringify(result.content)}`);
  history.push(result);
}
for (const client of Object.values(clients)) await client.close();
