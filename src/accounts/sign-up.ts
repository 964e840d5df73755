// A visitor makes their own account (GitLab's RegistrationsController and the sign-up restrictions
// of docs/accounts.md): only while `signup_enabled`; the address's domain must pass the allow and
// deny lists; the account then waits for an administrator (`require_admin_approval_after_user_signup`)
// and/or for its address to be confirmed (email_confirmation_setting `hard`), or is usable at once
// (under `soft` for a grace period before the mailed link must be followed: confirmation-period.ts).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { untrustedRegexpMatches } from '../platform/patterns/untrusted-regexp.js';
import { inTransaction } from '../platform/db/database.js';
import { ConflictError, ForbiddenError, ValidationError } from '../platform/errors.js';
import { readApplicationSettings, type ApplicationSettings } from '../application-settings/api.js';
import { createUser, takenAsFieldError, validateUserFields } from './create-user.js';
import { confirmationMessage, notifyAdminsOfSignUp, queueAccountMail } from './sign-up-emails.js';
import type { UserRow } from './lookup.js';
import { confirmationMode } from './confirmation-period.js';

export interface SignUpInput {
  name: string;
  username: string;
  email: string;
  password: string;
}

/** `active`: signed up and usable; `waiting`: told to wait for approval or a confirmation e-mail. */
export type SignUpOutcome = { kind: 'active'; user: UserRow } | { kind: 'waiting'; approval: boolean };

/** GitLab's domain patterns: `*` stands for any run of characters, the rest matches case-insensitively. */
function domainMatches(patterns: string[], domain: string): boolean {
  return patterns.some((pattern) => {
    const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?');
    return new RegExp(`^${source}$`, 'i').test(domain);
  });
}

/**
 * GitLab's RestrictedSignup: a listed domain passes; with an allowlist nothing else does; then the
 * denylist; then, while enabled, the email_restrictions pattern refuses the addresses it matches.
 */
export function signUpDomainProblem(settings: ApplicationSettings, email: string): string | null {
  if (settings.email_restrictions_enabled && settings.email_restrictions !== '' && untrustedRegexpMatches(settings.email_restrictions, email)) {
    return 'is not allowed. Try again with a different email address, or contact your GitLab admin.';
  }
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (settings.domain_allowlist.length > 0) return domainMatches(settings.domain_allowlist, domain) ? null : 'domain is not authorized for sign-up.';
  if (settings.domain_denylist_enabled && domainMatches(settings.domain_denylist, domain)) return 'is not from an allowed domain.';
  return null;
}


export async function signUp(deps: Deps, input: SignUpInput): Promise<SignUpOutcome> {
  const settings = await readApplicationSettings(deps.db);
  if (!settings.signup_enabled) throw new ForbiddenError('Sign-up is disabled');
  const email = input.email.trim();
  validateUserFields({ ...input, email }, true);
  const domainProblem = signUpDomainProblem(settings, email);
  if (domainProblem) throw new ValidationError({ email: [domainProblem] });
  const approval = settings.require_admin_approval_after_user_signup;
  // `hard` waits for the link; `soft` mails it too but lets the account in for its grace period.
  const mode = confirmationMode(settings);
  const confirm = mode !== 'off';
  const waits = approval || mode === 'hard';
  const token = randomBytes(20).toString('hex');
  try {
    const user = await createUser(deps, { ...input, email }, {
      state: approval ? 'blocked_pending_approval' : 'active',
      confirmationDigest: confirm ? sha256Hex(token) : undefined,
      afterCreate: async (trx, created) => {
        const who = { id: Number(created.id), username: created.username, name: created.name, email: created.email };
        if (approval) await notifyAdminsOfSignUp(deps, trx, who);
        // A sign-up awaiting approval gets its link once approved (approve-user.ts), not before.
        else if (confirm) await queueAccountMail(deps, trx, [confirmationMessage(deps, email, who.id, token)]);
      },
    });
    deps.pokeWorker();
    return waits ? { kind: 'waiting', approval } : { kind: 'active', user };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    if (error.detail === 'Email has already been taken' && waits) {
      // The same answer as a new sign-up, so the form does not tell who has an account here; the
      // address's owner learns of the attempt instead (OWASP's advice for registration forms).
      await inTransaction(deps.db, (trx) => queueAccountMail(deps, trx, [{
        to: email, userId: null, kind: 'signup_existing', subject: 'Sign-up attempt with your e-mail address',
        paragraphs: ['Someone tried to sign up on this Kiln instance with your e-mail address, which already has an account.', { text: 'Forgot your password? Choose a new one', link: `${deps.config.baseUrl}/users/password/new` }],
      }]));
      deps.pokeWorker();
      return { kind: 'waiting', approval };
    }
    throw takenAsFieldError(error);
  }
}
