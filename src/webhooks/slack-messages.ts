// Slack incoming-webhook messages in the shape of GitLab's Integrations::ChatMessage classes: a text
// line with Slack links (`<url|label>`) and attachments. Mattermost accepts the same payloads.
import type { Deps } from '../platform/deps.js';
import type { DomainEvent } from '../platform/domain-events.js';
import { severityName, titleCase } from '../alerts/api.js';
import { issueHookData, noteHookData } from './payloads/issue.js';
import { pushHookData } from './payloads/push.js';
import { snippetNoteHookData } from './payloads/snippet-note.js';
import { deploymentHookData } from './payloads/deployment.js';
import { projectForHook } from './payloads/common.js';
import { projectWebUrl } from '../accounts/api.js';
import { mergeRequestHookData, mergeRequestNoteHookData } from './payloads/merge-request.js';

export interface ChatMessage {
  /** Which per-event channel field applies (issue_channel, alert_channel, …). */
  channelField: string;
  text: string;
  attachments: Array<Record<string, unknown>>;
}

/** Slack's escaping of &, < and > in text (they delimit links). */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const link = (url: string, label: string) => `<${url}|${escape(label)}>`;
const firstLine = (text: string) => text.split('\n')[0].trimEnd();
const combinedName = (user: { name: string; username: string } | null | undefined) => (user ? `${escape(user.name)} (${escape(user.username)})` : 'Someone');
const ALERT_STATUSES = ['Triggered', 'Acknowledged', 'Resolved', 'Ignored'];

export async function chatMessage(deps: Deps, event: DomainEvent): Promise<ChatMessage | null> {
  switch (event.kind) {
    case 'alert.created':
      return alertMessage(deps, event.alertId);
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened': {
      const action = event.kind === 'issue.opened' ? 'open' : event.kind === 'issue.closed' ? 'close' : 'reopen';
      const built = await issueHookData(deps, { issueId: event.issueId, actorId: event.actorId, action });
      if (!built) return null;
      const { data } = built;
      const issue = data.object_attributes;
      const title = `#${issue.iid} ${issue.title}`;
      const state = { open: 'opened', close: 'closed', reopen: 'reopened' }[action];
      return {
        channelField: built.confidential ? 'confidential_issue_channel' : 'issue_channel',
        text: `[${link(data.project.web_url, data.project.path_with_namespace)}] Issue ${link(issue.url, title)} ${state} by ${combinedName(data.user)}`,
        attachments: action === 'open' ? [{ title: escape(title), title_link: issue.url, text: escape(issue.description ?? ''), color: '#C95823' }] : [],
      };
    }
    case 'merge_request.opened':
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.merged':
    case 'merge_request.approved':
    case 'merge_request.unapproved': {
      const data = await mergeRequestHookData(deps, event);
      if (!data) return null;
      const mr = data.object_attributes;
      // GitLab's MergeMessage: the action for approvals, otherwise the state the event left (a reopened one is `opened`).
      const done = mr.action === 'approved' || mr.action === 'unapproved' ? mr.action : mr.state;
      const title = `!${mr.iid} *${firstLine(mr.title)}*`;
      return {
        channelField: 'merge_request_channel',
        text: `${combinedName(data.user)} ${done} merge request ${link(mr.url, title)} in ${link(data.project.web_url, data.project.path_with_namespace)}`,
        attachments: [],
      };
    }
    case 'note.created': {
      if (event.noteableType === 'MergeRequest') {
        const data = await mergeRequestNoteHookData(deps, { noteId: event.noteId });
        if (!data) return null;
        return {
          channelField: 'note_channel',
          text: `${combinedName(data.user)} ${link(data.object_attributes.url, `commented on merge request !${data.merge_request.iid}`)} in ${link(data.project.web_url, data.project.path_with_namespace)}: *${escape(firstLine(data.merge_request.title))}*`,
          attachments: [{ text: escape(data.object_attributes.note), color: '#345' }],
        };
      }
      if (event.noteableType === 'Snippet') {
        // GitLab's NoteMessage for a snippet: "commented on snippet $<id>", the snippet's title.
        const data = await snippetNoteHookData(deps, { noteId: event.noteId });
        if (!data) return null;
        return {
          channelField: 'note_channel',
          text: `${combinedName(data.user)} ${link(data.object_attributes.url, `commented on snippet $${data.snippet.id}`)} in ${link(data.project.web_url, data.project.path_with_namespace)}: *${escape(firstLine(data.snippet.title))}*`,
          attachments: [{ text: escape(data.object_attributes.note), color: '#345' }],
        };
      }
      const built = await noteHookData(deps, { noteId: event.noteId, actorId: event.actorId });
      if (!built) return null;
      const { data } = built;
      return {
        channelField: built.confidential ? 'confidential_note_channel' : 'note_channel',
        text: `${combinedName(data.user)} ${link(data.object_attributes.url, `commented on issue #${data.issue.iid}`)} in ${link(data.project.web_url, data.project.path_with_namespace)}: *${escape(data.issue.title)}*`,
        attachments: [{ text: escape(data.object_attributes.note), color: '#345' }],
      };
    }
    case 'push': {
      const data = await pushHookData(deps, event);
      if (!data) return null;
      const tag = event.ref.startsWith('refs/tags/');
      const name = event.ref.replace(/^refs\/(heads|tags)\//, '');
      const kind = tag ? 'tag' : 'branch';
      const web = data.project.web_url;
      const refLink = link(`${web}/-/${tag ? 'tags' : 'commits'}/${name}`, name);
      const projectLink = link(web, data.project.path_with_namespace);
      const who = combinedName(data.user_username ? { name: data.user_name!, username: data.user_username } : null);
      let text: string;
      if (event.after === null) text = `${who} removed ${kind} ${escape(name)} from ${projectLink}`;
      else if (event.before === null) text = `${who} pushed new ${kind} ${refLink} to ${projectLink}`;
      else text = `${who} pushed to ${kind} ${refLink} of ${projectLink} (${link(`${web}/-/compare/${event.before.slice(0, 8)}...${event.after.slice(0, 8)}`, 'Compare changes')})`;
      return {
        channelField: tag ? 'tag_push_channel' : 'push_channel',
        text,
        attachments: tag ? [] : [{ text: data.commits.map((commit) => `${link(commit.url, commit.id.slice(0, 8))}: ${escape(commit.title)} - ${escape(commit.author.name)}`).join('\n'), color: '#345' }],
      };
    }
    case 'deployment.status_changed': {
      const data = await deploymentHookData(deps, { deploymentId: event.deploymentId, actorId: event.actorId, status: event.status });
      if (!data) return null;
      const status = data.status === 'success' ? 'succeeded' : data.status === 'running' ? 'started' : data.status;
      const color = data.status === 'success' ? 'good' : data.status === 'failed' ? 'danger' : 'warning';
      return {
        channelField: 'deployment_channel',
        text: `Deploy to ${escape(data.environment)} ${status}`,
        attachments: [{ text: `${link(data.project.web_url, data.project.path_with_namespace)} by ${combinedName(data.user)}\n${link(data.commit_url, data.short_sha)}`, color }],
      };
    }
    default:
      return null;
  }
}

/** What an alert's message shows: the alert as stored, its project's path and its count of events. */
export interface AlertForChat {
  title: string;
  iid: number;
  severity: number;
  status: number;
  started_at: number;
  service: string | null;
  full_path: string;
  events: number;
}

/** GitLab's AlertMessage: "Alert firing in <project>", the alert's title linked, its severity, events, status and start. */
export function alertMessageOf(deps: Deps, alert: AlertForChat): ChatMessage {
  const webUrl = projectWebUrl(deps.config.baseUrl, alert.full_path);
  const fields = [
    { title: 'Severity', value: titleCase(severityName(Number(alert.severity))), short: true },
    { title: 'Events', value: Number(alert.events), short: true },
    { title: 'Status', value: ALERT_STATUSES[Number(alert.status)] ?? 'Triggered', short: true },
    { title: 'Start time', value: new Date(Number(alert.started_at)).toISOString(), short: true },
  ];
  if (alert.service) fields.push({ title: 'Service', value: escape(alert.service), short: true } as (typeof fields)[number]);
  return {
    channelField: 'alert_channel',
    text: `Alert firing in ${escape(alert.full_path)}`,
    attachments: [{ title: escape(alert.title), title_link: `${webUrl}/-/alert_management/${alert.iid}/details`, color: '#C95823', fields }],
  };
}

/** The message of a job queued before alert messages were built at the event. */
async function alertMessage(deps: Deps, alertId: number): Promise<ChatMessage | null> {
  const alert = await deps.db.selectFrom('alert_management_alerts').selectAll().where('id', '=', alertId).executeTakeFirst();
  if (!alert) return null;
  const project = await projectForHook(deps, Number(alert.project_id));
  if (!project) return null;
  const count = await deps.db.selectFrom('alert_management_event_counts').select('events').where('alert_id', '=', alert.id).executeTakeFirst();
  return alertMessageOf(deps, { ...alert, full_path: project.full_path, events: Number(count?.events ?? 1) });
}
