// Every capability, in registration order. A new feature folder adds one line here.
import type { Feature } from './platform/feature.js';
import { accountsFeature } from './accounts/index.js';
import { issuesFeature } from './issues/index.js';
import { webFeature } from './web/index.js';
import { oauthFeature } from './oauth/index.js';

export const features: Feature[] = [accountsFeature, issuesFeature, webFeature, oauthFeature];
