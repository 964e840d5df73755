// A user's e-mail addresses (GitLab's /user/emails and /users/:id/emails) and the confirmation link.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { findUser } from './lookup.js';
import { createEmail } from './create-email.js';
import { deleteEmail } from './delete-email.js';
import { confirmEmail } from './confirm-email.js';
import { userEmailsQuery } from './emails-finder.js';
import { emailEntity } from './user-entities.js';

export function emailsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/user/emails', summary: 'Your e-mail addresses, with their confirmation', tags: ['users'], paginated: true,
    ability: { instance: 'log_in' },
    handler: async ({ actor, paginate }) => (await paginate(userEmailsQuery(deps, actor.user.id))).map(emailEntity),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/user/emails/:email_id', summary: 'One of your e-mail addresses', tags: ['users'],
    ability: { instance: 'log_in' },
    params: { email_id: p.integer.required() },
    handler: async ({ params, actor }) => {
      const row = await userEmailsQuery(deps, actor.user.id).where('id', '=', params.email_id).executeTakeFirst();
      if (!row) throw new NotFoundError('Email');
      return emailEntity(row);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/user/emails', summary: 'Add an e-mail address (unconfirmed until its confirmation link is followed)', tags: ['users'],
    ability: { instance: 'log_in' },
    params: { email: p.string.required() },
    handler: async ({ params, actor }) => emailEntity((await createEmail(deps, await findUser(deps, actor.user.id), params.email, { confirmed: false })).email),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/user/emails/:email_id', summary: 'Remove one of your e-mail addresses (not the primary one)', tags: ['users'],
    ability: { instance: 'log_in' },
    params: { email_id: p.integer.required() },
    handler: async ({ params, actor }) => {
      await deleteEmail(deps, await findUser(deps, actor.user.id), params.email_id);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/emails', summary: "A user's e-mail addresses (administrators)", tags: ['users'], paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required() },
    handler: async ({ params, paginate }) => {
      const user = await findUser(deps, params.id);
      return (await paginate(userEmailsQuery(deps, Number(user.id)))).map(emailEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users/:id/emails', summary: "Add an e-mail address to a user, confirmed with skip_confirmation (administrators)", tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), email: p.string.required(), skip_confirmation: p.boolean.optional() },
    handler: async ({ params }) => emailEntity((await createEmail(deps, await findUser(deps, params.id), params.email, { confirmed: params.skip_confirmation ?? false })).email),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:id/emails/:email_id', summary: "Remove a user's e-mail address (administrators)", tags: ['users'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), email_id: p.integer.required() },
    handler: async ({ params }) => {
      await deleteEmail(deps, await findUser(deps, params.id), params.email_id);
      return undefined;
    },
  });

  // The link of the confirmation e-mail: the token is the credential (GitLab's Devise confirmation).
  app.get<{ Querystring: { confirmation_token?: string } }>('/-/profile/emails/confirmation', { config: { ability: { credential: 'none' } } }, async (request, reply) => {
    const email = await confirmEmail(deps, String(request.query.confirmation_token ?? ''));
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    if (!email) return reply.code(404).send('Confirmation token is invalid or was already used.');
    return reply.code(200).send(`Your email address has been successfully confirmed: ${email}`);
  });
}
