// Release evidence (GitLab's Releases::CreateEvidenceService): a snapshot of the release, its project
// and its milestones with their issues, kept as JSON with its SHA-256, so what a release promised can
// be checked later. Collected when a release is made unless it is upcoming or historical (GitLab's rule).
import { createHash } from 'node:crypto';
import type { Executor } from '../platform/db/database.js';
import { isoTime } from '../platform/clock.js';
import type { ReleaseRow } from './finder.js';

export async function collectEvidence(db: Executor, release: ReleaseRow, now: number): Promise<void> {
  const project = await db.selectFrom('projects').select(['id', 'name', 'description', 'created_at']).where('id', '=', release.project_id).executeTakeFirstOrThrow();
  const milestones = await db.selectFrom('release_milestones').innerJoin('milestones', 'milestones.id', 'release_milestones.milestone_id')
    .select(['milestones.id', 'milestones.title', 'milestones.description', 'milestones.state', 'milestones.iid', 'milestones.created_at', 'milestones.due_date'])
    .where('release_milestones.release_id', '=', release.id).orderBy('milestones.id').execute();
  const issues = milestones.length
    ? await db.selectFrom('issues').select(['id', 'title', 'description', 'state', 'iid', 'confidential', 'created_at', 'due_date', 'milestone_id'])
      .where('milestone_id', 'in', milestones.map((row) => row.id)).orderBy('id').limit(1000).execute()
    : [];
  const summary = {
    release: {
      id: Number(release.id),
      tag_name: release.tag_name,
      name: release.name,
      description: release.description,
      created_at: isoTime(release.created_at),
      project: { id: Number(project.id), name: project.name, description: project.description, created_at: isoTime(project.created_at) },
      milestones: milestones.map((milestone) => ({
        id: Number(milestone.id), title: milestone.title, description: milestone.description, state: milestone.state, iid: milestone.iid,
        created_at: isoTime(milestone.created_at), due_date: milestone.due_date,
        issues: issues.filter((issue) => Number(issue.milestone_id) === Number(milestone.id)).map((issue) => ({
          id: Number(issue.id), title: issue.title, description: issue.description, state: issue.state, iid: issue.iid,
          confidential: Number(issue.confidential) === 1, created_at: isoTime(issue.created_at), due_date: issue.due_date,
        })),
      })),
    },
  };
  const text = JSON.stringify(summary);
  await db.insertInto('release_evidences').values({ release_id: release.id, summary: text, summary_sha: createHash('sha256').update(text).digest('hex'), created_at: now }).execute();
}
