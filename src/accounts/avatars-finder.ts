// A project's or group's avatar file, to serve.
import type { FastifyReply } from 'fastify';
import type { Executor } from '../platform/db/database.js';
import type { AvatarModel } from './avatar-change.js';

export async function findAvatar(executor: Executor, model: AvatarModel, id: number) {
  return executor.selectFrom('avatars').select(['filename', 'content_type', 'data']).where('model_type', '=', model).where('model_id', '=', id).executeTakeFirst();
}

/** Sends a stored avatar as an image that cannot run anything (no sniffing, no scripts). */
export function sendAvatar(reply: FastifyReply, avatar: { content_type: string; data: Uint8Array }, cacheControl: string) {
  return reply
    .type(avatar.content_type)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(Buffer.from(avatar.data));
}
