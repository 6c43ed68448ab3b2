import { companyDomain, personalName } from './participant-person';

describe('personalName', () => {
  it.each([
    ['Ada Lovelace', { first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }],
    ['  Mary   Ann  Smith ', { first_name: 'Mary Ann', last_name: 'Smith', full_name: 'Mary Ann Smith' }],
    ['Cher', { first_name: 'Cher', last_name: '', full_name: 'Cher' }],
    ['Lovelace, Ada', { first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }],
    ['Lovelace,', { first_name: '', last_name: 'Lovelace', full_name: 'Lovelace' }],
  ])('splits %j', (input, expected) => {
    expect(personalName(input)).toEqual(expected);
  });

  it.each([null, undefined, '', '   ', ' , '])('has no name for %j', (input) => {
    expect(personalName(input)).toBeNull();
  });
});

describe('companyDomain', () => {
  it.each([
    ['olga@acme.com', 'acme.com'],
    ['olga@eng.acme.co.uk', 'acme.co.uk'],
    ['OLGA@Mail.Acme.COM', 'acme.com'],
    ['x@startup.io', 'startup.io'],
  ])('takes the root domain of %s', (email, domain) => {
    expect(companyDomain(email)).toBe(domain);
  });

  it.each(['a@gmail.com', 'a@googlemail.com', 'a@outlook.com', 'a@hotmail.com', 'a@live.com', 'a@yahoo.com', 'a@mail.yahoo.com', 'a@yahoo.fr', 'a@icloud.com', 'a@me.com', 'a@aol.com', 'a@proton.me', 'a@protonmail.com', 'a@gmx.de', 'a@gmx.net', 'a@a_b.com', 'a@[10.0.0.1]'])(
    'has no company for %s',
    (email) => {
      expect(companyDomain(email)).toBeNull();
    },
  );
});
