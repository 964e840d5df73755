// The pure parts of git over SSH: splitting the client's command as gitlab-shell does, repository
// paths as typed, gitlab-shell's message blocks, and the SSH settings of the configuration.
import { describe, expect, it } from 'vitest';
import { repositoryPathOf, splitCommand } from '../../src/ssh/parse-command.js';
import { errorBlock, infoBlock } from '../../src/ssh/console.js';
import { loadConfig } from '../../src/config.js';

describe('splitCommand (go-shellwords as gitlab-shell uses it)', () => {
  const cases: Array<[string, string[] | null]> = [
    ["git-upload-pack 'group/project.git'", ['git-upload-pack', 'group/project.git']],
    ['git-receive-pack "/group/project.git"', ['git-receive-pack', '/group/project.git']],
    ["git upload-pack 'a/b.git'", ['git-upload-pack', 'a/b.git']],
    ['', []],
    ['  ', []],
    ["personal_access_token 'my token' api,read_user 30", ['personal_access_token', 'my token', 'api,read_user', '30']],
    ['a\\ b "c\\"d" \'e"f\'', ['a b', 'c"d', 'e"f']],
    ["git-upload-pack 'open", null],
    ['echo $(id) `id` ; rm -rf /', ['echo', '$(id)', '`id`', ';', 'rm', '-rf', '/']],
  ];
  for (const [command, words] of cases) it(JSON.stringify(command), () => expect(splitCommand(command)).toEqual(words));
});

describe('repositoryPathOf', () => {
  const cases: Array<[string, string]> = [
    ['/group/project.git', 'group/project'],
    ['group/project.git', 'group/project'],
    ['group/sub/project', 'group/sub/project'],
    ['~/group/project.git/', 'group/project'],
    ['group.wiki.git', 'group.wiki'],
  ];
  for (const [typed, path] of cases) it(typed, () => expect(repositoryPathOf(typed)).toBe(path));
});

describe('gitlab-shell message blocks', () => {
  it('frames an error between rules of 72 "=" with remote: prefixes', () => {
    const rule = `remote: ${'='.repeat(72)}\n`;
    expect(errorBlock('No.')).toBe(`remote: \n${rule}remote: \nremote: ERROR: No.\nremote: \n${rule}remote: \n`);
    expect(infoBlock(['a', 'b'])).toBe('remote: \nremote: a\nremote: b\nremote: \n');
  });
});

describe('KILN_SSH_PORT and KILN_SSH_HOST', () => {
  it('defaults to port 2222 and ssh:// URLs on the base URL\'s host', () => {
    const config = loadConfig({});
    expect(config.sshPort).toBe(2222);
    expect(config.sshPortExplicit).toBe(false);
    expect(config.sshUrlPrefix).toBe('ssh://git@127.0.0.1:2222/');
  });

  it('advertises git@host: on port 22, and another host and port when told', () => {
    expect(loadConfig({ KILN_BASE_URL: 'https://kiln.example.com', KILN_SSH_HOST: 'git.example.com:22' }).sshUrlPrefix).toBe('git@git.example.com:');
    expect(loadConfig({ KILN_SSH_PORT: '2200', KILN_BASE_URL: 'https://kiln.example.com' }).sshUrlPrefix).toBe('ssh://git@kiln.example.com:2200/');
    expect(loadConfig({ KILN_SSH_HOST: '[::1]:2022' }).sshUrlPrefix).toBe('ssh://git@[::1]:2022/');
    expect(loadConfig({ KILN_SSH_PORT: 'off' }).sshPort).toBeNull();
    expect(loadConfig({ KILN_SSH_PORT: 'off', KILN_BASE_URL: 'https://kiln.example.com' }).sshUrlPrefix).toBe('git@kiln.example.com:');
  });

  it('refuses values that are no port or host', () => {
    expect(() => loadConfig({ KILN_SSH_PORT: 'twenty' })).toThrow('KILN_SSH_PORT must be a port from 0 to 65535 or "off", got "twenty"');
    expect(() => loadConfig({ KILN_SSH_HOST: 'bad host' })).toThrow('KILN_SSH_HOST must be a host name or address');
    expect(() => loadConfig({ KILN_SSH_HOST: 'host:99999' })).toThrow('KILN_SSH_HOST');
  });
});
