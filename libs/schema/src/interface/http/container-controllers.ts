import { SCOPES } from '@workbase/shared/kernel';
import { ContainerResolver } from '../../application/container-resolver';
import { containerLookup, createAttributesController } from './attributes.controller';
import { ListsController } from './lists.controller';
import { ObjectsController } from './objects.controller';
import { createViewsController } from './views.controller';

const OBJECT = {
  readScopes: [SCOPES.objectConfigurationRead],
  writeScopes: [SCOPES.objectConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.object(workspaceId, identifier)),
};
const LIST = {
  readScopes: [SCOPES.listConfigurationRead],
  writeScopes: [SCOPES.listConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.list(workspaceId, identifier)),
};

const ObjectAttributesController = createAttributesController({ ...OBJECT, path: 'objects', noun: 'object', tag: 'Object attributes' });
const ListAttributesController = createAttributesController({ ...LIST, path: 'lists', noun: 'list', tag: 'List attributes' });
const ObjectViewsController = createViewsController({ ...OBJECT, kind: 'object' });
const ListViewsController = createViewsController({ ...LIST, kind: 'list' });

/**
 * The schema's endpoints under `/v2/objects` and `/v2/lists`: the objects and lists themselves
 * and their attributes and views. The records context mounts them between its own (`.../records`,
 * `.../entries`), which share the two path trees: Swagger documents routes in the order modules
 * mount them, so the document reads each tree from its container down to its records.
 */
export const OBJECT_CONTROLLERS = [ObjectsController, ObjectAttributesController, ObjectViewsController] as const;
export const LIST_CONTROLLERS = [ListsController, ListAttributesController, ListViewsController] as const;
