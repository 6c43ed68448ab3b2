export const SCIM_URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  searchRequest: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
} as const;
