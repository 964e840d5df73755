// GET/PUT /notification_settings, /groups/:id/notification_settings, /projects/:id/notification_settings
// (specification, Notification settings; GitLab's REST API documentation). Any signed-in user who can read the group or
// project may read and change their own setting for it (read_notification_setting).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, type ParamRule, type ParamSchema } from '../platform/http/params.js';
import { ApiError } from '../platform/http/api-error.js';
import { confirmedEmailsOf, findUser } from '../accounts/api.js';
import { EMAIL_EVENTS, isLevel, type EmailEvent, type Level } from './vocabulary.js';
import { findNotificationSetting, GLOBAL_SOURCE, type NotificationSource } from './finder.js';
import { globalNotificationSettingEntity, notificationSettingEntity } from './entities.js';
import { updateNotificationSetting } from './update-notification-setting.js';

/** `level` is a free string in GitLab; the model's enum rejects others and the API answers 400 (§4.1). */
function levelOf(value: string | undefined): Level | undefined {
  if (value === undefined) return undefined;
  if (!isLevel(value)) throw new ApiError(400, { message: `'${value}' is not a valid level` });
  return value;
}

function eventParams(withEpic: boolean): Record<string, ParamRule<boolean, false>> {
  const names: EmailEvent[] = withEpic ? [...EMAIL_EVENTS, 'new_epic'] : [...EMAIL_EVENTS];
  return Object.fromEntries(names.map((name) => [name, p.boolean.optional()]));
}

function eventsFrom(params: Record<string, unknown>, withEpic: boolean): Partial<Record<EmailEvent, boolean>> {
  const names: EmailEvent[] = withEpic ? [...EMAIL_EVENTS, 'new_epic'] : [...EMAIL_EVENTS];
  return Object.fromEntries(names.filter((name) => params[name] !== undefined).map((name) => [name, params[name] as boolean]));
}

export function notificationsRoutes(app: FastifyInstance, deps: Deps): void {
  const tier = deps.config.tier;
  const epics = tier === 'ultimate';

  apiRoute(app, deps, {
    method: 'GET', url: '/notification_settings', summary: 'The global notification setting', tags: ['notification_settings'],
    ability: { instance: 'log_in' },
    handler: async ({ actor }) => {
      const [setting, user] = await Promise.all([findNotificationSetting(deps.db, actor.user.id, GLOBAL_SOURCE), findUser(deps, actor.user.id)]);
      return globalNotificationSettingEntity(setting, tier, user.email, await confirmedEmailsOf(deps, actor.user.id));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/notification_settings', summary: 'Change the global notification setting', tags: ['notification_settings'],
    ability: { instance: 'log_in' },
    params: { level: p.string.optional(), notification_email: p.string.optional(), ...eventParams(epics) },
    handler: async ({ actor, params }) => {
      const setting = await updateNotificationSetting(deps, actor, {
        source: GLOBAL_SOURCE,
        level: levelOf(params.level as string | undefined),
        notificationEmail: params.notification_email as string | undefined,
        events: eventsFrom(params, epics),
      });
      return globalNotificationSettingEntity(setting, tier, (await findUser(deps, actor.user.id)).email, await confirmedEmailsOf(deps, actor.user.id));
    },
  });

  for (const kind of ['groups', 'projects'] as const) {
    const withEpic = epics && kind === 'groups';
    const ability = kind === 'groups' ? { group: 'read_notification_setting' as const } : { project: 'read_notification_setting' as const };
    const sourceOf = async (context: Pick<RouteContext<ParamSchema>, 'group' | 'project'>): Promise<NotificationSource> =>
      kind === 'groups'
        ? { type: 'Namespace', id: Number((await context.group()).group.id) }
        : { type: 'Project', id: Number((await context.project()).project.id) };

    apiRoute(app, deps, {
      method: 'GET', url: `/${kind}/:id/notification_settings`, summary: `Your notification setting for one of the ${kind}`, tags: ['notification_settings'],
      ability,
      params: { id: p.string.required() },
      handler: async (context) => {
        const { actor } = context;
        const source = await sourceOf(context);
        return notificationSettingEntity(await findNotificationSetting(deps.db, actor.user.id, source), tier);
      },
    });

    apiRoute(app, deps, {
      method: 'PUT', url: `/${kind}/:id/notification_settings`, summary: `Change your notification setting for one of the ${kind}`, tags: ['notification_settings'],
      ability,
      params: { id: p.string.required(), level: p.string.optional(), ...eventParams(withEpic) },
      handler: async (context) => {
        const { actor, params } = context;
        const source = await sourceOf(context);
        const level = levelOf(params.level as string | undefined);
        const setting = await updateNotificationSetting(deps, actor, { source, level, events: eventsFrom(params, withEpic) });
        return notificationSettingEntity(setting, tier);
      },
    });
  }
}
