import { ForbiddenError } from '@workbase/shared/kernel';
import { readPatchRequest } from './patch';
import { applyUserPatch, assertNoSelfPromotion, memberEmailOf, readUserBody, type UserDocument } from './scim-user';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ops = (...Operations: unknown[]) => readPatchRequest({ schemas: [PATCH], Operations });
const base = (): UserDocument => ({ userName: 'u', active: true, appRole: 'member', emails: [{ value: 'a@x.test', type: 'work', primary: true }] });

describe('SCIM user documents', () => {
  it('never lets a token raise its own member: member→admin or inactive→active on itself is forbidden, anything else passes', () => {
    expect(() => assertNoSelfPromotion('m1', 'm1', 'member', 'admin', true, true)).toThrow(ForbiddenError);
    expect(() => assertNoSelfPromotion('m1', 'm1', 'member', 'member', false, true)).toThrow(ForbiddenError);
    expect(() => assertNoSelfPromotion('m1', 'm1', 'admin', 'member', true, true)).not.toThrow();
    expect(() => assertNoSelfPromotion('m1', 'm2', 'member', 'admin', true, true)).not.toThrow();
    expect(() => assertNoSelfPromotion(null, 'm1', 'member', 'admin', true, true)).not.toThrow();
  });

  it('reads bodies case-insensitively, with the enterprise extension as an object or URN keys, ignoring unknown and read-only attributes', () => {
    const doc = readUserBody({
      SCHEMAS: [USER],
      USERNAME: ' someone ',
      Title: 'T',
      password: 'secret',
      groups: [{ value: 'g' }],
      [ENTERPRISE]: { Department: 'D' },
      [`${ENTERPRISE}:costCenter`]: 'C',
      'name.givenName': 'G',
    });
    expect(doc).toEqual({ userName: 'someone', title: 'T', [ENTERPRISE]: { department: 'D', costCenter: 'C' }, name: { givenName: 'G' }, active: true, appRole: 'member' });
  });

  it('filtered paths update matching elements, create the element a pure eq filter describes, and remove only matches', () => {
    let doc = applyUserPatch(base(), ops({ op: 'add', path: 'phoneNumbers[type eq "mobile"].value', value: '1' }));
    expect(doc.phoneNumbers).toEqual([{ type: 'mobile', value: '1' }]);
    doc = applyUserPatch(doc, ops({ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '2' }, { op: 'add', path: 'phoneNumbers', value: [{ type: 'work', value: '3' }] }));
    expect(doc.phoneNumbers).toEqual([{ type: 'mobile', value: '2' }, { type: 'work', value: '3' }]);
    doc = applyUserPatch(doc, ops({ op: 'remove', path: 'phoneNumbers[type eq "mobile"]' }));
    expect(doc.phoneNumbers).toEqual([{ type: 'work', value: '3' }]);
    expect(() => applyUserPatch(doc, ops({ op: 'replace', path: 'phoneNumbers[value co "9"].type', value: 'x' }))).toThrow(/no element/);
  });

  it('takes the member email from the primary entry, else work, else first, else an address userName', () => {
    expect(memberEmailOf({ ...base(), emails: [{ value: 'h@x.test', type: 'home' }, { value: 'w@x.test', type: 'work' }] })).toBe('w@x.test');
    expect(memberEmailOf({ ...base(), emails: undefined, userName: 'me@x.test' })).toBe('me@x.test');
    expect(() => memberEmailOf({ ...base(), emails: undefined })).toThrow(/emails/);
  });
});
