import { attributeFixture } from './attribute.fixture';
import { type MergeInputValue, mergedValues } from './merged-values';

const ids = { primaryId: 'p', secondaryId: 's', newId: 'n' };
const text = (attributeId: string, text: string): MergeInputValue => ({ attributeId, key: text, text });
const ref = (attributeId: string, target: string): MergeInputValue => ({ attributeId, key: target, ref: target, refType: 'object-1' });

describe('mergedValues', () => {
  const name = attributeFixture({ id: 'name' });
  const emails = attributeFixture({ id: 'emails', type: 'email-address', isMultiselect: true });
  const links = attributeFixture({ id: 'links', type: 'record-reference', isMultiselect: true });
  const owner = attributeFixture({ id: 'owner', type: 'record-reference' });

  it('keeps the primary value of a single-valued attribute both records hold', () => {
    expect(mergedValues([name], [text('name', 'Ada')], [text('name', 'Augusta')], ids)).toEqual([{ attributeId: 'name', value: { key: 'Ada', text: 'Ada' } }]);
  });

  it("takes the secondary's value where the primary has none", () => {
    expect(mergedValues([name], [], [text('name', 'Augusta')], ids).map((v) => v.value.text)).toEqual(['Augusta']);
  });

  it('unites multi-valued attributes, primary first, each value once', () => {
    const merged = mergedValues([emails], [text('emails', 'a@x.com'), text('emails', 'b@x.com')], [text('emails', 'b@x.com'), text('emails', 'c@x.com')], ids);
    expect(merged.map((v) => v.value.text)).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
  });

  it('drops references to either original, so the new record names neither itself nor a removed record', () => {
    const merged = mergedValues([links, owner], [ref('links', 's'), ref('links', 'other'), ref('owner', 'p')], [ref('links', 'p'), ref('links', 's')], ids);
    expect(merged.map((v) => [v.attributeId, v.value.ref, v.value.key])).toEqual([['links', 'other', 'other']]);
  });

  it("takes the secondary's reference where the primary's only one named an original", () => {
    const merged = mergedValues([owner], [ref('owner', 's')], [ref('owner', 'boss')], ids);
    expect(merged.map((v) => [v.attributeId, v.value.ref])).toEqual([['owner', 'boss']]);
  });

  it('keeps workspace-member references whatever their id', () => {
    const member: MergeInputValue = { attributeId: 'owner', key: 'p', ref: 'p', refType: 'workspace-member' };
    expect(mergedValues([owner], [member], [], ids).map((v) => v.value.ref)).toEqual(['p']);
  });

  it('drops values of attributes it is not given and answers nothing for two empty records', () => {
    expect(mergedValues([name], [text('gone', 'x')], [], ids)).toEqual([]);
    expect(mergedValues([name, emails], [], [], ids)).toEqual([]);
  });
});
