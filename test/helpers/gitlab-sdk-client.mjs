// Runs @gitbeaker/rest (GitLab's most used Node SDK, unmodified, global fetch) against
// https://gitlab.com/api/v4 through the preload and the TLS proxy; prints one JSON object of what
// it saw. GITLAB_TOKEN.
import { Gitlab } from '@gitbeaker/rest';

const api = new Gitlab({ host: 'https://gitlab.com', token: process.env.GITLAB_TOKEN });
const out = {};
const project = await api.Projects.show('acme/storefront');
out.project = [project.id, project.path_with_namespace, project.default_branch, project.namespace.full_path];
const keyset = await api.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 1 });
out.keyset = keyset.map((p) => p.id);
const page = await api.Issues.all({ projectId: 101, state: 'all', perPage: 2, page: 1, maxPages: 1, showExpanded: true });
out.issuesPage = { iids: page.data.map((i) => i.iid), total: page.paginationInfo.total, next: page.paginationInfo.next, totalPages: page.paginationInfo.totalPages };
const all = await api.Issues.all({ projectId: 'acme/storefront', state: 'opened', perPage: 1 });
out.openIssues = all.map((i) => i.iid);
const created = await api.Issues.create(101, 'Filed by the SDK', { labels: 'bug,sdk', description: 'from gitbeaker' });
await api.IssueNotes.create(101, created.iid, 'A note from the SDK');
const closed = await api.Issues.edit(101, created.iid, { stateEvent: 'close' });
out.issue = [created.iid, created.labels, closed.state];
out.notes = (await api.IssueNotes.all(101, created.iid)).map((n) => [n.body, n.system]);
const labels = await api.ProjectLabels.all(101);
out.labels = labels.map((l) => l.name);
const mr = await api.MergeRequests.show(101, 1);
out.mr = [mr.title, mr.detailed_merge_status, mr.head_pipeline?.status, mr.diff_refs.head_sha === mr.sha];
const diffs = await api.MergeRequests.allDiffs(101, 1);
out.diffs = diffs.map((d) => [d.new_path, d.new_file, d.diff.split('\n')[0]]);
const thread = await api.MergeRequestDiscussions.create(101, 1, 'Clamp pct to [0, 100]?', {
  position: { baseSha: mr.diff_refs.base_sha, startSha: mr.diff_refs.start_sha, headSha: mr.diff_refs.head_sha, positionType: 'text', newPath: 'src/coupons.ts', oldPath: 'src/coupons.ts', newLine: '2' },
});
out.thread = [thread.individual_note, thread.notes[0].type, thread.notes[0].position.new_line];
const errors = {};
try { await api.MergeRequests.accept(101, 1); } catch (e) { errors.merge = [e.cause?.response?.status, e.cause?.description]; }
try { await api.Projects.show('acme/nope'); } catch (e) { errors.project = [e.cause?.response?.status, e.cause?.description]; }
try { await api.MergeRequestDiscussions.create(101, 1, 'off the diff', { position: { baseSha: mr.diff_refs.base_sha, startSha: mr.diff_refs.start_sha, headSha: mr.diff_refs.head_sha, positionType: 'text', newPath: 'src/coupons.ts', newLine: '40' } }); } catch (e) { errors.position = e.cause?.response?.status; }
try { await new Gitlab({ host: 'https://gitlab.com', token: 'glpat-wrong' }).Users.showCurrentUser(); } catch (e) { errors.token = [e.cause?.response?.status, e.cause?.description]; }
out.errors = errors;
const pipelines = await api.Pipelines.all(101, { ref: 'feature/coupons' });
out.pipelines = pipelines.map((p) => [p.id, p.status]);
const jobs = await api.Jobs.all(101, { pipelineId: 9002 });
out.jobs = jobs.map((j) => [j.name, j.status]);
out.log = (await api.Jobs.showLog(101, 70003)).split('\n').filter((l) => l.includes('✗'));
const file = await api.RepositoryFiles.show(101, 'src/cart.ts', 'main');
out.file = [file.file_path, Buffer.from(file.content, 'base64').toString('utf8').split('\n')[0]];
await api.Branches.create(101, 'sdk-branch', 'main');
const commit = await api.Commits.create(101, 'sdk-branch', 'Add notes from the SDK', [{ action: 'create', filePath: 'docs/sdk.md', content: '# SDK\n' }]);
out.commit = [commit.title, commit.parent_ids.length];
out.onBranch = Buffer.from((await api.RepositoryFiles.show(101, 'docs/sdk.md', 'sdk-branch')).content, 'base64').toString('utf8');
const compare = await api.Repositories.compare(101, 'main', 'sdk-branch');
out.compare = compare.diffs.map((d) => d.new_path);
process.stdout.write(JSON.stringify(out));
