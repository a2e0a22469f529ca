import { jsonResponse } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { identityRef, meOf, projectOf, projectRef, q, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, badRequest, list, type ProjectDoc, type TestPlanDoc, type TestSuiteDoc } from './model.js';
import { workItemOf, witUrl } from './wit.js';

/**
 * Test plans (`_apis/testplan`: plans, suites, suite test cases), the older Test area's
 * add-test-cases-to-suite, and test results by build (`_apis/testresults`, on vstmr.dev.azure.com).
 */

const TEST_NS = 'Microsoft.TeamFoundation.TestManagement.WebApi';

function planOf(c: AdoCtx, p: ProjectDoc, id: string): TestPlanDoc {
  const plan = c.db.test_plans.get(String(Number(id)));
  if (!plan || plan.project !== p.id) throw adoError(404, 'TestObjectNotFoundException', `Test plan ${id} not found.`, { namespace: TEST_NS });
  return plan;
}

function suiteOf(c: AdoCtx, plan: TestPlanDoc, id: string): TestSuiteDoc {
  const suite = c.db.test_suites.get(String(Number(id)));
  if (!suite || suite.plan !== plan.id) throw adoError(404, 'TestObjectNotFoundException', `Test suite ${id} not found in plan ${plan.id}.`, { namespace: TEST_NS });
  return suite;
}

function renderPlan(c: AdoCtx, plan: TestPlanDoc, details: boolean) {
  const p = c.db.projects.get(plan.project)!;
  return {
    id: plan.id, name: plan.name, areaPath: plan.areaPath, iteration: plan.iteration, state: plan.state, revision: plan.revision,
    rootSuite: { id: plan.rootSuite, name: plan.name }, project: projectRef(c, p), owner: identityRef(c, plan.owner),
    ...(details ? { updatedBy: identityRef(c, plan.owner), updatedDate: p.lastUpdateTime, description: '' } : {}),
    _links: { _self: { href: `${c.base}/${p.id}/_apis/testplan/Plans/${plan.id}` }, rootSuite: { href: `${c.base}/${p.id}/_apis/testplan/Plans/${plan.id}/Suites/${plan.rootSuite}` } },
  };
}

function renderSuite(c: AdoCtx, s: TestSuiteDoc) {
  const plan = c.db.test_plans.get(String(s.plan))!;
  return {
    id: s.id, name: s.name, suiteType: s.suiteType, hasChildren: c.db.test_suites.values().some((x) => x.parent === s.id),
    ...(s.parent !== null ? { parentSuite: { id: s.parent, name: c.db.test_suites.get(String(s.parent))?.name } } : {}),
    plan: { id: plan.id, name: plan.name }, project: projectRef(c, c.db.projects.get(s.project)!), revision: 1, inheritDefaultConfigurations: true,
    _links: { _self: { href: `${c.base}/${s.project}/_apis/testplan/Plans/${s.plan}/Suites/${s.id}` }, testCases: { href: `${c.base}/${s.project}/_apis/testplan/Plans/${s.plan}/Suites/${s.id}/TestCase` } },
  };
}

export const testOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans'>('testplan.getTestPlans', ado('GET', '/testplan/Plans'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const active = q(call.req, 'filterActivePlans') === 'true';
    const details = q(call.req, 'includePlanDetails') === 'true';
    return list(c.db.test_plans.values().filter((x) => x.project === p.id && (!active || x.state === 'Active')).sort((a, b) => a.id - b.id).map((x) => renderPlan(c, x, details)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans'>('testplan.createTestPlan', ado('POST', '/testplan/Plans'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const body = (call.req.json() ?? {}) as { name?: string; iteration?: string; areaPath?: string; description?: string; startDate?: string; endDate?: string };
    if (!body.name || body.name.trim() === '') throw badRequest('The test plan name is required.');
    const iteration = body.iteration ?? p.name;
    if (iteration !== p.name && !c.db.iterations.values().some((i) => i.project === p.id && i.path.toLowerCase() === iteration.toLowerCase())) {
      throw adoError(400, 'TestObjectNotFoundException', `The iteration path ${iteration} does not exist.`, { namespace: TEST_NS });
    }
    const id = c.ctx.ids.next('testplan');
    const suite = c.ctx.ids.next('testsuite');
    const plan = c.db.test_plans.put(String(id), { id, project: p.id, name: body.name.trim(), iteration, state: 'Active', rootSuite: suite, areaPath: body.areaPath ?? p.name, owner: meOf(c).uniqueName, revision: 1 });
    c.db.test_suites.put(String(suite), { id: suite, plan: id, project: p.id, name: plan.name, parent: null, suiteType: 'staticTestSuite', testCases: [] });
    return jsonResponse(200, renderPlan(c, plan, true));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans/:planId'>('testplan.getTestPlanById', ado('GET', '/testplan/Plans/:planId'), (call, c) =>
    jsonResponse(200, renderPlan(c, planOf(c, projectOf(c, call.params.project), call.params.planId), true))),
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans/:planId/Suites'>('testplan.getTestSuitesForPlan', ado('GET', '/testplan/Plans/:planId/Suites'), (call, c) => {
    const plan = planOf(c, projectOf(c, call.params.project), call.params.planId);
    return list(c.db.test_suites.values().filter((s) => s.plan === plan.id).sort((a, b) => a.id - b.id).map((s) => renderSuite(c, s)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans/:planId/Suites'>('testplan.createTestSuite', ado('POST', '/testplan/Plans/:planId/Suites'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const plan = planOf(c, p, call.params.planId);
    const body = (call.req.json() ?? {}) as { name?: string; suiteType?: unknown; parentSuite?: { id?: number } };
    if (!body.name || body.name.trim() === '') throw badRequest('The test suite name is required.');
    const parent = suiteOf(c, plan, String(body.parentSuite?.id ?? plan.rootSuite));
    if (c.db.test_suites.values().some((s) => s.parent === parent.id && s.name.toLowerCase() === body.name!.trim().toLowerCase())) {
      throw adoError(409, 'TestObjectAlreadyExistsException', `A test suite named ${body.name} already exists under suite ${parent.id}.`, { namespace: TEST_NS });
    }
    const id = c.ctx.ids.next('testsuite');
    const type = body.suiteType === 2 || body.suiteType === 'staticTestSuite' || body.suiteType === undefined ? 'staticTestSuite' : String(body.suiteType);
    const s = c.db.test_suites.put(String(id), { id, plan: plan.id, project: p.id, name: body.name.trim(), parent: parent.id, suiteType: type, testCases: [] });
    return jsonResponse(200, renderSuite(c, s));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/testplan/Plans/:planId/Suites/:suiteId/TestCase'>('testplan.getTestCaseList', ado('GET', '/testplan/Plans/:planId/Suites/:suiteId/TestCase'), (call, c) => {
    const plan = planOf(c, projectOf(c, call.params.project), call.params.planId);
    const suite = suiteOf(c, plan, call.params.suiteId);
    return list(suite.testCases.map((id, k) => {
      const w = workItemOf(c, id);
      return {
        testPlan: { id: plan.id, name: plan.name }, testSuite: { id: suite.id, name: suite.name }, order: k + 1,
        workItem: { id: w.id, name: w.fields['System.Title'], workItemFields: [{ 'System.State': w.fields['System.State'] }, { 'Microsoft.VSTS.Common.Priority': w.fields['Microsoft.VSTS.Common.Priority'] ?? 2 }] },
        pointAssignments: [{ id: suite.id * 1000 + k + 1, configurationId: 1, configurationName: 'Windows 10', tester: identityRef(c, plan.owner) }],
        links: { testPoints: { href: `${c.base}/${plan.project}/_apis/testplan/Plans/${plan.id}/Suites/${suite.id}/TestPoint/${w.id}` } },
      };
    }));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/test/Plans/:planId/Suites/:suiteId/TestCases/:ids'>('test.addTestCasesToSuite', ado('POST', '/test/Plans/:planId/Suites/:suiteId/TestCases/:ids'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const plan = planOf(c, p, call.params.planId);
    const suite = suiteOf(c, plan, call.params.suiteId);
    const ids = decodeURIComponent(call.params.ids).split(',').map((s) => Number(s.trim()));
    const added = ids.map((id) => {
      const w = workItemOf(c, id);
      if (w.fields['System.WorkItemType'] !== 'Test Case') throw adoError(400, 'TestObjectNotFoundException', `Work item ${id} is not a test case.`, { namespace: TEST_NS });
      return w;
    });
    const testCases = [...suite.testCases];
    for (const w of added) {
      if (testCases.includes(w.id)) throw adoError(409, 'TestObjectAlreadyExistsException', `Test case ${w.id} is already in suite ${suite.id}.`, { namespace: TEST_NS });
      testCases.push(w.id);
    }
    c.db.test_suites.put(String(suite.id), { ...suite, testCases });
    return list(added.map((w) => ({ testCase: { id: String(w.id), url: witUrl(c, w.id), webUrl: `${c.base}/_workitems/edit/${w.id}` }, pointAssignments: [] })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/testresults/resultdetailsbybuild'>('testresults.getTestResultDetailsForBuild', ado('GET', '/testresults/resultdetailsbybuild'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const buildId = Number(q(call.req, 'buildId'));
    const build = c.db.builds.get(String(buildId));
    if (!build || build.project !== p.id) throw adoError(404, 'TestObjectNotFoundException', `Build ${q(call.req, 'buildId')} not found.`, { namespace: TEST_NS });
    const outcomes = /Outcome\s+eq\s+([\w,]+)/i.exec(q(call.req, '$filter') ?? '')?.[1]?.split(',').map((o) => o.toLowerCase());
    const results = c.db.test_results.values().filter((r) => r.build === buildId && (outcomes === undefined || outcomes.includes(r.outcome.toLowerCase())));
    const byOutcome = new Map<string, typeof results>();
    for (const r of results) byOutcome.set(r.outcome, [...(byOutcome.get(r.outcome) ?? []), r]);
    const withDetails = q(call.req, 'shouldIncludeResults') === 'true';
    return jsonResponse(200, {
      groupByField: q(call.req, 'groupBy') ?? '',
      resultsForGroup: [...byOutcome].map(([outcome, rs]) => ({
        groupByValue: outcome,
        resultsCountByOutcome: { [outcome]: { outcome, count: rs.length, duration: `00:00:0${Math.min(9, Math.round(rs.reduce((s, r) => s + r.durationInMs, 0) / 1000))}` } },
        ...(withDetails ? { results: rs.map((r) => ({ id: r.id, testRun: { id: String(r.runId) }, testCaseTitle: r.name, automatedTestName: r.automatedTestName, outcome: r.outcome, durationInMs: r.durationInMs, errorMessage: r.errorMessage, stackTrace: r.stackTrace, project: { id: p.id } })) } : {}),
      })),
    });
  }),
];
