import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of GitHub's MCP server: in
 * the example scenario's world (alice's token), with values that exist there. The branch the
 * write tools use is created first, and the pull request they open is the one merged later.
 */
export const sweep: SweepProfile = {
  scenario: 'scenarios/example/github/basic',
  order: ['create_branch', 'create_or_update_file', 'push_files', 'create_pull_request'],
  args: {
    common: {
      owner: 'acme', repo: 'widgets', issue_number: 1, pull_number: 39, path: 'README.md', branch: 'conformance-branch',
      q: 'repo:acme/widgets widget', query: 'widgets', head: 'conformance-branch', base: 'main', event: 'COMMENT',
    },
    tools: {
      create_branch: { from_branch: 'main' },
      create_or_update_file: { path: 'docs/conformance.md', content: '# Conformance\n', message: 'Add conformance notes' },
      push_files: { files: [{ path: 'docs/pushed.md', content: 'pushed\n' }], message: 'Push a file' },
      create_pull_request: { title: 'Conformance', body: 'From the sweep' },
      create_repository: { name: 'conformance-repo', autoInit: true },
      get_file_contents: { branch: 'main' },
      merge_pull_request: { pull_number: 40, merge_method: 'squash' },
      search_users: { q: 'alice' },
      search_code: { q: 'widget repo:acme/widgets' },
      update_issue: { title: 'Renamed by the sweep' },
    },
  },
};
