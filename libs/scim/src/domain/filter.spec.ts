import { type Filter, parseFilter } from './filter';
import { parsePatchPath, readPatchRequest, valueObjectEntries } from './patch';
import { SCIM_URN } from './urns';

/** A compact rendering of the AST, so that precedence and grouping are visible in one string. */
function show(filter: Filter): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${show(filter.left)} ${filter.kind} ${show(filter.right)})`;
    case 'not':
      return `not ${show(filter.filter)}`;
    case 'valuePath':
      return `${filter.path.name}[${show(filter.filter)}]`;
    case 'present':
      return `${name(filter.path)} pr`;
    default:
      return `${name(filter.path)} ${filter.op} ${JSON.stringify(filter.value)}`;
  }
}
const name = (path: { urn: string | null; name: string; sub: string | null }) => `${path.urn ? `${path.urn}:` : ''}${path.name}${path.sub ? `.${path.sub}` : ''}`;

const invalidFilter = expect.objectContaining({ code: 'validation_type', details: { scimType: 'invalidFilter' } });

describe('parseFilter (RFC 7644 §3.4.2.2)', () => {
  it.each([
    ['userName eq "a"', 'username eq "a"'],
    ['UserName EQ "A"', 'username eq "A"'],
    ['title pr', 'title pr'],
    ['a eq 1 or b eq 2 and c eq 3', '(a eq 1 or (b eq 2 and c eq 3))'],
    ['(a eq 1 or b eq 2) and c eq 3', '((a eq 1 or b eq 2) and c eq 3)'],
    ['not (a pr) and b pr', '(not a pr and b pr)'],
    ['a pr or b pr or c pr', '((a pr or b pr) or c pr)'],
    ['a pr AND b pr And c pr', '((a pr and b pr) and c pr)'],
    ['emails[type eq "work" and value co "@x"]', 'emails[(type eq "work" and value co "@x")]'],
    ['emails[type eq "work"].value eq "x"', 'emails[(type eq "work" and value eq "x")]'],
    ['emails[type eq "work"].value pr', 'emails[(type eq "work" and value pr)]'],
    ['name.givenName sw "J"', 'name.givenname sw "J"'],
    [`${SCIM_URN.user}:name.familyName eq "x"`, 'urn:ietf:params:scim:schemas:core:2.0:user:name.familyname eq "x"'],
    ['x eq true or y eq false or z eq null', '((x eq true or y eq false) or z eq null)'],
    ['n gt -1.5e3', 'n gt -1500'],
    ['s eq "quote \\" and \\u00e9"', 's eq "quote \\" and é"'],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', 'meta.lastmodified gt "2011-05-13T04:42:34Z"'],
    ['not not a pr', 'not not a pr'],
  ])('%s → %s', (input, expected) => {
    expect(show(parseFilter(input))).toBe(expected);
  });

  it.each([
    '',
    'a',
    'a eq',
    'a eq "x" and',
    'a eq "x" or or b pr',
    'a eq unquoted',
    "a eq 'single'",
    'a eq "unterminated',
    '(a pr',
    'a pr)',
    'a zz "x"',
    'a[b eq "x"',
    'a[b[c pr]]',
    'a.b[c pr]',
    'a.b.c eq "x"',
    'a eq "x" b eq "y"',
    '"x" eq a',
    'a eq "tab\there"',
    `${'('.repeat(40)}a pr${')'.repeat(40)}`,
    `a eq "${'x'.repeat(5000)}"`,
    'a eq #',
  ])('rejects %j with 400 invalidFilter', (input) => {
    expect(() => parseFilter(input)).toThrow(invalidFilter);
  });
});

describe('PATCH paths and bodies', () => {
  it('parses attribute, sub-attribute, filtered and filtered-sub paths', () => {
    expect(parsePatchPath('active')).toMatchObject({ attr: { name: 'active', sub: null }, filter: null, sub: null });
    expect(parsePatchPath('name.givenName')).toMatchObject({ attr: { name: 'name' }, sub: 'givenname' });
    expect(parsePatchPath('members[value eq "1"]')).toMatchObject({ attr: { name: 'members' }, sub: null, filter: { kind: 'compare', op: 'eq', value: '1' } });
    expect(parsePatchPath('emails[type eq "work"].value')).toMatchObject({ attr: { name: 'emails' }, sub: 'value' });
    for (const bad of ['emails[type eq "work"', 'emails[type eq "work"]x', 'name.givenName[x pr]', 'a.b.c']) {
      expect(() => parsePatchPath(bad)).toThrow(expect.objectContaining({ details: { scimType: 'invalidPath' } }));
    }
  });

  it('reads ops case-insensitively and keeps Entra string values for the caller to coerce', () => {
    const ops = readPatchRequest({ schemas: [SCIM_URN.patchOp], Operations: [{ op: 'Replace', path: 'active', value: 'False' }, { OP: 'ADD', Value: { active: true } }] });
    expect(ops.map((o) => [o.op, o.path?.text ?? null, o.value])).toEqual([
      ['replace', 'active', 'False'],
      ['add', null, { active: true }],
    ]);
  });

  it('splits a path-less value object into dotted, URN-qualified and nested entries', () => {
    const entries = valueObjectEntries(
      { 'name.givenName': 'a', [`${SCIM_URN.user}:name.familyName`]: 'b', [SCIM_URN.user]: { active: false }, [SCIM_URN.enterpriseUser]: { department: 'x' } },
      SCIM_URN.user,
    );
    expect(entries.map((e) => [e.path.attr.urn, e.path.attr.name, e.path.sub, e.value])).toEqual([
      [null, 'name', 'givenname', 'a'],
      [SCIM_URN.user.toLowerCase(), 'name', 'familyname', 'b'],
      [null, 'active', null, false],
      [SCIM_URN.enterpriseUser.toLowerCase(), '', null, { department: 'x' }],
    ]);
  });
});
