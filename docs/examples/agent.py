"""A minimal agent of your own, in Python, with nothing but the standard library (docs/agents.md).

It speaks MCP's Streamable HTTP transport itself (JSON-RPC over POST; replies as JSON or as an
event stream), as the official SDK (`pip install mcp`) does for you. The model's decisions are
written out for the example scenario: replace `decide` with your model loop.

    npx toolbench record --scenario scenarios/example/github/basic -- python3 docs/examples/agent.py
"""
import json
import os
import urllib.request


class McpSession:
    """One Streamable HTTP session with an MCP endpoint."""

    def __init__(self, url):
        self.url = url
        self.session_id = None
        self.next_id = 1
        # The endpoints are on loopback: never send them through the trial's proxy.
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self.request("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                    "clientInfo": {"name": "my-python-agent", "version": "1.0.0"}})
        self.notify("notifications/initialized")

    def post(self, message):
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        req = urllib.request.Request(self.url, data=json.dumps(message).encode(), headers=headers, method="POST")
        with self.opener.open(req) as response:
            self.session_id = response.headers.get("Mcp-Session-Id", self.session_id)
            return response.headers.get("Content-Type", ""), response.read().decode()

    def notify(self, method):
        self.post({"jsonrpc": "2.0", "method": method})

    def request(self, method, params):
        message_id = self.next_id
        self.next_id += 1
        content_type, body = self.post({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})
        if "text/event-stream" in content_type:
            replies = [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:")]
        else:
            replies = [json.loads(body)]
        reply = next(r for r in replies if r.get("id") == message_id)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']['message']}")
        return reply["result"]

    def call_tool(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})


def decide(instruction, history):
    """Where your model goes: given the instruction and the results so far, the next call or the answer."""
    if not history:
        return {"endpoint": "github", "tool": "create_issue", "arguments": {
            "owner": "acme", "repo": "widgets", "title": "Add a CONTRIBUTING guide", "labels": ["documentation"],
            "body": "Please add contribution guidelines: setup, tests, and how to send a pull request."}}
    issue = json.loads(history[0]["content"][0]["text"])
    return {"answer": f"I opened issue #{issue['number']}, \"{issue['title']}\"."}


def main():
    instruction = os.environ["TOOLBENCH_INSTRUCTION"]
    with open(os.environ["TOOLBENCH_MCP_CONFIG"]) as f:
        config = json.load(f)
    sessions = {name: McpSession(server["url"]) for name, server in config["mcpServers"].items()}
    tools = [tool for s in sessions.values() for tool in s.request("tools/list", {})["tools"]]
    print(f"my-python-agent: {len(tools)} tools on {len(sessions)} endpoint(s)", flush=True)
    history = []
    while True:
        step = decide(instruction, history)
        if "answer" in step:
            with open(os.environ["TOOLBENCH_ANSWER_FILE"], "w") as f:
                f.write(step["answer"])
            return
        result = sessions[step["endpoint"]].call_tool(step["tool"], step["arguments"])
        if result.get("isError"):
            raise SystemExit(f"{step['tool']} failed: {result['content']}")
        history.append(result)


if __name__ == "__main__":
    main()
