import type { DocumentStore, StoreDump } from '../core/store.js';
import { dbOf } from './model.js';

/**
 * What graders see of work items. Azure DevOps names fields with dots (`System.Title`), which
 * the graders' dotted paths cannot address, and every write stamps revision and change fields;
 * so the raw `work_items` collection is volatile and the `workitems` view carries each item's
 * meaningful state under plain names (docs/azure-devops-mock.md, "What graders see"). Other
 * fields are kept under `other` with their dots written as underscores (`Custom_Service`).
 */
const NAMED: Record<string, string> = {
  'System.TeamProject': 'project', 'System.WorkItemType': 'type', 'System.Title': 'title', 'System.State': 'state', 'System.Reason': 'reason',
  'System.AssignedTo': 'assignedTo', 'System.AreaPath': 'area', 'System.IterationPath': 'iteration', 'System.Tags': 'tags', 'System.Description': 'description',
  'Microsoft.VSTS.TCM.ReproSteps': 'reproSteps', 'Microsoft.VSTS.Common.Priority': 'priority', 'Microsoft.VSTS.Common.Severity': 'severity',
  'Microsoft.VSTS.Scheduling.StoryPoints': 'storyPoints', 'System.CreatedBy': 'createdBy', 'Microsoft.VSTS.TCM.Steps': 'steps',
};
/** Stamped by the service on every write (or by a state change): not what an agent chooses. */
const STAMPED = new Set(['System.Id', 'System.Rev', 'System.ChangedDate', 'System.ChangedBy', 'System.AuthorizedDate', 'System.RevisedDate', 'System.CreatedDate',
  'System.CommentCount', 'Microsoft.VSTS.Common.StateChangeDate', 'Microsoft.VSTS.Common.ActivatedDate', 'Microsoft.VSTS.Common.ActivatedBy',
  'Microsoft.VSTS.Common.ResolvedDate', 'Microsoft.VSTS.Common.ResolvedBy', 'Microsoft.VSTS.Common.ResolvedReason', 'Microsoft.VSTS.Common.ClosedDate',
  'Microsoft.VSTS.Common.ClosedBy', 'Microsoft.VSTS.Common.ValueArea']);

const targetId = (url: string) => Number(/(\d+)$/.exec(url)?.[1]);

export function azureDevopsViews(store: DocumentStore): StoreDump {
  const db = dbOf(store);
  const workitems: Record<string, unknown> = {};
  for (const w of db.work_items.values().sort((a, b) => a.id - b.id)) {
    const view: Record<string, unknown> = { id: w.id, assignedTo: null, tags: '' };
    const other: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(w.fields)) {
      if (NAMED[k]) view[NAMED[k]] = v;
      else if (!STAMPED.has(k)) other[k.replace(/\./g, '_')] = v;
    }
    const rel = (name: string) => w.relations.filter((r) => r.rel === name).map((r) => targetId(r.url)).sort((a, b) => a - b);
    view.parent = rel('System.LinkTypes.Hierarchy-Reverse')[0] ?? null;
    view.children = rel('System.LinkTypes.Hierarchy-Forward');
    view.related = rel('System.LinkTypes.Related');
    view.links = w.relations.filter((r) => !['System.LinkTypes.Hierarchy-Reverse', 'System.LinkTypes.Hierarchy-Forward', 'System.LinkTypes.Related'].includes(r.rel)).map((r) => `${r.rel} ${r.url}`).sort();
    view.comments = db.comments.values().filter((x) => x.workItemId === w.id).sort((a, b) => a.id - b.id).map((x) => x.text);
    view.other = other;
    workitems[String(w.id)] = view;
  }
  return { workitems };
}
