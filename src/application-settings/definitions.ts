// The application settings Kiln stores, as data: GitLab's attribute names, types, defaults and model
// validations (app/models/application_setting.rb, doc/api/settings.md). A setting is added here and
// nowhere else: it has no column of its own (see the migration), only a row once it is changed.
import type { Visibility } from '../platform/db/tables/accounts.js';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;

/** GitLab's numeric visibility levels, which the settings API also accepts for visibilities. */
const VISIBILITY_LEVELS: Record<string, Visibility> = { '0': 'private', '10': 'internal', '20': 'public' };

export type SettingKind = 'boolean' | 'integer' | 'text' | 'url' | 'visibility' | 'visibilities' | 'hosts' | 'choice' | 'hostname' | 'regexp';

export interface SettingDefinition {
  kind: SettingKind;
  default: unknown;
  /** Accepted integers (Grape's `values`, "does not have a valid value"). */
  values?: readonly number[];
  /** A `choice`'s accepted strings (Grape's `values`, "does not have a valid value"). */
  choices?: readonly string[];
  /** Choices GitLab has and Kiln does not behave as: refused with this 400 message. */
  refusedChoices?: Readonly<Record<string, string>>;
  /** Smallest accepted integer, with Rails' numericality message. */
  min?: { value: number; message: string };
  /** Largest accepted integer, with Rails' numericality message. */
  max?: { value: number; message: string };
  /**
   * Kiln has no code path for this setting: it behaves as the default, so only the default is
   * accepted and any other value is refused with this 400 message (a setting that did nothing
   * would answer 200 and change nothing).
   */
  fixed?: string;
}

const atLeastZero = { value: 0, message: 'must be greater than or equal to 0' };
const aboveZero = { value: 1, message: 'must be greater than 0' };

/** A throttle's three settings (GitLab's `throttle_<name>_enabled`, `_requests_per_period`, `_period_in_seconds`). */
function throttle<N extends string>(name: N, enabled: boolean, requests: number, period: number) {
  return {
    [`throttle_${name}_enabled`]: { kind: 'boolean', default: enabled },
    [`throttle_${name}_requests_per_period`]: { kind: 'integer', default: requests, min: aboveZero },
    [`throttle_${name}_period_in_seconds`]: { kind: 'integer', default: period, min: aboveZero },
  } as Record<`throttle_${N}_enabled` | `throttle_${N}_requests_per_period` | `throttle_${N}_period_in_seconds`, SettingDefinition>;
}

/** The throttles GitLab's Rack::Attack applies, by their settings' middle name. */
export const THROTTLES = ['unauthenticated_api', 'unauthenticated_web', 'authenticated_api', 'authenticated_web', 'protected_paths'] as const;
export type ThrottleName = (typeof THROTTLES)[number];

export const SETTINGS = {
  // Sign-up (docs/accounts.md). Kiln starts closed where GitLab starts open (docs/decisions.md).
  signup_enabled: { kind: 'boolean', default: false },
  require_admin_approval_after_user_signup: { kind: 'boolean', default: true },
  send_user_confirmation_email: { kind: 'boolean', default: false },
  domain_allowlist: { kind: 'hosts', default: [] },
  domain_denylist_enabled: { kind: 'boolean', default: false },
  domain_denylist: { kind: 'hosts', default: [] },
  password_authentication_enabled_for_web: { kind: 'boolean', default: true, fixed: 'cannot be disabled: password sign-in is the only sign-in on this server' },
  password_authentication_enabled_for_git: { kind: 'boolean', default: true, fixed: 'cannot be disabled: passwords and tokens are how git authenticates on this server' },
  require_two_factor_authentication: { kind: 'boolean', default: false, fixed: 'cannot be enabled: enforcing two-factor authentication is not supported by this server' },
  two_factor_grace_period: { kind: 'integer', default: 48, min: atLeastZero, fixed: 'is not supported by this server (two-factor authentication is not enforced)' },
  user_oauth_applications: { kind: 'boolean', default: true, fixed: 'cannot be disabled: this server does not support turning off user OAuth applications' },
  user_default_external: { kind: 'boolean', default: false, fixed: 'cannot be enabled: this server has no external users' },
  gravatar_enabled: { kind: 'boolean', default: true, fixed: 'cannot be disabled: this server does not support turning off Gravatar' },
  default_project_visibility: { kind: 'visibility', default: 'private' },
  default_group_visibility: { kind: 'visibility', default: 'private' },
  restricted_visibility_levels: { kind: 'visibilities', default: [] },
  default_projects_limit: { kind: 'integer', default: 100_000, min: atLeastZero },
  // 0 not protected, 1 partially, 2 fully, 3 protected against pushes (Gitlab::Access.protection_values).
  default_branch_protection: { kind: 'integer', default: 2, values: [0, 1, 2, 3], fixed: 'is not supported by this server' },
  // Markdown uploads (src/uploads), in MiB: GitLab's default is 100. Kiln reads an upload whole into
  // memory, so 100 is also the most it accepts.
  max_attachment_size: { kind: 'integer', default: 100, min: { value: 1, message: 'must be greater than 0' }, max: { value: 100, message: 'must be less than or equal to 100' } },
  // The bytes of a snippet's files together that a push to its repository may bring (src/snippets);
  // GitLab's default, 50 MiB.
  snippet_size_limit: { kind: 'integer', default: 52_428_800, min: { value: 1, message: 'must be greater than 0' } },
  session_expire_delay: { kind: 'integer', default: 10_080, min: atLeastZero, fixed: 'is not supported by this server (sessions last one week)' },
  allow_local_requests_from_web_hooks_and_services: { kind: 'boolean', default: false },
  allow_local_requests_from_system_hooks: { kind: 'boolean', default: true },
  outbound_local_requests_whitelist: { kind: 'hosts', default: [] },
  dns_rebinding_protection_enabled: { kind: 'boolean', default: true, fixed: 'cannot be disabled: this server always checks the addresses it connects to' },
  home_page_url: { kind: 'url', default: null, fixed: 'is not supported by this server' },
  after_sign_out_path: { kind: 'url', default: null, fixed: 'is not supported by this server' },
  sign_in_text: { kind: 'text', default: null, fixed: 'is not supported by this server' },
  after_sign_up_text: { kind: 'text', default: null, fixed: 'is not supported by this server' },
  help_page_text: { kind: 'text', default: null, fixed: 'is not supported by this server (it has no help page)' },
  // SSH key restrictions (doc/security/ssh_keys_restrictions.md): -1 forbids the type, 0 allows any
  // size, else the minimum bits. Kiln's RSA default is 2048 (GitLab's is 0 outside FIPS mode) and DSA
  // is forbidden (OpenSSH dropped it; gitlab-sshd refuses it): docs/decisions.md.
  rsa_key_restriction: { kind: 'integer', default: 2048, values: [-1, 0, 1024, 2048, 3072, 4096] },
  dsa_key_restriction: { kind: 'integer', default: -1, values: [-1, 0, 1024, 2048, 3072] },
  ecdsa_key_restriction: { kind: 'integer', default: 0, values: [-1, 0, 256, 384, 521] },
  ed25519_key_restriction: { kind: 'integer', default: 0, values: [-1, 0, 256] },
  ecdsa_sk_key_restriction: { kind: 'integer', default: 0, values: [-1, 0, 256] },
  ed25519_sk_key_restriction: { kind: 'integer', default: 0, values: [-1, 0, 256] },
  // E-mail (admin › Settings › Preferences › Email). Delivery itself is server configuration.
  // html_emails_enabled and email_author_in_body shape every message (src/email/queue-emails.ts);
  // email_confirmation_setting is the confirmation sign-up asks for (src/accounts/confirmation-period.ts);
  // email_restrictions refuse sign-up addresses. Kiln has no private commit e-mails and sends no
  // deactivation mail: commit_email_hostname and user_deactivation_emails_enabled are stored only.
  html_emails_enabled: { kind: 'boolean', default: true },
  email_author_in_body: { kind: 'boolean', default: false },
  // `null` reads as users.noreply.<host> (read-settings.ts), as GitLab's default_commit_email_hostname.
  commit_email_hostname: { kind: 'hostname', default: null },
  // `hard`: no sign-in before the address is confirmed; `soft`: for three days after sign-up, then as `hard`.
  email_confirmation_setting: { kind: 'choice', default: 'off', choices: ['off', 'soft', 'hard'] },
  user_deactivation_emails_enabled: { kind: 'boolean', default: true },
  email_restrictions_enabled: { kind: 'boolean', default: false },
  email_restrictions: { kind: 'regexp', default: '' },
  // Repository housekeeping (doc/administration/housekeeping.md), run by repositories/housekeeping:
  // every `housekeeping_optimize_repository_period` pushes to a project's repository it is optimised.
  // GitLab 15.8 folded the three periods before it into this one (INERT_SETTINGS below).
  housekeeping_enabled: { kind: 'boolean', default: true },
  housekeeping_optimize_repository_period: { kind: 'integer', default: 10, min: aboveZero },
  // User and IP rate limits (doc/administration/settings/user_and_ip_rate_limits.md), applied by
  // throttles.ts: off by default, as in GitLab; requests per period, the period in seconds.
  ...throttle('unauthenticated_api', false, 3600, 3600),
  ...throttle('unauthenticated_web', false, 3600, 3600),
  ...throttle('authenticated_api', false, 7200, 3600),
  ...throttle('authenticated_web', false, 7200, 3600),
  // Protected paths (sign-in, OAuth password grant and consent). The requests' default is
  // KILN_PROTECTED_PATHS_PER_MINUTE (10 unless set) until one is stored: read-settings.ts.
  ...throttle('protected_paths', true, 10, 60),
} satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The values as the reader hands them out, typed by kind. */
/** A throttle's settings as the reader hands them out. */
export type ThrottleSettings = { [N in ThrottleName as `throttle_${N}_enabled`]: boolean } & {
  [N in ThrottleName as `throttle_${N}_requests_per_period` | `throttle_${N}_period_in_seconds`]: number;
};

export interface ApplicationSettings extends ThrottleSettings {
  signup_enabled: boolean;
  require_admin_approval_after_user_signup: boolean;
  send_user_confirmation_email: boolean;
  domain_allowlist: string[];
  domain_denylist_enabled: boolean;
  domain_denylist: string[];
  password_authentication_enabled_for_web: boolean;
  password_authentication_enabled_for_git: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  user_oauth_applications: boolean;
  user_default_external: boolean;
  gravatar_enabled: boolean;
  default_project_visibility: Visibility;
  default_group_visibility: Visibility;
  restricted_visibility_levels: Visibility[];
  default_projects_limit: number;
  default_branch_protection: number;
  max_attachment_size: number;
  snippet_size_limit: number;
  session_expire_delay: number;
  allow_local_requests_from_web_hooks_and_services: boolean;
  allow_local_requests_from_system_hooks: boolean;
  outbound_local_requests_whitelist: string[];
  dns_rebinding_protection_enabled: boolean;
  home_page_url: string | null;
  after_sign_out_path: string | null;
  sign_in_text: string | null;
  after_sign_up_text: string | null;
  help_page_text: string | null;
  rsa_key_restriction: number;
  dsa_key_restriction: number;
  ecdsa_key_restriction: number;
  ed25519_key_restriction: number;
  ecdsa_sk_key_restriction: number;
  ed25519_sk_key_restriction: number;
  html_emails_enabled: boolean;
  email_author_in_body: boolean;
  /** `null` only where the server's configuration was not at hand (readApplicationSettings). */
  commit_email_hostname: string | null;
  email_confirmation_setting: 'off' | 'soft' | 'hard';
  user_deactivation_emails_enabled: boolean;
  email_restrictions_enabled: boolean;
  email_restrictions: string;
  housekeeping_enabled: boolean;
  housekeeping_optimize_repository_period: number;
}

/**
 * Legacy names GitLab still accepts on write (lib/api/settings.rb, "support legacy names"), and the
 * current name each one sets.
 */
export const LEGACY_NAMES: Readonly<Record<string, SettingName>> = {
  signin_enabled: 'password_authentication_enabled_for_web',
  password_authentication_enabled: 'password_authentication_enabled_for_web',
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
  domain_whitelist: 'domain_allowlist',
  domain_blacklist: 'domain_denylist',
  domain_blacklist_enabled: 'domain_denylist_enabled',
  // Before GitLab 14.3 the unauthenticated web throttle was the only unauthenticated one.
  throttle_unauthenticated_enabled: 'throttle_unauthenticated_web_enabled',
  throttle_unauthenticated_requests_per_period: 'throttle_unauthenticated_web_requests_per_period',
  throttle_unauthenticated_period_in_seconds: 'throttle_unauthenticated_web_period_in_seconds',
  // Deprecated in GitLab 15.8 for housekeeping_optimize_repository_period, which it sets.
  housekeeping_incremental_repack_period: 'housekeeping_optimize_repository_period',
};

/**
 * Settings GitLab still accepts and no longer acts on, each with the kind it checks: deprecated in
 * GitLab 15.8, returned as the optimize period (the periods) or true (bitmaps), whatever was sent.
 */
export const INERT_SETTINGS: Readonly<Record<string, SettingDefinition>> = {
  housekeeping_full_repack_period: { kind: 'integer', default: null, min: aboveZero },
  housekeeping_gc_period: { kind: 'integer', default: null, min: aboveZero },
  housekeeping_bitmaps_enabled: { kind: 'boolean', default: true },
};

/** A visibility given as a name or as GitLab's level number, or `null` when it is neither. */
export function visibilityOf(value: string): Visibility | null {
  const text = value.trim().toLowerCase();
  if ((VISIBILITIES as readonly string[]).includes(text)) return text as Visibility;
  return VISIBILITY_LEVELS[text] ?? null;
}
