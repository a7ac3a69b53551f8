import { describe, expect, it } from 'vitest';
import { detectSyntax } from '../editor/gdl-language';

describe('syntax detection', () => {
  it('follows the first significant character, as the engine does', () => {
    expect(detectSyntax('; comment (x)\n(role x)')).toBe('prefix');
    expect(detectSyntax('% comment\nrole(x).')).toBe('infix');
    expect(detectSyntax('  \n')).toBe('prefix');
  });
});
