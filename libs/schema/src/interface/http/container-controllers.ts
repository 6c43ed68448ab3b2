import { SCOPES } from '@workbase/shared/kernel';
import { ContainerResolver } from '../../application/container-resolver';
import { containerLookup, createAttributesController } from './attributes.controller';
import { ListsController } from './lists.controller';
import { ObjectsController } from './objects.controller';
import { createViewsController } from './views.controller';

const ObjectAttributesController = createAttributesController({
  path: 'objects',
  noun: 'object',
  tag: 'Object attributes',
  readScopes: [SCOPES.objectConfigurationRead],
  writeScopes: [SCOPES.objectConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.object(workspaceId, identifier)),
});

const ListAttributesController = createAttributesController({
  path: 'lists',
  noun: 'list',
  tag: 'List attributes',
  readScopes: [SCOPES.listConfigurationRead],
  writeScopes: [SCOPES.listConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.list(workspaceId, identifier)),
});

const ObjectViewsController = createViewsController({
  kind: 'object',
  readScopes: [SCOPES.objectConfigurationRead],
  writeScopes: [SCOPES.objectConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.object(workspaceId, identifier)),
});

const ListViewsController = createViewsController({
  kind: 'list',
  readScopes: [SCOPES.listConfigurationRead],
  writeScopes: [SCOPES.listConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.list(workspaceId, identifier)),
});

/**
 * The schema's endpoints under `/v2/objects` and `/v2/lists`: the objects and lists themselves
 * and their attributes and views. The records context mounts them between its own (`.../records`,
 * `.../entries`), which share the two path trees: Swagger documents routes in the order modules
 * mount them, so the document reads each tree from its container down to its records.
 */
export const OBJECT_CONTROLLERS = [ObjectsController, ObjectAttributesController, ObjectViewsController] as const;
export const LIST_CONTROLLERS = [ListsController, ListAttributesController, ListViewsController] as const;
