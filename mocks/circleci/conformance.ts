import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call the 13 tools of CircleCI's MCP server
 * in the conformance world (mocks/circleci/conformance): the storefront's and payments-api's
 * pipelines, a failed release workflow to rerun, a production component to roll back; reads
 * first, writes last. `find_underused_resource_classes` only reads a local CSV file.
 */
const STOREFRONT = 'gh/acme/storefront';
const PAYMENTS = 'gh/acme/payments-api';

type Doc = Record<string, unknown>;
const docs = (state: Record<string, Record<string, unknown>>, collection: string): Doc[] => Object.values(state[collection] ?? {}) as Doc[];

const RANK: Record<string, number> = { run_pipeline: 5, rerun_workflow: 6, run_rollback_pipeline: 7 };

export const sweep: SweepProfile = {
  scenario: 'mocks/circleci/conformance',
  offline: ['find_underused_resource_classes'],
  order: (tool) => RANK[tool] ?? 1,
  // Every tool takes its arguments under `params`.
  argsFor: (tool, state) => ({ params: paramsFor(tool.name, state) }),
};

function paramsFor(tool: string, state: Record<string, Record<string, unknown>>): Record<string, unknown> {
    switch (tool) {
      case 'config_helper': return { configFile: 'version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/node:20.11\n    steps:\n      - checkout\n      - run: npm test\nworkflows:\n  main:\n    jobs:\n      - test\n' };
      case 'download_usage_api_data': return { orgId: String(docs(state, 'org')[0]?.id ?? ''), startDate: '2025-11-01', endDate: '2025-11-10', outputDir: '/tmp' };
      case 'find_underused_resource_classes': return { csvFilePath: '/tmp/toolbench-no-such-usage.csv', threshold: 40 };
      case 'find_flaky_tests': return { projectSlug: STOREFRONT };
      case 'get_build_failure_logs': return { projectSlug: STOREFRONT, branch: 'feature/gift-wrap' };
      case 'get_job_test_results': return { projectSlug: PAYMENTS, branch: 'release/2.4', filterByTestsResult: 'failure' };
      case 'get_latest_pipeline_status': return { projectSlug: STOREFRONT, branch: 'main' };
      case 'list_artifacts': return { projectSlug: STOREFRONT, branch: 'main' };
      case 'list_followed_projects': return {};
      case 'list_component_versions': {
        const component = docs(state, 'components')[0];
        const production = docs(state, 'environments').find((e) => e.name === 'production');
        return { projectSlug: PAYMENTS, orgID: String(docs(state, 'org')[0]?.id ?? ''), componentID: String(component?.id ?? ''), environmentID: String(production?.id ?? '') };
      }
      case 'run_pipeline': return { projectSlug: 'gh/acme/docs-site', branch: 'main' };
      case 'rerun_workflow': {
        const failed = docs(state, 'workflows').find((w) => w.project === PAYMENTS && w.status === 'failed');
        return { workflowId: String(failed?.id ?? ''), fromFailed: true };
      }
      case 'run_rollback_pipeline': return { projectSlug: PAYMENTS, environmentName: 'production', componentName: 'payments-api', currentVersion: '2.4.0', targetVersion: '2.3.9', namespace: 'default', reason: 'conformance sweep' };
      default: return {};
    }
}
