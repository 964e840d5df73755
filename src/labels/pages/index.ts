// The label pages of projects and groups: the list for those who may read labels, the forms for
// those who manage them (admin_label, checked in the handlers so that readers get 403, not 404).
import type { Feature } from '../../platform/feature.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import { GROUP_LABELS_PATTERN, PROJECT_LABELS_PATTERN, renderLabels } from './list-page.js';
import {
  GROUP_DELETE_LABEL_PATTERN, GROUP_EDIT_LABEL_PATTERN, GROUP_NEW_LABEL_PATTERN, PROJECT_DELETE_LABEL_PATTERN, PROJECT_EDIT_LABEL_PATTERN, PROJECT_NEW_LABEL_PATTERN,
  handleDeleteLabel, handleLabelForm, renderEditLabel, renderNewLabel,
} from './form-page.js';
import { groupLabelParent, projectLabelParent } from './shared.js';
import { GROUP_LABEL_SUBSCRIPTION_PATTERN, PROJECT_LABEL_SUBSCRIPTION_PATTERN, handleLabelSubscription } from './subscription-page.js';

export const labelPagesFeature: Feature = {
  name: 'label-pages',
  routes(app, deps) {
    const project = { project: 'read_label' } as const;
    const group = { group: 'read_label' } as const;
    namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_LABELS_PATTERN, ability: project, auth: 'optional', handler: async (context) => renderLabels(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_LABELS_PATTERN, ability: group, auth: 'optional', handler: async (context) => renderLabels(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_NEW_LABEL_PATTERN, ability: project, handler: async (context) => renderNewLabel(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_NEW_LABEL_PATTERN, ability: project, handler: async (context) => handleLabelForm(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_NEW_LABEL_PATTERN, ability: group, handler: async (context) => renderNewLabel(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_NEW_LABEL_PATTERN, ability: group, handler: async (context) => handleLabelForm(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_EDIT_LABEL_PATTERN, ability: project, handler: async (context) => renderEditLabel(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_EDIT_LABEL_PATTERN, ability: project, handler: async (context) => handleLabelForm(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_EDIT_LABEL_PATTERN, ability: group, handler: async (context) => renderEditLabel(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_EDIT_LABEL_PATTERN, ability: group, handler: async (context) => handleLabelForm(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_DELETE_LABEL_PATTERN, ability: project, handler: async (context) => handleDeleteLabel(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_DELETE_LABEL_PATTERN, ability: group, handler: async (context) => handleDeleteLabel(context, groupLabelParent(await context.group())) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_LABEL_SUBSCRIPTION_PATTERN, ability: project, handler: async (context) => handleLabelSubscription(context, projectLabelParent(await context.project())) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_LABEL_SUBSCRIPTION_PATTERN, ability: group, handler: async (context) => handleLabelSubscription(context, groupLabelParent(await context.group())) });
  },
};
