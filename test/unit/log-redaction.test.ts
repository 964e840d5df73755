// Secrets in query strings never reach the log, however the parameter name is spelled (issue 13,
// item 6): the server decodes `private%5Ftoken` to `private_token` and accepts it as a credential.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/platform/logger.js';

describe('redactUrl', () => {
  it.each([
    ['/api/v4/user?private_token=glpat-s3cret', '/api/v4/user?private_token=[REDACTED]'],
    ['/api/v4/user?private%5Ftoken=glpat-s3cret', '/api/v4/user?private%5Ftoken=[REDACTED]'],
    ['/api/v4/user?private%5ftoken=glpat-s3cret', '/api/v4/user?private%5ftoken=[REDACTED]'],
    ['/api/v4/user?access%5Ftoken=s3cret&per_page=5', '/api/v4/user?access%5Ftoken=[REDACTED]&per_page=5'],
    ['/api/v4/user?%70rivate_token=s3cret', '/api/v4/user?%70rivate_token=[REDACTED]'],
    ['/api/v4/user?private%255Ftoken=s3cret', '/api/v4/user?private%255Ftoken=[REDACTED]'],
    ['/api/v4/user?PRIVATE_TOKEN=s3cret', '/api/v4/user?PRIVATE_TOKEN=[REDACTED]'],
    ['/api/v4/user?private_token[]=s3cret', '/api/v4/user?private_token[]=[REDACTED]'],
    ['/api/v4/user?private_token%5B%5D=s3cret', '/api/v4/user?private_token%5B%5D=[REDACTED]'],
    ['/api/v4/user?private+token=s3cret', '/api/v4/user?private+token=[REDACTED]'],
    ['/api/v4/user?job_token=s3cret;feed_token=s3cret', '/api/v4/user?job_token=[REDACTED];feed_token=[REDACTED]'],
    ['/api/v4/user?private_token%3Ds3cret', '/api/v4/user?[REDACTED]'],
    ['/api/v4/user?private_token=a=s3cret', '/api/v4/user?private_token=[REDACTED]'],
    ['/oauth/authorize?code=s3cret&state=xyz', '/oauth/authorize?code=[REDACTED]&state=xyz'],
    ['/oauth/token?client_secret=s3cret&refresh_token=s3cret&password=s3cret', '/oauth/token?client_secret=[REDACTED]&refresh_token=[REDACTED]&password=[REDACTED]'],
    ['/api/v4/projects?search=token&order_by=id', '/api/v4/projects?search=token&order_by=id'],
    ['/api/v4/projects', '/api/v4/projects'],
    ['/api/v4/projects?', '/api/v4/projects?'],
    ['/api/v4/user?private_token=%E2%82%AC%ZZ', '/api/v4/user?private_token=[REDACTED]'],
  ])('%s → %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
    expect(redactUrl(url)).not.toContain('s3cret');
  });
});
