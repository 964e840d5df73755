// GET/PUT/DELETE /projects/:id/integrations/slack (and GitLab 14's /services/slack): admin_integrations.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, type ParamRule } from '../platform/http/params.js';
import { CHAT_EVENT_FLAGS, CHAT_STORED_FLAGS, CHANNEL_FIELDS, slackEntity } from './slack-integration.js';
import { deleteSlack, findSlack, saveSlack, type SlackInput } from './save-slack.js';

const TAGS = ['integrations'];
const FLAGS = [...Object.keys(CHAT_EVENT_FLAGS), ...Object.keys(CHAT_STORED_FLAGS)];

const params: Record<string, ParamRule> = {
  id: p.string.required(),
  webhook: p.string.optional(),
  username: p.string.optional({ allowBlank: true }),
  channel: p.string.optional({ allowBlank: true }),
  active: p.boolean.optional(),
  notify_only_broken_pipelines: p.boolean.optional(),
  notify_only_default_branch: p.boolean.optional(),
  branches_to_be_notified: p.string.optional({ values: ['all', 'default', 'protected', 'default_and_protected'] }),
  labels_to_be_notified: p.string.optional({ allowBlank: true }),
  labels_to_be_notified_behavior: p.string.optional({ values: ['match_any', 'match_all'] }),
  ...Object.fromEntries(FLAGS.map((flag) => [flag, p.boolean.optional()])),
  ...Object.fromEntries(CHANNEL_FIELDS.map((field) => [field, p.string.optional({ allowBlank: true })])),
};

export function slackInput(values: Record<string, unknown>): SlackInput {
  return {
    webhook: values.webhook as string | undefined,
    username: values.username as string | undefined,
    channel: values.channel as string | undefined,
    active: values.active as boolean | undefined,
    notify_only_broken_pipelines: values.notify_only_broken_pipelines as boolean | undefined,
    notify_only_default_branch: values.notify_only_default_branch as boolean | undefined,
    branches_to_be_notified: values.branches_to_be_notified as string | undefined,
    labels_to_be_notified: values.labels_to_be_notified as string | undefined,
    labels_to_be_notified_behavior: values.labels_to_be_notified_behavior as string | undefined,
    flags: Object.fromEntries(FLAGS.filter((flag) => values[flag] !== undefined).map((flag) => [flag, values[flag] as boolean])),
    channels: Object.fromEntries(CHANNEL_FIELDS.filter((field) => values[field] !== undefined).map((field) => [field, values[field] as string])),
  };
}

export function slackRoutes(app: FastifyInstance, deps: Deps): void {
  for (const prefix of ['integrations', 'services']) {
    apiRoute(app, deps, {
      method: 'GET', url: `/projects/:id/${prefix}/slack`, summary: 'Get the Slack notifications integration', tags: TAGS,
      ability: { project: 'admin_integrations' },
      params: { id: p.string.required() },
      handler: async ({ project }) => slackEntity(await findSlack(deps, Number((await project()).project.id))),
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/projects/:id/${prefix}/slack`, summary: 'Set up the Slack notifications integration', tags: TAGS,
      ability: { project: 'admin_integrations' },
      params,
      handler: async ({ project, params: values }) => slackEntity(await saveSlack(deps, Number((await project()).project.id), slackInput(values))),
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/projects/:id/${prefix}/slack`, summary: 'Disable the Slack notifications integration', tags: TAGS,
      ability: { project: 'admin_integrations' },
      params: { id: p.string.required() },
      handler: async ({ project }) => {
        await deleteSlack(deps, Number((await project()).project.id));
        return undefined;
      },
    });
  }
}
