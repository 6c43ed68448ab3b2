// Lint for the whole monorepo: typescript-eslint's recommended rules plus the project's own bans.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused names are noise; a leading underscore marks an intentionally ignored parameter.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Nest modules and DTO namespaces are classes without members by design.
      '@typescript-eslint/no-extraneous-class': 'off',
      // It does not see reads inside decorators (`@Param('id', idPipe)`), so it flags every pipe constant.
      'no-useless-assignment': 'off',
      'no-restricted-syntax': [
        'error',
        // forwardRef hides a circular dependency between modules; extract the shared concept instead.
        { selector: "CallExpression[callee.name='forwardRef']", message: 'forwardRef is banned: break the cycle (see CONTRIBUTING.md).' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // Other contexts only through their front door (`@workbase/<context>`).
            { group: ['@workbase/*/src/*', '@workbase/*/*/**', '!@workbase/shared/*'], message: 'Import another context through its index.ts (@workbase/<context>).' },
          ],
        },
      ],
    },
  },
  {
    // Domain and application code must not know about HTTP (errors are DomainErrors, mapped once).
    files: ['libs/*/src/domain/**/*.ts', 'libs/*/src/application/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='forwardRef']", message: 'forwardRef is banned: break the cycle (see CONTRIBUTING.md).' },
        { selector: "NewExpression[callee.name=/Exception$/]", message: 'Throw a DomainError subclass from domain/application code; the filter maps it to HTTP.' },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
