// GitLab's NotificationRecipient rules as tables: which level lets which kind of candidate through
// for which action, the setting that applies (project → nearest group → global), and mentions.
import { describe, expect, it } from 'vitest';
import { effectiveSetting, notifiable, suitableLevel, type IssueAction, type RecipientType } from '../../src/notifications/recipient-rules.js';
import { mentionedUsernames } from '../../src/markdown/mentions.js';

describe('suitableLevel', () => {
  const rows: Array<[string, RecipientType, IssueAction, boolean]> = [
    ['disabled', 'participating', 'new_note', false],
    ['disabled', 'mention', 'new_note', false],
    ['participating', 'participating', 'close_issue', true],
    ['participating', 'watch', 'close_issue', true],
    ['watch', 'watch', 'new_issue', true],
    ['watch', 'watch', 'issue_due', false],
    ['mention', 'participating', 'new_note', false],
    ['mention', 'mention', 'new_note', true],
    ['custom', 'custom', 'close_issue', false],
    ['custom', 'participating', 'close_issue', true],
    ['custom', 'mention', 'reopen_issue', true],
    ['global', 'participating', 'new_note', false],
  ];
  it.each(rows)('%s level, %s candidate, %s → %s', (level, type, action, expected) => {
    expect(suitableLevel({ level }, type, action)).toBe(expected);
  });

  it('custom with the event switched on lets a custom candidate through', () => {
    expect(suitableLevel({ level: 'custom', close_issue: 1 }, 'custom', 'close_issue')).toBe(true);
    expect(suitableLevel({ level: 'custom', close_issue: 1 }, 'custom', 'reopen_issue')).toBe(false);
  });
});

describe('notifiable', () => {
  const base = { setting: { level: 'watch' }, isActor: false, hasAccess: true, unsubscribed: false };
  it('never the actor, never without access', () => {
    expect(notifiable({ ...base, type: 'watch', isActor: true }, 'new_note')).toBe(false);
    expect(notifiable({ ...base, type: 'subscription', hasAccess: false }, 'new_note')).toBe(false);
  });
  it('a subscriber whatever the level; an unsubscribed user only for a mention', () => {
    expect(notifiable({ ...base, type: 'subscription', setting: { level: 'disabled' } }, 'new_note')).toBe(true);
    expect(notifiable({ ...base, type: 'watch', unsubscribed: true }, 'new_note')).toBe(false);
    expect(notifiable({ ...base, type: 'mention', unsubscribed: true }, 'new_note')).toBe(true);
  });
});

describe('effectiveSetting', () => {
  const global: { level: string; id?: string } = { level: 'participating', id: 'global' };
  it('takes the project, else the nearest group that is not global, else the global setting', () => {
    expect(effectiveSetting({ level: 'mention' }, [{ level: 'watch' }], global).level).toBe('mention');
    expect(effectiveSetting({ level: 'global' }, [{ level: 'global' }, { level: 'watch' }], global).level).toBe('watch');
    expect(effectiveSetting({ level: 'global' }, [{ level: 'disabled' }, { level: 'watch' }], global).level).toBe('disabled');
    expect(effectiveSetting(undefined, [undefined], global)).toBe(global);
  });
});

describe('mentionedUsernames', () => {
  const rows: Array<[string, string[]]> = [
    ['hi @Alice and @bob.', ['alice', 'bob']],
    ['mail me at carol@example.com', []],
    ['`@code` and\n```\n@fenced\n```\n@after', ['after']],
    ['@all hands', []],
    ['(@dave) @eve-', ['dave', 'eve']],
  ];
  it.each(rows)('%j → %j', (text, expected) => {
    expect(mentionedUsernames(text)).toEqual(expected);
  });
});

describe('KILN_SMTP_URL and KILN_EMAIL_FROM', () => {
  it('accept smtp:// and smtps:// URLs and an address with or without a name; refuse others, naming the variable', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config.js');
    expect(loadConfig({}).smtpUrl).toBeNull();
    expect(loadConfig({ KILN_SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe('smtps://u:p@mail.example.com:465');
    expect(() => loadConfig({ KILN_SMTP_URL: 'http://mail.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ KILN_SMTP_URL: 'smtp://u:secret@' })).toThrow(/KILN_SMTP_URL/);
    expect(() => loadConfig({ KILN_SMTP_URL: 'smtp://u:secret@' })).not.toThrow(/secret/);
    expect(loadConfig({ KILN_BASE_URL: 'https://git.example.org' }).emailFrom).toBe('kiln@git.example.org');
    expect(loadConfig({ KILN_EMAIL_FROM: 'Kiln <kiln@example.com>' }).emailFrom).toBe('Kiln <kiln@example.com>');
    expect(() => loadConfig({ KILN_EMAIL_FROM: 'not an address' })).toThrow(/KILN_EMAIL_FROM/);
  });
});
