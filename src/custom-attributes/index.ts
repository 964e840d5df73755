// Custom attributes of users, groups and projects (issue 38): the API administrators use; the lists'
// `custom_attributes` filter and `with_custom_attributes` are the accounts feature's.
import type { Feature } from '../platform/feature.js';
import { customAttributeRoutes } from './routes.js';

export const customAttributesFeature: Feature = {
  name: 'custom-attributes',
  routes(app, deps) {
    customAttributeRoutes(app, deps);
  },
};
